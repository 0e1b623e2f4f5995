import type { JsonValue } from "../../json-value.js";
import { type SearchDocument, SearchIndex } from "../../search/search-index.js";
import { type Steps, StepsOnce } from "../../slices.js";
import type { LeftOutOperation, SourceInfo } from "../source-info.js";
import type { UnvalidatedSubject } from "../unvalidated/unvalidated-operations.js";

/** A left-out operation that matched a query, with the namespace of its source. */
export interface LeftOutMatch {
  readonly namespace: string;
  readonly operation: LeftOutOperation;
}

/**
 * Ranked search over what the catalog does not hold: the sources' not-validated operations
 * (by path, description, capability notes and input fields, as the catalog indexes its own)
 * and what they left out (by name and summary). Without it a query finds only described
 * operations, and an agent looking for, say, "update a Sentry issue" never learns that the
 * source offers one. The catalog's own index holds described operations only, so these are
 * separate and their results are shown apart, never interleaved (the scores are not comparable).
 */
export class LeftOutSearch {
  readonly #leftOut: RankedList<LeftOutMatch>;
  readonly #unvalidated: RankedList<UnvalidatedSubject>;

  constructor(sources: readonly SourceInfo[]) {
    this.#leftOut = new RankedList(
      sources.flatMap(({ namespace, unsupported }) => unsupported.map((operation) => ({ namespace, operation }))),
      leftOutDocument,
    );
    this.#unvalidated = new RankedList(
      sources.flatMap(({ namespace, unvalidated }) =>
        (unvalidated ?? []).map((operation) => ({ path: `${namespace}.${operation.segment}`, operation })),
      ),
      unvalidatedDocument,
    );
  }

  /** Builds both indexes as steps; nothing once built. */
  *preparationSteps(): Steps<void> {
    yield* this.#leftOut.preparationSteps();
    yield* this.#unvalidated.preparationSteps();
  }

  /** The best `limit` left-out operations for a query, best first; the index is built now unless it was before. */
  matches(query: string, limit: number): LeftOutMatch[] {
    return this.#leftOut.matches(query, limit);
  }

  /** The best `limit` not-validated operations for a query, best first. */
  unvalidatedMatches(query: string, limit: number): UnvalidatedSubject[] {
    return this.#unvalidated.matches(query, limit);
  }
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

function unvalidatedDocument({ path, operation }: UnvalidatedSubject): SearchDocument {
  const schema = operation.inputSchema;
  const properties = typeof schema === "object" && typeof schema.properties === "object" ? schema.properties : null;
  return {
    path,
    description: operation.description ?? operation.summary ?? "",
    capabilities: operation.capabilities,
    instructions: "",
    inputFields:
      properties === null || Array.isArray(properties)
        ? []
        : Object.entries(properties).map(([name, field]) => ({ name, description: fieldDescription(field) })),
  };
}

function fieldDescription(field: JsonValue): string {
  return typeof field === "object" && field !== null && !Array.isArray(field) && typeof field.description === "string"
    ? field.description
    : "";
}
