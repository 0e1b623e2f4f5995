import { SearchIndex } from "../search/search-index.js";
import { type Steps, StepsOnce } from "../slices.js";
import type { LeftOutOperation, SourceInfo } from "./source-info.js";

/** A left-out operation that matched a query, with the namespace of its source. */
export interface LeftOutMatch {
  readonly namespace: string;
  readonly operation: LeftOutOperation;
}

/**
 * Ranked search over what the sources left out, by name and summary. Without it a
 * query finds only described operations, and an agent looking for, say, "update a
 * Sentry issue" never learns that the source offers one it could name. The catalog's
 * own index holds described operations only, so this one is separate and its results
 * are shown apart, never interleaved (the two sets of scores are not comparable).
 */
export class LeftOutSearch {
  readonly #entries: readonly LeftOutMatch[];
  /** Built on the first query, or beforehand between a mount's requests (preparationSteps). */
  readonly #index: StepsOnce<SearchIndex>;

  constructor(sources: readonly SourceInfo[]) {
    const entries = sources.flatMap(({ namespace, unsupported }) =>
      unsupported.map((operation) => ({ namespace, operation })),
    );
    this.#entries = entries;
    this.#index = new StepsOnce(() => SearchIndex.buildSteps(entries.map(searchDocument)));
  }

  /** Builds the index as steps; nothing once built. */
  preparationSteps(): Steps<SearchIndex> {
    return this.#index.steps();
  }

  /** The best `limit` left-out operations for a query, best first; the index is built now unless it was before. */
  matches(query: string, limit: number): LeftOutMatch[] {
    if (this.#entries.length === 0 || limit <= 0) return [];
    const found: LeftOutMatch[] = [];
    this.#index.value().rank(
      query,
      () => true,
      ({ doc }) => {
        found.push(this.#entries[doc] as LeftOutMatch);
        return found.length < limit;
      },
    );
    return found;
  }
}

// The name goes in the path field, which weighs most, as an operation's path does.
function searchDocument({ namespace, operation }: LeftOutMatch) {
  return {
    path: `${namespace}.${operation.name}`,
    description: operation.summary ?? "",
    capabilities: [],
    instructions: "",
    inputFields: [],
  };
}
