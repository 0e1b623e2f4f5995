import type { Forage, Summary } from "../catalog/types.js";
import { type IndexEntry, indexLine } from "./directory-index.js";
import { DIGEST_LINE, DIGEST_UNSUPPORTED_LENGTH } from "./index-lines.js";
import { operationInputs } from "./input-names.js";
import type { LeftOutMatch, LeftOutSearch } from "./left-out-search.js";
import { cutText, plural } from "./text-pages.js";

/** The most results a /.search/<query>/ directory lists. */
export const SEARCH_DIRECTORY_LIMIT = 50;
/**
 * How many ranked operations a query directory's index shows, then how many left-out ones: a
 * digest that several queries' worth fits one read, where the directory and results.json hold
 * all SEARCH_DIRECTORY_LIMIT. The left-out few show the operation a task needs when only an
 * undescribed one does it.
 */
export const SEARCH_INDEX_RANKED = 10;
export const SEARCH_INDEX_LEFT_OUT = 3;
/** Most bytes of a query's digest, header included (docs/mount.md, "Search"). */
export const SEARCH_DIGEST_BYTES = 2 * 1024;
/** Most characters of the query as the digest's header quotes it. */
const QUOTED_QUERY_LENGTH = 80;

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
  const entries = results.map((summary: Summary, index: number) => ({
    name: `${String(index + 1).padStart(2, "0")}-${summary.path}.d.ts`,
    target: `../..${relativeFile(summary.path)}`,
  }));
  return {
    entries,
    indexPages: queryIndexPages(forage, query, results, unsupported),
    resultsJson: `${JSON.stringify({ query, results, unsupported: unsupported.map(unsupportedResult) }, null, 2)}\n`,
  };
}

function queryIndexPages(
  forage: Forage,
  query: string,
  results: readonly Summary[],
  unsupported: readonly LeftOutMatch[],
): string[] {
  const entries: IndexEntry[] = [
    ...results
      .slice(0, SEARCH_INDEX_RANKED)
      .map((summary): IndexEntry => ({ kind: "operation", summary, inputs: operationInputs(forage, summary.path) })),
    ...unsupported.map((match): IndexEntry => ({ kind: "unsupported", ...match })),
  ];
  const lines = entries.map((entry) =>
    indexLine(entry, entry.kind === "operation" ? DIGEST_LINE : { ...DIGEST_LINE, limit: DIGEST_UNSUPPORTED_LENGTH }),
  );
  // The longest header this query could have: the one finally written is never longer.
  const longest = digestHeader(query, Number.MAX_SAFE_INTEGER, SEARCH_INDEX_RANKED, SEARCH_INDEX_LEFT_OUT);
  const room = SEARCH_DIGEST_BYTES - Buffer.byteLength(longest) - 1;
  let shown = 0;
  for (let bytes = 0; shown < lines.length; shown++) {
    bytes += Buffer.byteLength(lines[shown] as string) + 1;
    if (bytes > room) break;
  }
  const ranked = Math.min(shown, SEARCH_INDEX_RANKED, results.length);
  const header = digestHeader(query, results.length, ranked, shown - ranked);
  return [
    `${header}\n${lines
      .slice(0, shown)
      .map((line) => `${line}\n`)
      .join("")}`,
  ];
}

/** What a digest holds: the best few of the ranked operations (all of them are in results.json), then the left-out ones. */
function digestHeader(query: string, total: number, ranked: number, leftOut: number): string {
  const quoted = cutText(JSON.stringify(query), QUOTED_QUERY_LENGTH);
  const best =
    ranked === total
      ? `${total} ranked ${plural(total, "operation")}`
      : `${ranked} of ${total} ranked operations (all: results.json)`;
  const rest = leftOut === 0 ? "" : `, then ${leftOut} unsupported`;
  return `# @index.txt: search results for ${quoted}, best first: ${best}${rest}. Lines as in @index.txt`;
}

function unsupportedResult({ namespace, operation }: LeftOutMatch) {
  return { namespace, ...operation };
}
