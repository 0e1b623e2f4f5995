import { searchIndexOf } from "../../catalog/catalog-view.js";
import { searchDocumentOf } from "../../catalog/prepared-operation.js";
import type { Forage, OperationDescription } from "../../catalog/types.js";
import { type SearchDocument, SearchIndex } from "../../search/search-index.js";
import { type Steps, StepsOnce } from "../../slices.js";
import { listEvery } from "../catalog-layout.js";
import type { LeftOutOperation, SourceInfo } from "../source-info.js";
import type { UnvalidatedSubject } from "../unvalidated/unvalidated-operations.js";

/** A left-out operation that matched a query, with the namespace of its source. */
export interface LeftOutMatch {
  readonly namespace: string;
  readonly operation: LeftOutOperation;
}

/** A not-validated operation that matched a query, with its score among the catalog's operations (see LeftOutSearch). */
export interface UnvalidatedMatch extends UnvalidatedSubject {
  readonly score: number;
}

/**
 * Ranked search over what the catalog does not hold: the sources' not-validated operations
 * (by path, description, capability notes and input fields, as the catalog indexes its own)
 * and what they left out (by name and summary). Without it a query finds only described
 * operations, and an agent looking for, say, "update a Sentry issue" never learns that the
 * source offers one.
 *
 * Not-validated operations are ranked in one index with the catalog's operations, so that a query's
 * scores for both are drawn from one set of term statistics and compare: a digest ranks them
 * together (docs/mount.md, "Search"). That index is the catalog's own, extended with them; the
 * catalog's own index, and so `search`, never holds them. Left-out operations have a name and a summary only, so they stay apart, shown after.
 */
export class LeftOutSearch {
  readonly #leftOut: RankedList<LeftOutMatch>;
  readonly #unvalidated: readonly UnvalidatedSubject[];
  /** The catalog's operations, then the not-validated ones; none built when there are no not-validated ones. */
  readonly #joint: StepsOnce<JointIndex>;

  constructor(sources: readonly SourceInfo[], forage: Forage, subtree: string | undefined) {
    this.#leftOut = new RankedList(
      sources.flatMap(({ namespace, unsupported }) => unsupported.map((operation) => ({ namespace, operation }))),
      leftOutDocument,
    );
    this.#unvalidated = sources.flatMap(({ namespace, unvalidated }) =>
      (unvalidated ?? []).map((operation) => ({ path: `${namespace}.${operation.segment}`, operation })),
    );
    this.#joint = new StepsOnce(() => jointIndexSteps(forage, subtree, this.#unvalidated));
  }

  /** Builds both indexes as steps; nothing once built. */
  *preparationSteps(): Steps<void> {
    yield* this.#leftOut.preparationSteps();
    if (this.#unvalidated.length > 0) yield* this.#joint.steps();
  }

  /** The best `limit` left-out operations for a query, best first; the index is built now unless it was before. */
  matches(query: string, limit: number): LeftOutMatch[] {
    return this.#leftOut.matches(query, limit);
  }

  /** The best `limit` not-validated operations for a query, best first, with their scores. */
  unvalidatedMatches(query: string, limit: number): UnvalidatedMatch[] {
    if (this.#unvalidated.length === 0 || limit <= 0) return [];
    const { index, first } = this.#joint.value();
    const found: UnvalidatedMatch[] = [];
    index.rank(
      query,
      (doc) => doc >= first,
      ({ doc, score }) => {
        found.push({ ...(this.#unvalidated[doc - first] as UnvalidatedSubject), score });
        return found.length < limit;
      },
    );
    return found;
  }

  /**
   * The scores of some of the catalog's operations for a query in the index the not-validated ones
   * are ranked in, so that the two compare; 0 for an operation that does not match there. Empty when
   * there are no not-validated operations (nothing to compare with).
   */
  catalogScores(query: string, paths: readonly string[]): Map<string, number> {
    const scores = new Map<string, number>();
    if (this.#unvalidated.length === 0 || paths.length === 0) return scores;
    const { index, docOf } = this.#joint.value();
    const wanted = new Map<number, string>();
    for (const path of paths) {
      const doc = docOf(path);
      if (doc !== undefined) wanted.set(doc, path);
      scores.set(path, 0);
    }
    index.rank(
      query,
      (doc) => wanted.has(doc),
      ({ doc, score }) => {
        scores.set(wanted.get(doc) as string, score);
        return true;
      },
    );
    return scores;
  }
}

/** The joint index, the number of its first not-validated document, and the number of a catalog operation's path. */
interface JointIndex {
  readonly index: SearchIndex;
  readonly first: number;
  readonly docOf: (path: string) => number | undefined;
}

/** Documents made per step while the joint index's documents are gathered (each walks a schema). */
const DOCUMENTS_PER_STEP = 256;

/**
 * The index the catalog searches with, extended with the not-validated operations (numbered after
 * the catalog's): the catalog's operations are not weighed again (docs/search.md, "An index
 * extended with more documents"). A Forage made elsewhere shares no index: one is built over its
 * operations in scope and the not-validated ones together.
 */
function* jointIndexSteps(
  forage: Forage,
  subtree: string | undefined,
  unvalidated: readonly UnvalidatedSubject[],
): Steps<JointIndex> {
  const own = searchIndexOf(forage);
  const documents = yield* unvalidatedDocumentsSteps(unvalidated);
  if (own !== undefined) {
    const catalogIndex = yield* own.steps;
    return { index: yield* catalogIndex.extendedSteps(documents), first: catalogIndex.size, docOf: own.docOf };
  }
  const summaries = yield* listEvery(forage, subtree);
  const docs = new Map(summaries.map(({ path }, doc) => [path, doc]));
  const listed: SearchDocument[] = [];
  for (const { path } of summaries) {
    listed.push(searchDocumentOf(forage.describe(path) as OperationDescription));
    if (listed.length % DOCUMENTS_PER_STEP === 0) yield;
  }
  const index = yield* SearchIndex.buildSteps([...listed, ...documents]);
  return { index, first: listed.length, docOf: (path) => docs.get(path) };
}

/** The not-validated operations as search documents, as the catalog's operations are, as steps. */
function* unvalidatedDocumentsSteps(unvalidated: readonly UnvalidatedSubject[]): Steps<SearchDocument[]> {
  const documents: SearchDocument[] = [];
  for (const { path, operation } of unvalidated) {
    documents.push(
      searchDocumentOf({
        path,
        description: operation.description ?? operation.summary ?? "",
        capabilities: operation.capabilities,
        instructions: null,
        inputSchema: operation.inputSchema,
      }),
    );
    if (documents.length % DOCUMENTS_PER_STEP === 0) yield;
  }
  return documents;
}

/** Entries and their index, built on the first query, or beforehand between a mount's requests (preparationSteps). */
class RankedList<T> {
  readonly #entries: readonly T[];
  readonly #index: StepsOnce<SearchIndex>;

  constructor(entries: readonly T[], document: (entry: T) => SearchDocument) {
    this.#entries = entries;
    this.#index = new StepsOnce(() => SearchIndex.buildSteps(entries.map(document)));
  }

  *preparationSteps(): Steps<void> {
    yield* this.#index.steps();
  }

  matches(query: string, limit: number): T[] {
    if (this.#entries.length === 0 || limit <= 0) return [];
    const found: T[] = [];
    this.#index.value().rank(
      query,
      () => true,
      ({ doc }) => {
        found.push(this.#entries[doc] as T);
        return found.length < limit;
      },
    );
    return found;
  }
}

// The name goes in the path field, which weighs most, as an operation's path does.
function leftOutDocument({ namespace, operation }: LeftOutMatch): SearchDocument {
  return {
    path: `${namespace}.${operation.name}`,
    description: operation.summary ?? "",
    capabilities: [],
    instructions: "",
    inputFields: [],
  };
}
