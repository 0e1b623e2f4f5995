import type { Forage, Summary } from "../catalog/types.js";

/** The most results a /.search/<query>/ directory lists. */
export const SEARCH_DIRECTORY_LIMIT = 50;

/** One ranked entry of a /.search/<query>/ directory. */
export interface RankedEntry {
  /** Zero-padded rank first, so plain `ls` (which sorts by name) keeps rank order. */
  readonly name: string;
  /** The operation's .d.ts, relative to the query directory. */
  readonly target: string;
}

/** A query directory: its ranked entries and the text of its results.json. */
export interface SearchListing {
  readonly entries: readonly RankedEntry[];
  readonly resultsJson: string;
}

/** Runs a ranked search for a /.search/<query>/ directory. `relativeFile` maps a path to its .d.ts under the root. */
export function searchListing(
  forage: Forage,
  query: string,
  namespace: string | undefined,
  relativeFile: (path: string) => string,
): SearchListing {
  const results = forage.search(query, { limit: SEARCH_DIRECTORY_LIMIT, namespace }).results;
  const entries = results.map((summary: Summary, index: number) => ({
    name: `${String(index + 1).padStart(2, "0")}-${summary.path}.d.ts`,
    target: `../..${relativeFile(summary.path)}`,
  }));
  return { entries, resultsJson: `${JSON.stringify({ query, results }, null, 2)}\n` };
}
