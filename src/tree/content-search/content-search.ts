import { createRequire } from "node:module";
import type { RE2JS } from "re2js";
import { compareCodeUnits } from "../../catalog/operation-path.js";
import { normalizeTreePath } from "../tree-path.js";
import { TreeError, type VirtualTree } from "../virtual-tree.js";
import { SEARCH_ROOT, walkTree } from "../walk-tree.js";

/** An AFI Match (schemas/match): a file, a 1-based line and column, the line's text and the lines around it. */
export interface ContentMatch {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  readonly context: MatchContext;
}

/** The lines just before and after a match (AFI Match.context), nearest last and first. */
export interface MatchContext {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/** A parsed AFI search request, exact or regex mode. */
export interface ContentSearchRequest {
  readonly find: (line: string) => number;
  readonly path: string;
  readonly limit: number;
}

/** A searchable file: its path and a way to get its text. */
export interface SearchableFile {
  readonly path: string;
  text(): string;
  /** The 1-based line to start at (default 1), so a paged search resumes after its last match. */
  readonly fromLine?: number;
}

export const DEFAULT_CONTENT_SEARCH_LIMIT = 100;
export const MAX_CONTENT_SEARCH_LIMIT = 1_000;
/** AFI asks for snippets short enough for a model's context: at most about 256 characters. */
export const MAX_MATCH_TEXT = 256;
/** Lines of context on each side of a match: AFI's suggested small window. */
export const MATCH_CONTEXT_LINES = 2;
/** A context line is only a hint, so it is cut shorter than the match's own text. */
export const MAX_CONTEXT_LINE_TEXT = 128;
let regexEngine: typeof RE2JS | undefined;

/**
 * RE2, loaded (its CommonJS build, synchronously) by the first regex query: the module takes
 * about 10 ms to load, which a mount or a server that is never asked for a regex search should
 * not pay at start-up, and a bad pattern must still be refused at once.
 */
function loadRegexEngine(): typeof RE2JS {
  regexEngine ??= (createRequire(import.meta.url)("re2js") as typeof import("re2js")).RE2JS;
  return regexEngine;
}

/**
 * Parses the JSON body written to /.afi/search. Regexes compile with RE2
 * semantics (linear time), so a hostile pattern cannot hang the daemon;
 * ECMAScript features RE2 lacks (backreferences, lookaround) are refused.
 */
export function parseContentSearchRequest(body: string): ContentSearchRequest {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    throw new TreeError("invalid_path", "the search request is not JSON");
  }
  if (request === null || typeof request !== "object")
    throw new TreeError("invalid_path", "the search request is not an object");
  const { query, opts } = request as { query?: unknown; opts?: unknown };
  const options = (opts ?? {}) as { path?: unknown; limit?: unknown; cursor?: unknown };
  if (typeof options !== "object") throw new TreeError("invalid_path", "opts must be an object");
  if (options.cursor !== undefined)
    throw new TreeError("unsupported", "search cursors are not supported; raise opts.limit");
  return {
    find: parseContentQuery(query),
    path: typeof options.path === "string" ? options.path : "/",
    limit: parseContentSearchLimit(options.limit),
  };
}

/** An AFI SearchQuery (exact string or `{regex, flags}`) as a line finder; anything else is a TreeError. */
export function parseContentQuery(query: unknown): (line: string) => number {
  if (typeof query === "string") {
    if (query.length === 0) throw new TreeError("invalid_path", "the exact query is empty");
    return (line) => line.indexOf(query);
  }
  if (query !== null && typeof query === "object" && typeof (query as { regex?: unknown }).regex === "string") {
    const { regex, flags } = query as { regex: string; flags?: unknown };
    const pattern = compileRegex(regex, flags);
    return (line) => {
      const matcher = pattern.matcher(line);
      return matcher.find() ? matcher.start() : -1;
    };
  }
  if (query !== null && typeof query === "object" && "semantic" in query) {
    throw new TreeError(
      "unsupported",
      "semantic search is not a declared mode; use /.search/<query>/ for ranked search",
    );
  }
  throw new TreeError("invalid_path", "query must be a string (exact) or {regex, flags}");
}

function compileRegex(regex: string, flags: unknown): RE2JS {
  if (flags !== undefined && typeof flags !== "string")
    throw new TreeError("invalid_path", "regex flags must be a string");
  const RE2JS = loadRegexEngine();
  const REGEX_FLAGS: Readonly<Record<string, number>> = {
    i: RE2JS.CASE_INSENSITIVE,
    m: RE2JS.MULTILINE,
    s: RE2JS.DOTALL,
    u: 0,
  };
  let mask = 0;
  for (const flag of flags ?? "") {
    const bit = REGEX_FLAGS[flag];
    if (bit === undefined)
      throw new TreeError("invalid_path", `regex flag ${JSON.stringify(flag)} is not one of i, m, s, u`);
    mask |= bit;
  }
  try {
    return RE2JS.compile(regex, mask);
  } catch (error) {
    throw new TreeError("invalid_path", `invalid regex: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The normalised `opts.path` of a search (docs/afi.md, "Search scope"). */
export function contentSearchScope(path: string): string {
  return normalizeTreePath(path);
}

/**
 * The regular files a scope under /.search holds, sorted by path; undefined for a scope in the
 * listed tree. Query directories are made by looking a name up and are listed nowhere, so a
 * walk of the whole tree never meets them: a scope that names one is walked from itself.
 */
export function unlistedScopeFiles(tree: VirtualTree, scope: string): string[] | undefined {
  if (scope !== SEARCH_ROOT && !scope.startsWith(`${SEARCH_ROOT}/`)) return undefined;
  const info = tree.stat(scope);
  if (info.kind === "file") return info.writable ? [] : [scope];
  if (info.kind !== "directory") return [];
  return [...walkTree(tree, scope)]
    .filter(({ entry }) => entry.kind === "file" && !entry.writable)
    .map(({ path }) => path)
    .sort(compareCodeUnits);
}

/** A search's `opts.limit`: a positive integer, default 100, values above 1,000 taken as 1,000. */
export function parseContentSearchLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_CONTENT_SEARCH_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)
    throw new TreeError("invalid_path", "opts.limit must be a positive integer");
  return Math.min(limit, MAX_CONTENT_SEARCH_LIMIT);
}

/**
 * How long a search runs before it lets the event loop serve others: at 10,000
 * operations a search that matches nothing reads 57 MB, 0.2 s exact and 0.5 s regex.
 */
const SEARCH_SLICE_MS = 5;

/** Matches in (path, line) order, at most `limit`; `files` must come sorted by path. */
export async function searchContent(
  files: Iterable<SearchableFile>,
  request: ContentSearchRequest,
): Promise<ContentMatch[]> {
  const matches: ContentMatch[] = [];
  let sliceStart = performance.now();
  for (const file of files) {
    if (performance.now() - sliceStart > SEARCH_SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    const lines = file.text().split("\n");
    for (let index = (file.fromLine ?? 1) - 1; index < lines.length; index += 1) {
      const line = lines[index] as string;
      const at = request.find(line);
      if (at === -1) continue;
      matches.push({
        path: file.path,
        line: index + 1,
        column: at + 1,
        text: snippet(line, at),
        context: contextOf(lines, index),
      });
      if (matches.length === request.limit) return matches;
    }
  }
  return matches;
}

/** The line, or a window of it around the match with ellipses, within MAX_MATCH_TEXT characters. */
function snippet(line: string, at: number): string {
  if (line.length <= MAX_MATCH_TEXT) return line;
  const start = Math.max(0, Math.min(at - 32, line.length - (MAX_MATCH_TEXT - 1)));
  const head = start > 0 ? "…" : "";
  const room = MAX_MATCH_TEXT - head.length - 1;
  const body = line.slice(start, start + room);
  return `${head}${body}${start + room < line.length ? "…" : line.slice(start + room)}`;
}

/** Up to MATCH_CONTEXT_LINES lines either side of `lines[index]`, each cut to MAX_CONTEXT_LINE_TEXT. */
function contextOf(lines: readonly string[], index: number): MatchContext {
  // A file's final newline ends its last line; it does not begin an empty one.
  const end = lines.at(-1) === "" ? lines.length - 1 : lines.length;
  const cut = (line: string) =>
    line.length <= MAX_CONTEXT_LINE_TEXT ? line : `${line.slice(0, MAX_CONTEXT_LINE_TEXT - 1)}…`;
  return {
    before: lines.slice(Math.max(0, index - MATCH_CONTEXT_LINES), index).map(cut),
    after: lines.slice(index + 1, Math.min(end, index + 1 + MATCH_CONTEXT_LINES)).map(cut),
  };
}
