import type { Forage, Summary } from "../catalog/types.js";
import { type IndexEntry, indexPagesHeaded } from "./directory-index.js";
import type { LeftOutMatch, LeftOutSearch } from "./left-out-search.js";
import { optionalInputs } from "./optional-inputs.js";
import { plural } from "./text-pages.js";
import { UNVALIDATED_MARK, type UnvalidatedSubject, unvalidatedSample } from "./unvalidated-operations.js";

/** The most results a /.search/<query>/ directory lists. */
export const SEARCH_DIRECTORY_LIMIT = 50;
/**
 * How many ranked operations a query directory's index shows, then how many left-out ones: a
 * digest that several queries' worth fits one read, where the directory and results.json hold
 * all SEARCH_DIRECTORY_LIMIT. The left-out few show the operation a task needs when only an
 * undescribed one does it.
 */
export const SEARCH_INDEX_RANKED = 10;
export const SEARCH_INDEX_LEFT_OUT = 5;
/** How many not-validated operations a query directory shows (index, entries and results.json): ranked apart, as operations. */
export const SEARCH_UNVALIDATED = 10;

/** One ranked entry of a /.search/<query>/ directory. */
export interface RankedEntry {
  /** Zero-padded rank first, so plain `ls` (which sorts by name) keeps rank order. */
  readonly name: string;
  /** The operation's .d.ts, relative to the query directory. */
  readonly target: string;
}

/** A query directory: its ranked entries, its index pages and the text of its results.json. */
export interface SearchListing {
  readonly entries: readonly RankedEntry[];
  readonly indexPages: readonly string[];
  readonly resultsJson: string;
}

/** Runs a ranked search for a /.search/<query>/ directory. `relativeFile` maps a path to its .d.ts under the root. */
export function searchListing(
  forage: Forage,
  query: string,
  namespace: string | undefined,
  relativeFile: (path: string) => string,
  leftOut: LeftOutSearch,
): SearchListing {
  // The catalog's search checks the query's bounds, so it runs first.
  const results = forage.search(query, { limit: SEARCH_DIRECTORY_LIMIT, namespace }).results;
  const unsupported = leftOut.matches(query, SEARCH_INDEX_LEFT_OUT);
  const unvalidated = leftOut.unvalidatedMatches(query, SEARCH_UNVALIDATED);
  const entries = results.map((summary: Summary, index: number) => ({
    name: `${String(index + 1).padStart(2, "0")}-${summary.path}.d.ts`,
    target: `../..${relativeFile(summary.path)}`,
  }));
  const listed = { query, results, ...unvalidatedResults(unvalidated, relativeFile) };
  return {
    entries: [...entries, ...unvalidatedEntries(unvalidated, relativeFile)],
    indexPages: queryIndexPages(forage, query, results, unvalidated, unsupported),
    resultsJson: `${JSON.stringify({ ...listed, unsupported: unsupported.map(unsupportedResult) }, null, 2)}\n`,
  };
}

/** The not-validated matches' entries, `nv-01-PATH.d.ts`, …: after the ranked ones in `ls`, and never mistaken for them. */
function unvalidatedEntries(
  unvalidated: readonly UnvalidatedSubject[],
  relativeFile: (path: string) => string,
): RankedEntry[] {
  return unvalidated.map(({ path }, index) => ({
    name: `nv-${String(index + 1).padStart(2, "0")}-${path}.d.ts`,
    target: `../..${relativeFile(path)}`,
  }));
}

/** results.json's `notValidated`: each match's path, file, reason and sample, present only when there are any. */
function unvalidatedResults(unvalidated: readonly UnvalidatedSubject[], relativeFile: (path: string) => string) {
  if (unvalidated.length === 0) return {};
  return {
    notValidated: unvalidated.map((subject) => ({
      path: subject.path,
      file: relativeFile(subject.path).slice(1),
      description: subject.operation.description ?? subject.operation.summary ?? "",
      sample: unvalidatedSample(subject),
      reason: subject.operation.reason,
    })),
  };
}

function queryIndexPages(
  forage: Forage,
  query: string,
  results: readonly Summary[],
  unvalidated: readonly UnvalidatedSubject[],
  unsupported: readonly LeftOutMatch[],
): string[] {
  const shown = results.slice(0, SEARCH_INDEX_RANKED);
  const entries: IndexEntry[] = [
    ...shown.map(
      (summary): IndexEntry => ({ kind: "operation", summary, optional: optionalInputs(forage, summary.path) }),
    ),
    ...unvalidated.map((subject): IndexEntry => ({ kind: "unvalidated", ...subject })),
    ...unsupported.map((match): IndexEntry => ({ kind: "unsupported", ...match })),
  ];
  const ranked =
    shown.length === results.length
      ? `${results.length} ranked ${plural(results.length, "operation")}`
      : `the best ${shown.length} of ${results.length} ranked operations (all of them: ls this directory, or results.json)`;
  const leftOut = unsupported.length === 0 ? "" : `, then the best ${unsupported.length} unsupported`;
  const headline = `search results for ${JSON.stringify(query)}, best first: ${ranked}${unvalidatedHeadline(unvalidated)}${leftOut}`;
  return indexPagesHeaded(headline, entries);
}

function unvalidatedHeadline(unvalidated: readonly UnvalidatedSubject[]): string {
  return unvalidated.length === 0 ? "" : `, then the best ${unvalidated.length} ${UNVALIDATED_MARK}`;
}

function unsupportedResult({ namespace, operation }: LeftOutMatch) {
  return { namespace, ...operation };
}
