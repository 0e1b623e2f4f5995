import type { Forage, Summary } from "../../catalog/types.js";
import { INDEX_STEM, type IndexEntry, indexLine } from "../files/directory-index.js";
import { DIGEST_LINE, DIGEST_UNSUPPORTED_LENGTH } from "../text/index-lines.js";
import { operationInputs } from "../text/input-names.js";
import { cutText, pageName, plural, renderPages } from "../text/text-pages.js";
import { type UnvalidatedSubject, unvalidatedSample } from "../unvalidated/unvalidated-operations.js";
import { digestMatches, passesOverBest, SEARCH_INDEX_PER_NAMESPACE } from "./digest-spread.js";
import type { LeftOutMatch, LeftOutSearch, UnvalidatedMatch } from "./left-out-search.js";

/** The most results a /.search/<query>/ directory lists. */
export const SEARCH_DIRECTORY_LIMIT = 50;
/**
 * How many left-out operations a query directory's index shows after the ranked ones
 * (SEARCH_INDEX_RANKED, digest-spread.ts): the left-out few show the operation a task needs when only an undescribed
 * one does it. The whole digest stays small enough that an agent reads one per need, several needs in
 * one call, for less than the tool names of a plain folder cost it; the directory and results.json
 * hold all SEARCH_DIRECTORY_LIMIT.
 */
export const SEARCH_INDEX_LEFT_OUT = 2;
/** How many not-validated operations a query directory shows (entries and results.json), best first in the joint index. */
export const SEARCH_UNVALIDATED = 10;
/** Most bytes of a query's digest, header included (docs/mount.md, "Search"). */
export const SEARCH_DIGEST_BYTES = 1024;
/** Most characters of the query as the digest's header quotes it. */
const QUOTED_QUERY_LENGTH = 80;
/**
 * The page after the digest: the first of the ranked matches it does not show, best first, as digest
 * lines, a tenth of what results.json costs for the same matches (docs/mount.md, "Search").
 */
const MORE_PAGE = pageName(INDEX_STEM, 1);
/**
 * Most matches a page after the digest shows: about a kilobyte, two digests' worth. An agent that
 * wants a few more candidates than the digest shows pays for those, not for all fifty (7 KB).
 */
const MORE_PAGE_LINES = 8;

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
    indexPages: queryIndexPages(forage, query, results, unvalidated, unsupported, leftOut),
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
  unvalidated: readonly UnvalidatedMatch[],
  unsupported: readonly LeftOutMatch[],
  leftOut: LeftOutSearch,
): string[] {
  const scores = leftOut.catalogScores(
    query,
    results.map(({ path }) => path),
  );
  const ranked = bothRanked(results, unvalidated, scores);
  // One scale for both: the joint index's, which is the catalog's own when there is nothing not validated.
  const chosen = digestMatches(ranked, (match) =>
    "operation" in match ? match.score : (scores.get(match.path) ?? match.score),
  );
  const entries: IndexEntry[] = [
    ...chosen.map((match) => rankedEntry(forage, match)),
    ...unsupported.map((match): IndexEntry => ({ kind: "unsupported", ...match })),
  ];
  const lines = entries.map((entry) =>
    indexLine(entry, entry.kind === "unsupported" ? { ...DIGEST_LINE, limit: DIGEST_UNSUPPORTED_LENGTH } : DIGEST_LINE),
  );
  const total = ranked.length;
  // The longest header this query could have: the one finally written is never longer.
  const room = SEARCH_DIGEST_BYTES - Buffer.byteLength(digestHeader(query, Number.MAX_SAFE_INTEGER, 0, true)) - 1;
  let shown = 0;
  for (let bytes = 0; shown < lines.length; shown++) {
    bytes += Buffer.byteLength(lines[shown] as string) + 1;
    if (bytes > room) break;
  }
  const operations = entries.slice(0, shown).filter(({ kind }) => kind !== "unsupported").length;
  const digest = `${digestHeader(query, total, operations, passesOverBest(chosen, ranked, operations))}\n${lines
    .slice(0, shown)
    .map((line) => `${line}\n`)
    .join("")}`;
  const inDigest = new Set(chosen.slice(0, operations));
  const rest = ranked.filter((match) => !inDigest.has(match));
  return rest.length === 0 ? [digest] : [digest, ...morePages(forage, query, rest, total)];
}

/** A ranked match as an index entry: a catalog operation with its inputs, or a not-validated one. */
function rankedEntry(forage: Forage, match: Summary | UnvalidatedMatch): IndexEntry {
  return "operation" in match
    ? { kind: "unvalidated", ...match }
    : { kind: "operation", summary: match, inputs: operationInputs(forage, match.path) };
}

/**
 * MORE_PAGE and the pages after it, MORE_PAGE_LINES matches each: `# search "QUERY": the other N of
 * M, best first (all: results.json)`, with `, A–B on page P of Q` when there are several, then a
 * digest line each.
 */
function morePages(
  forage: Forage,
  query: string,
  rest: readonly (Summary | UnvalidatedMatch)[],
  total: number,
): string[] {
  const quoted = quotedQuery(query);
  const lines = rest.map((match) => indexLine(rankedEntry(forage, match), DIGEST_LINE));
  return renderPages(
    INDEX_STEM,
    lines,
    (at) => {
      const page = at.pages === 2 ? "" : `, ${at.first}–${at.last} on page ${at.page + 1} of ${at.pages}`;
      return `# search ${quoted}: the other ${rest.length} of ${total}, best first${page} (all: results.json)`;
    },
    1,
    MORE_PAGE_LINES,
  );
}

/**
 * The catalog's ranked operations and the not-validated ones in one ranking: the catalog's keep their
 * order, and each not-validated one goes before the first whose score it passes, both scores drawn from
 * the one index that holds both (LeftOutSearch). So a weak not-validated match never shows above a
 * better validated one, nor a strong one below weak ones.
 */
function bothRanked(
  ranked: readonly Summary[],
  unvalidated: readonly UnvalidatedMatch[],
  scores: ReadonlyMap<string, number>,
): (Summary | UnvalidatedMatch)[] {
  const merged: (Summary | UnvalidatedMatch)[] = [];
  let next = 0;
  for (const summary of ranked) {
    const score = scores.get(summary.path) ?? 0;
    while (next < unvalidated.length && (unvalidated[next] as UnvalidatedMatch).score > score) {
      merged.push(unvalidated[next++] as UnvalidatedMatch);
    }
    merged.push(summary);
  }
  merged.push(...unvalidated.slice(next));
  return merged;
}

/**
 * `# search "QUERY": best N of M (more: @index.2.txt)`: what the file is, and where the rest is; with
 * `, N per namespace` after M when the namespaces' share passed over some of the best.
 */
function digestHeader(query: string, total: number, shown: number, spread: boolean): string {
  const quoted = quotedQuery(query);
  const share = spread ? `, ${SEARCH_INDEX_PER_NAMESPACE} per namespace` : "";
  const counts =
    shown === total
      ? `${total} ${plural(total, "operation")}`
      : `best ${shown} of ${total}${share} (more: ${MORE_PAGE})`;
  return `# search ${quoted}: ${counts}`;
}

/** The query as the headers of its directory's pages quote it: JSON-quoted, cut to QUOTED_QUERY_LENGTH. */
function quotedQuery(query: string): string {
  return cutText(JSON.stringify(query), QUOTED_QUERY_LENGTH);
}

function unsupportedResult({ namespace, operation }: LeftOutMatch) {
  return { namespace, ...operation };
}
