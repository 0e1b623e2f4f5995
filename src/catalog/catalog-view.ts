import { declarationHeader } from "../describe/declaration-text.js";
import { declareEnv } from "../describe/env-declaration.js";
import { declareAliases, declareOperation } from "../describe/operation-declaration.js";
import { ForageError } from "../forage-error.js";
import { lowerBound } from "../lower-bound.js";
import type { SearchIndex } from "../search/search-index.js";
import { type Steps, StepsOnce } from "../slices.js";
import { sha256Hex } from "./canonical-json.js";
import { type CatalogCore, describeOperation, searchIndexSteps } from "./catalog-core.js";
import {
  DEFAULT_LIST_LIMIT,
  DEFAULT_SEARCH_LIMIT,
  MAX_DESCRIPTION_RESPONSE,
  MAX_LIST_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
  MIN_LIST_LIMIT,
} from "./limits.js";
import { cursorScope, decodeCursor, encodeCursor } from "./list-cursor.js";
import { isUnderNamespace } from "./operation-path.js";
import type { PreparedOperation } from "./prepared-operation.js";
import type {
  DescribeOptions,
  Description,
  Forage,
  ListOptions,
  ListPage,
  NamespaceDescription,
  SearchOptions,
  SearchResult,
  Summary,
} from "./types.js";

/**
 * list, search and describe over the operations one caller may see: the whole
 * catalog, or a host-narrowed binding. Unseen operations are filtered before
 * paging and ranking, so nothing reveals them (AFI's cloaking rule).
 */
export class CatalogView implements Forage {
  /** Visible documents in list order. */
  readonly #visible: readonly number[];
  readonly #isVisible: Uint8Array;
  /**
   * A narrowed view ranks with statistics and stamps from its visible operations
   * only: term frequencies, completions or a stamp drawn from the whole catalog
   * would let unbound operations change what a guest sees.
   */
  readonly #stamp: string;
  /** Built on the first search, or beforehand in steps (docs/catalog.md, "Operations and catalogs"). */
  readonly #index: StepsOnce<SearchIndex>;
  readonly #whole: boolean;

  readonly #core: CatalogCore;
  readonly #bindingKey: string;

  constructor(core: CatalogCore, visible: readonly number[], bindingKey: string) {
    this.#core = core;
    this.#bindingKey = bindingKey;
    this.#visible = visible;
    this.#isVisible = new Uint8Array(core.operations.length);
    for (const doc of visible) this.#isVisible[doc] = 1;
    const whole = visible.length === core.operations.length;
    this.#stamp =
      bindingKey === "all" ? core.stamp : `sha256:${sha256Hex(visible.map((doc) => core.digests[doc]).join("\n"))}`;
    this.#whole = whole;
    this.#index = whole
      ? core.index
      : new StepsOnce(() => searchIndexSteps(visible.map((doc) => core.operations[doc] as PreparedOperation)));
  }

  /** What this view's search needs (the equivalence groups, its index), built as steps; nothing once built. */
  *searchSteps(): Steps<void> {
    yield* this.#core.equivalents.steps();
    yield* this.#index.steps();
  }

  /** This view's index as steps: built once, by these steps or by the first search, whichever comes first. */
  *indexSteps(): Steps<SearchIndex> {
    return yield* this.#index.steps();
  }

  /** The number this view's index gives a visible operation's path; undefined for any other path. */
  indexDocOf(path: string): number | undefined {
    const doc = this.#core.byPath.get(path);
    if (doc === undefined || this.#isVisible[doc] !== 1) return undefined;
    return this.#whole ? doc : lowerBound(this.#visible.length, (position) => this.#docAt(position) < doc);
  }

  /**
   * The core's number of the document at `position` in this view's index: the whole view's index
   * numbers documents as the core does, a narrowed view's numbers its visible ones in list order.
   */
  #docAt(position: number): number {
    return this.#whole ? position : (this.#visible[position] as number);
  }

  /** Whether searchSteps has nothing left to do. */
  get searchReady(): boolean {
    return this.#core.equivalents.done && this.#index.done;
  }

  /** One page of operations in list order. */
  list(options: ListOptions = {}): ListPage {
    const limit = checkedLimit(options.limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
    const namespace = checkedNamespace(options.namespace);
    const [start, end] = this.#namespaceRange(namespace);
    const total = end - start;
    const scope = cursorScope(this.#stamp, namespace, this.#bindingKey);
    const offset = options.cursor == null ? 0 : decodeCursor(options.cursor, scope, total);
    const pageEnd = Math.min(total, offset + limit);
    const results = this.#visible.slice(start + offset, start + pageEnd).map((doc) => this.#operation(doc).summary);
    return {
      results,
      total,
      catalogStamp: this.#stamp,
      nextCursor: pageEnd < total ? encodeCursor(scope, pageEnd) : null,
    };
  }

  /** Ranked matches, equivalent operations merged into one result with `peers`. */
  search(query: string, options: SearchOptions = {}): SearchResult {
    if (typeof query !== "string") throw new ForageError("invalid_argument", "the query must be a string");
    if (query.length > MAX_QUERY_LENGTH) {
      throw new ForageError(
        "invalid_argument",
        `the query is ${query.length} characters, over the bound of ${MAX_QUERY_LENGTH}`,
      );
    }
    const limit = checkedLimit(options.limit, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT);
    const namespace = checkedNamespace(options.namespace);
    const accept = (doc: number): boolean =>
      this.#isVisible[doc] === 1 && (namespace === undefined || isUnderNamespace(this.#operation(doc).path, namespace));
    const results: Summary[] = [];
    const merged = new Set<number>();
    const equivalents = this.#core.equivalents.value();
    this.#index.value().rank(
      query,
      (position) => accept(this.#docAt(position)),
      (ranked) => {
        const match = this.#docAt(ranked.doc);
        if (merged.has(match)) return true;
        const group = (equivalents[match] ?? []).filter((doc) => doc !== match && accept(doc));
        for (const peer of group) merged.add(peer);
        const summary = this.#operation(match).summary;
        results.push(
          Object.freeze({
            ...summary,
            score: ranked.score,
            peers: Object.freeze(group.map((doc) => this.#operation(doc).path)),
          }),
        );
        return results.length < limit;
      },
    );
    return { results, catalogStamp: this.#stamp };
  }

  /** The description of one operation, or of a namespace's operations. */
  describe(pathOrNamespace: string, options: DescribeOptions = {}): Description {
    if (typeof pathOrNamespace !== "string")
      throw new ForageError("invalid_argument", "describe takes a path or namespace string");
    const doc = this.#core.byPath.get(pathOrNamespace);
    if (doc !== undefined && this.#isVisible[doc] === 1) {
      if (options.select !== undefined)
        throw new ForageError("invalid_argument", "select applies to a namespace, not to one operation");
      return describeOperation(this.#operation(doc), this.#stamp);
    }
    return this.#describeNamespace(pathOrNamespace, options.select);
  }

  /** Rendered for each call: a catalog keeps no declaration text (docs/catalog.md, "Describe"). */
  #describeNamespace(namespace: string, select: readonly string[] | undefined): NamespaceDescription {
    const [start, end] = this.#namespaceRange(namespace === "" ? undefined : namespace);
    if (start === end) throw notFound(namespace);
    const docs = select === undefined ? this.#visible.slice(start, end) : this.#selected(namespace, select);
    return this.#buildNamespaceDescription(namespace, docs);
  }

  #selected(namespace: string, select: readonly string[]): number[] {
    if (!Array.isArray(select) || select.length === 0 || select.some((name) => typeof name !== "string")) {
      throw new ForageError(
        "invalid_argument",
        "select must be a non-empty array of operation paths relative to the namespace",
      );
    }
    const docs = new Set<number>();
    for (const name of select) {
      const path = namespace === "" ? name : `${namespace}.${name}`;
      const doc = this.#core.byPath.get(path);
      if (doc === undefined || this.#isVisible[doc] !== 1) throw notFound(path);
      docs.add(doc);
    }
    return [...docs].sort((a, b) => a - b);
  }

  #buildNamespaceDescription(namespace: string, docs: readonly number[]): NamespaceDescription {
    const operations = docs.map((doc) => this.#operation(doc));
    // Aliases dominate the size, and creation measured each operation's, so this estimate refuses before rendering any.
    const estimate = operations.reduce((sum, operation) => sum + operation.aliasesLength, 0);
    if (estimate > MAX_DESCRIPTION_RESPONSE) throw tooLarge(namespace, estimate);
    const subject = namespace === "" ? "the whole catalog" : `namespace ${namespace}`;
    const aliases = operations.map(declareAliases).join("\n");
    const typescript = `${declarationHeader(subject)}${aliases}\n${declareEnv(operations.map(declareOperation))}`;
    if (typescript.length > MAX_DESCRIPTION_RESPONSE) throw tooLarge(namespace, typescript.length);
    return Object.freeze({
      kind: "namespace",
      namespace,
      operations: Object.freeze(operations.map((operation) => operation.path)),
      typescript,
      catalogStamp: this.#stamp,
    });
  }

  /** The slice of `visible` under a namespace; list order keeps every namespace contiguous. */
  #namespaceRange(namespace: string | undefined): [number, number] {
    if (namespace === undefined) return [0, this.#visible.length];
    // "." sorts below every identifier character, so the paths under N are exactly those in ["N.", "N/").
    return [this.#lowerBound(`${namespace}.`), this.#lowerBound(`${namespace}/`)];
  }

  #lowerBound(path: string): number {
    return lowerBound(this.#visible.length, (index) => this.#operation(this.#visible[index] as number).path < path);
  }

  #operation(doc: number) {
    return this.#core.operations[doc] as CatalogCore["operations"][number];
  }
}

/** The view behind each public surface made here (a catalog's or createForage's), for searchPreparation. */
const views = new WeakMap<object, CatalogView>();

/** The frozen public surface of a view. */
export function forageOf(view: CatalogView): Forage {
  return registerView(
    Object.freeze({
      list: view.list.bind(view),
      search: view.search.bind(view),
      describe: view.describe.bind(view),
    }),
    view,
  );
}

/** Records that `surface` answers through `view`; returns `surface`. */
export function registerView<T extends object>(surface: T, view: CatalogView): T {
  views.set(surface, view);
  return surface;
}

/**
 * What the first search of `forage` would build (docs/catalog.md, "Operations and catalogs"),
 * as steps a server runs between its requests once it serves, with `ready` telling whether
 * it is built. A search that comes first builds what is left of it at once, so answers never
 * depend on it. A Forage made elsewhere has nothing to prepare.
 */
export function searchPreparation(forage: Forage): { readonly steps: Steps<void>; readonly ready: () => boolean } {
  const view = views.get(forage);
  if (view === undefined) return { steps: noSteps(), ready: () => true };
  return { steps: view.searchSteps(), ready: () => view.searchReady };
}

/**
 * The index `forage` searches with, as steps (built once, shared with its searches), and the number
 * it gives each visible operation's path: for a caller that ranks other documents among the
 * catalog's operations on one set of term statistics (SearchIndex.extendedSteps, docs/search.md).
 * Undefined for a Forage made elsewhere.
 */
export function searchIndexOf(
  forage: Forage,
): { readonly steps: Steps<SearchIndex>; readonly docOf: (path: string) => number | undefined } | undefined {
  const view = views.get(forage);
  if (view === undefined) return undefined;
  return { steps: view.indexSteps(), docOf: (path) => view.indexDocOf(path) };
}

/** Nothing to do, as steps. */
function* noSteps(): Steps<void> {}

function checkedLimit(limit: unknown, fallback: number, max: number): number {
  if (limit === undefined) return fallback;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < MIN_LIST_LIMIT || limit > max) {
    throw new ForageError(
      "invalid_argument",
      `limit must be an integer from ${MIN_LIST_LIMIT} to ${max}; got ${String(limit)}`,
    );
  }
  return limit;
}

function checkedNamespace(namespace: unknown): string | undefined {
  if (namespace === undefined || namespace === "") return undefined;
  if (typeof namespace !== "string") throw new ForageError("invalid_argument", "namespace must be a string");
  return namespace;
}

function notFound(path: string): ForageError {
  return new ForageError("not_found", `no operation or namespace ${JSON.stringify(path)}`, { path });
}

function tooLarge(namespace: string, size: number): ForageError {
  const listCall = namespace === "" ? "list()" : `list({ namespace: ${JSON.stringify(namespace)} })`;
  return new ForageError(
    "too_large",
    `describing ${namespace === "" ? "the whole catalog" : `namespace ${JSON.stringify(namespace)}`} needs ${size} characters, over the response bound of ${MAX_DESCRIPTION_RESPONSE}; ` +
      `page it with ${listCall}, describe one operation by its path, or pass select: [...] to describe chosen methods`,
    { namespace, size, bound: MAX_DESCRIPTION_RESPONSE },
  );
}
