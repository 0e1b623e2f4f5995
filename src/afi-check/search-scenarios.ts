import { posix } from "node:path";
import type { Reply, Transport } from "./afi-client.js";
import { type Match, schemaProblem, searchSchema } from "./afi-schemas.js";
import { type SearchSample, splitLines } from "./provider-sample.js";
import { type CheckContext, expectCode, fail, flipCase, okValue, type Scenario, type Verdict } from "./scenario.js";
import { missingPath } from "./stat-list-scenarios.js";

/** The page the sample is looked for in: a full page may stop before it. */
const PAGE = 100;
/** Most matches of one answer checked against the files they name. */
const MAX_VERIFIED = 20;
const NO_SAMPLE: Verdict = { skip: "the walk found no small UTF-8 file with a word to search for" };
const PAGING: { transports: readonly Transport[]; because: string } = {
  transports: ["http", "mcp"],
  because: "AFI's FUSE binding defines no search cursor",
};

/** The matches of a search answer, after the answer's shape is checked. */
function matchesOf(reply: Reply, expected: string): { matches: Match[]; next_cursor?: string } {
  const value = okValue(reply, expected);
  const problem = schemaProblem(searchSchema, value);
  if (problem !== undefined) fail(`the answer does not match: ${problem}`, reply);
  return value as { matches: Match[]; next_cursor?: string };
}

/**
 * Each match (up to a bound) is a file's line that `holds` the query, its text
 * that line or pieces of it cut with `…`, and carries no score outside
 * semantic mode. Files are read through the provider itself.
 */
async function verifyMatches(
  context: CheckContext,
  reply: Reply,
  matches: readonly Match[],
  holds: (line: string) => boolean,
): Promise<void> {
  const files = new Map<string, readonly string[]>();
  const sample = context.sample.search;
  if (sample !== undefined) files.set(sample.path, sample.lines);
  for (const match of matches.slice(0, MAX_VERIFIED)) {
    if (match.score !== undefined) fail(`${match.path}:${match.line} has a score outside semantic mode`, reply);
    let lines = files.get(match.path);
    if (lines === undefined) {
      const read = await context.client.read(match.path);
      lines = splitLines(new TextDecoder().decode(okValue(read, `the bytes of ${match.path}, a match's file`).bytes));
      files.set(match.path, lines);
    }
    const line = lines[match.line - 1];
    if (line === undefined) fail(`${match.path} has no line ${match.line}`, reply);
    if (!holds(line)) fail(`${match.path}:${match.line} does not hold the query: ${JSON.stringify(line)}`, reply);
    const pieces = match.text.split("…").filter((piece) => piece !== "");
    if (pieces.length === 0 || pieces.some((piece) => !line.includes(piece)))
      fail(`${match.path}:${match.line}: text ${JSON.stringify(match.text)} is not that line`, reply);
  }
}

/** True when the answer holds the sample's own line, or is a full page that may stop before it. */
function findsSample(found: { matches: readonly Match[]; next_cursor?: string }, sample: SearchSample): boolean {
  if (found.matches.some((match) => match.path === sample.path && match.line === sample.line)) return true;
  const last = found.matches.at(-1);
  const full = found.next_cursor !== undefined || found.matches.length >= PAGE;
  return full && last !== undefined && last.path <= sample.path;
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function orderedByPathAndLine(matches: readonly Match[]): boolean {
  return matches.every((match, index) => {
    const previous = matches[index - 1];
    return (
      previous === undefined ||
      previous.path < match.path ||
      (previous.path === match.path && previous.line <= match.line)
    );
  });
}

/** search (AFI operations/search, schemas/match). */
export const SEARCH_SCENARIOS: readonly Scenario[] = [
  {
    id: "search-01",
    group: "search",
    title: "exact search returns matches with correct path, line and text",
    level: 2,
    run: async (context) => {
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      const reply = await context.client.search(sample.word, { limit: PAGE });
      const found = matchesOf(reply, `the matches of ${JSON.stringify(sample.word)}`);
      if (!findsSample(found, sample)) fail(`no match at ${sample.path}:${sample.line}, which holds the word`, reply);
      await verifyMatches(context, reply, found.matches, (line) => line.includes(sample.word));
      return "pass";
    },
  },
  {
    id: "search-02",
    group: "search",
    title: "opts.path scopes the search to a subtree",
    level: 2,
    run: async (context) => {
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      const scope = posix.dirname(sample.path);
      if (scope === "/") return { skip: "the sampled file is at the root: no subtree to scope to" };
      const reply = await context.client.search(sample.word, { path: scope, limit: PAGE });
      const found = matchesOf(reply, `the matches under ${scope}`);
      const outside = found.matches.find((match) => !match.path.startsWith(`${scope}/`));
      if (outside !== undefined) fail(`${outside.path} is outside ${scope}`, reply);
      if (!findsSample(found, sample)) fail(`no match at ${sample.path}:${sample.line}`, reply);
      return "pass";
    },
  },
  {
    id: "search-03",
    group: "search",
    title: "a search under a path that does not exist is not_found",
    level: 2,
    run: async (context) => {
      expectCode(
        await context.client.search(context.sample.search?.word ?? "afi", { path: missingPath(context) }),
        "not_found",
      );
      return "pass";
    },
  },
  {
    id: "search-04",
    group: "search",
    title: "with regex declared, an invalid regex is invalid_path",
    level: 2,
    run: async ({ client, manifest }) => {
      if (!manifest.search.modes.includes("regex")) return { skip: "not declared: search.modes has no regex" };
      expectCode(await client.search({ regex: "(unclosed" }), "invalid_path");
      return "pass";
    },
  },
  {
    id: "search-05",
    group: "search",
    title: "with semantic declared, every match has a score in [0, 1], best first",
    level: 2,
    run: async (context) => {
      if (!context.manifest.search.modes.includes("semantic"))
        return { skip: "not declared: search.modes has no semantic" };
      const reply = await context.client.search({ semantic: context.sample.search?.word ?? "documentation" });
      const { matches } = matchesOf(reply, "semantic matches");
      const scores = matches.map((match) => match.score);
      if (scores.some((score) => score === undefined)) fail("a semantic match without a score", reply);
      if (scores.some((score, index) => index > 0 && (score as number) > (scores[index - 1] as number)))
        fail("semantic matches are not by score, best first", reply);
      return "pass";
    },
  },
  {
    id: "search-06",
    group: "search",
    title: "a mode search.modes does not declare is unsupported",
    level: 2,
    run: async ({ client, manifest }) => {
      const modes = manifest.search.modes;
      const query = !modes.includes("semantic")
        ? { semantic: "how do I begin" }
        : !modes.includes("regex")
          ? { regex: "begin" }
          : undefined;
      if (query === undefined) return { skip: "every mode is declared" };
      expectCode(await client.search(query), "unsupported");
      return "pass";
    },
  },
  {
    id: "search-07",
    group: "search",
    title: "search pages by cursor: pages joined are one longer page",
    level: 2,
    only: PAGING,
    run: async (context) => {
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      // A one-letter query: enough matches to page through.
      const query = sample.word.slice(0, 1);
      const longReply = await context.client.search(query, { limit: 6 });
      const long = matchesOf(longReply, "six matches").matches;
      if (long.length < 3) return { skip: `fewer than 3 matches of ${JSON.stringify(query)} to page through` };
      const joined: Match[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 3; page += 1) {
        const reply = await context.client.search(query, cursor === undefined ? { limit: 2 } : { limit: 2, cursor });
        const found = matchesOf(reply, "a page of two matches");
        if (found.matches.length > 2) fail(`a page of limit 2 held ${found.matches.length} matches`, reply);
        joined.push(...found.matches);
        cursor = found.next_cursor;
        if (cursor === undefined) break;
      }
      const key = (matches: readonly Match[]) =>
        JSON.stringify(matches.map(({ path, line, text }) => [path, line, text]));
      if (key(joined) !== key(long.slice(0, joined.length)) || joined.length !== Math.min(long.length, 6))
        fail(`three pages of 2 are not the page of 6: ${key(joined)}`, longReply);
      return "pass";
    },
  },
  {
    id: "search-08",
    group: "search",
    title: "with regex declared, a regex finds what exact search finds, and flag i ignores case",
    level: 2,
    run: async (context) => {
      if (!context.manifest.search.modes.includes("regex")) return { skip: "not declared: search.modes has no regex" };
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      const scope = { path: posix.dirname(sample.path), limit: PAGE };
      for (const query of [
        { regex: escapeRegex(sample.word) },
        { regex: escapeRegex(sample.word.toUpperCase()), flags: "i" },
      ]) {
        const reply = await context.client.search(query, scope);
        const found = matchesOf(reply, "regex matches");
        if (!findsSample(found, sample)) fail(`no match at ${sample.path}:${sample.line}`, reply);
        await verifyMatches(context, reply, found.matches, (line) =>
          line.toLowerCase().includes(sample.word.toLowerCase()),
        );
      }
      return "pass";
    },
  },
  {
    id: "search-09",
    group: "search",
    title: "exact matches are in (path, line) order, unless the manifest declares another",
    level: 2,
    run: async (context) => {
      if (context.manifest.search["x-ordering"] !== undefined)
        return { skip: "the manifest declares its own order (search.x-ordering)" };
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      const reply = await context.client.search(sample.word.slice(0, 1), { limit: 50 });
      if (!orderedByPathAndLine(matchesOf(reply, "matches").matches)) fail("matches out of (path, line) order", reply);
      return "pass";
    },
  },
  {
    id: "search-10",
    group: "search",
    title: "matches carry context: the lines just before and after",
    level: 2,
    should: true,
    run: async (context) => {
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      const reply = await context.client.search(sample.word, { path: posix.dirname(sample.path), limit: PAGE });
      const match = matchesOf(reply, "matches").matches.find(
        (candidate) => candidate.path === sample.path && candidate.line === sample.line,
      );
      if (match === undefined) fail(`no match at ${sample.path}:${sample.line}`, reply);
      if (match.context === undefined) fail("the match has no context", reply);
      const { before, after } = match.context;
      const expected = [
        ...before.map((line, index) => [line, sample.lines[sample.line - 1 - before.length + index]] as const),
        ...after.map((line, index) => [line, sample.lines[sample.line + index]] as const),
      ];
      const wrong = expected.find(
        ([line, actual]) => actual === undefined || line.split("…").some((piece) => !actual.includes(piece)),
      );
      if (wrong !== undefined) fail(`context line ${JSON.stringify(wrong[0])} is not the file's`, reply);
      return "pass";
    },
  },
  {
    id: "search-11",
    group: "search",
    title: "exact search is case-sensitive",
    level: 2,
    run: async (context) => {
      const sample = context.sample.search;
      if (sample === undefined) return NO_SAMPLE;
      const flipped = flipCase(sample.word);
      const reply = await context.client.search(flipped, { path: posix.dirname(sample.path), limit: PAGE });
      await verifyMatches(context, reply, matchesOf(reply, "matches").matches, (line) => line.includes(flipped));
      return "pass";
    },
  },
];
