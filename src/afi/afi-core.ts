import picomatch from "picomatch";
import { lowerBound } from "../lower-bound.js";
import {
  contentSearchScope,
  parseContentQuery,
  parseContentSearchLimit,
  type SearchableFile,
  searchContent,
  unlistedScopeFiles,
} from "../tree/content-search/content-search.js";
import { childPath, normalizeTreePath } from "../tree/tree-path.js";
import type { TreeNodeInfo, VirtualTree } from "../tree/virtual-tree.js";
import { walkTree } from "../tree/walk-tree.js";
import { cursorScope, decodeCursor, encodeCursor } from "./afi-cursor.js";
import { afiError, toAfiError } from "./afi-error.js";
import { contentType } from "./content-type.js";
import type {
  AfiCore,
  AfiEntry,
  AfiListOptions,
  AfiListResult,
  AfiMatch,
  AfiReadOptions,
  AfiReadResult,
  AfiSearchOptions,
  AfiSearchResult,
} from "./types.js";

/** Where the tree serves its manifest (AFI basic/discovery). */
export const MANIFEST_PATH = "/.afi/manifest.json";
/** `list`'s default and largest page. */
export const MAX_LIST_LIMIT = 1_000;
/** The most bytes one `read` returns; a client reads on from `offset` (eof tells it when to stop). */
export const MAX_READ_LENGTH = 4 * 1_024 * 1_024;
/** Longest `glob` accepted, checked before it is compiled. */
const MAX_GLOB_LENGTH = 256;

/** What the core needs besides the tree. */
export interface AfiCoreOptions {
  /** When this revision began to be served: every entry's mtime and ctime. */
  readonly servedSince: Date;
}

/**
 * The AFI operations over one revision's tree (docs/afi.md, "The AFI core").
 * Every failure is an AfiError. Control files (`/.afi/search`) are a FUSE
 * device, not content: here they do not exist, and search is `search`.
 */
export function createAfiCore(tree: VirtualTree, options: AfiCoreOptions): AfiCore {
  return new TreeAfiCore(tree, options.servedSince.toISOString().replace(/\.\d{3}Z$/, "Z"));
}

class TreeAfiCore implements AfiCore {
  readonly #manifestJson: Readonly<Record<string, unknown>>;
  readonly #modes: readonly string[];
  #files: readonly string[] | undefined;

  readonly #tree: VirtualTree;
  readonly #time: string;

  constructor(tree: VirtualTree, time: string) {
    this.#tree = tree;
    this.#time = time;
    this.#manifestJson = JSON.parse(new TextDecoder().decode(tree.read(MANIFEST_PATH))) as Record<string, unknown>;
    const capabilities = this.#manifestJson.capabilities;
    const search = this.#manifestJson.search as { modes?: unknown } | undefined;
    this.#modes =
      Array.isArray(capabilities) && capabilities.includes("search") && Array.isArray(search?.modes)
        ? (search.modes as string[])
        : [];
  }

  manifest(): Readonly<Record<string, unknown>> {
    return this.#manifestJson;
  }

  stat(path: unknown): AfiEntry {
    return guard(() => {
      const normalized = normalize(path);
      return this.#entry(normalized, this.#visible(normalized));
    });
  }

  list(path: unknown, options: AfiListOptions = {}): AfiListResult {
    return guard(() => {
      const normalized = normalize(path);
      const limit = integerOption(options.limit, "limit", 1, MAX_LIST_LIMIT) ?? MAX_LIST_LIMIT;
      const matches = globMatcher(options.glob);
      if (this.#visible(normalized).kind !== "directory") throw afiError("invalid_path", "not a directory", normalized);
      // Filtering comes before paging, so offsets and cursors count only what the caller may see.
      const children = this.#tree
        .list(normalized)
        .filter((entry) => !entry.writable && matches(entry.name))
        .map((entry) => this.#entry(childPath(normalized, entry.name), entry));
      const scope = cursorScope(this.#tree.stamp, ["list", normalized, options.glob ?? null]);
      const start = options.cursor === undefined ? 0 : listOffset(decodeCursor(options.cursor, scope), children.length);
      const end = start + limit;
      return {
        entries: children.slice(start, end),
        ...(end < children.length ? { next_cursor: encodeCursor(scope, [end]) } : {}),
      };
    });
  }

  read(path: unknown, options: AfiReadOptions = {}): AfiReadResult {
    return guard(() => {
      const normalized = normalize(path);
      const info = this.#visible(normalized);
      if (info.kind === "symlink") throw symlinkRead(normalized, info);
      if (info.kind !== "file") throw afiError("invalid_path", `cannot read a ${info.kind}`, normalized);
      const offset = integerOption(options.offset, "offset", 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const length = Math.min(
        integerOption(options.length, "length", 0, Number.MAX_SAFE_INTEGER) ?? MAX_READ_LENGTH,
        MAX_READ_LENGTH,
      );
      const whole = this.#tree.read(normalized);
      const bytes = whole.subarray(Math.min(offset, whole.length), Math.min(offset + length, whole.length));
      return {
        path: normalized,
        bytes,
        content_type: contentType(normalized, "file"),
        eof: offset + bytes.length >= whole.length,
        size: whole.length,
        offset,
      };
    });
  }

  async search(query: unknown, options: AfiSearchOptions = {}): Promise<AfiSearchResult> {
    try {
      return await this.#searchPage(query, options);
    } catch (error) {
      throw toAfiError(error);
    }
  }

  async #searchPage(query: unknown, options: AfiSearchOptions): Promise<AfiSearchResult> {
    if (this.#modes.length === 0) throw afiError("unsupported", "this provider declares no search (profile 1)");
    const find = parseContentQuery(query);
    const mode = typeof query === "string" ? "exact" : "regex";
    if (!this.#modes.includes(mode)) throw afiError("unsupported", `search mode ${mode} is not declared`);
    const limit = parseContentSearchLimit(options.limit);
    const scope = contentSearchScope(normalize(options.path ?? "/"));
    this.#visible(scope);
    // The query as parsed, so that the same regex with its keys in another order pages on.
    const { regex, flags } = query as { regex?: string; flags?: string };
    const asked = mode === "exact" ? [mode, query] : [mode, regex, flags ?? ""];
    const cursorKey = cursorScope(this.#tree.stamp, ["search", ...asked, scope]);
    const after = options.cursor === undefined ? undefined : searchPosition(decodeCursor(options.cursor, cursorKey));
    const files = this.#searchFiles(scope, after);
    // One match past the page says whether another page exists.
    const found = await searchContent(files, { find, path: scope, limit: limit + 1 });
    const matches: AfiMatch[] = found.slice(0, limit);
    const last = matches.at(-1);
    return {
      matches,
      ...(found.length > limit && last !== undefined
        ? { next_cursor: encodeCursor(cursorKey, [last.path, last.line]) }
        : {}),
    };
  }

  /**
   * The regular files under `scope` in path order, from just after `after` when a cursor resumes.
   * Lazy, and started by binary search: a search that fills its page early reads a page's worth of
   * files, not a filter of every path in the tree.
   */
  *#searchFiles(scope: string, after: readonly [string, number] | undefined): Generator<SearchableFile> {
    this.#files ??= [...walkTree(this.#tree)]
      .filter(({ entry }) => entry.kind === "file" && !entry.writable)
      .map(({ path }) => path)
      .sort();
    const files = unlistedScopeFiles(this.#tree, scope) ?? this.#files;
    const decoder = new TextDecoder();
    const file = (path: string): SearchableFile => {
      const text = () => decoder.decode(this.#tree.read(path));
      return after !== undefined && path === after[0] ? { path, text, fromLine: after[1] + 1 } : { path, text };
    };
    // A file scope is that file alone; a directory's files share its prefix, so they are contiguous in sorted order.
    if (files[lowerBound(files.length, (at) => (files[at] as string) < scope)] === scope) {
      if (after === undefined || after[0] <= scope) yield file(scope);
      return;
    }
    const prefix = scope === "/" ? "/" : `${scope}/`;
    const start = after === undefined || after[0] < prefix ? prefix : after[0];
    for (
      let index = lowerBound(files.length, (at) => (files[at] as string) < start);
      index < files.length;
      index += 1
    ) {
      const path = files[index] as string;
      if (!path.startsWith(prefix)) break;
      yield file(path);
    }
  }

  /** The node at a normalised path, unless the caller may not see it (the cloaking rule): then `not_found`. */
  #visible(path: string): TreeNodeInfo {
    const info = this.#tree.stat(path);
    if (info.writable) throw afiError("not_found", "no such path", path);
    return info;
  }

  #entry(path: string, info: TreeNodeInfo): AfiEntry {
    return {
      path,
      type: info.kind,
      size: info.kind === "file" ? info.size : 0,
      mtime: this.#time,
      ctime: this.#time,
      content_type: contentType(path, info.kind),
      ...(info.kind === "symlink" && info.target !== undefined ? { target: linkTarget(path, info.target) } : {}),
    };
  }
}

/** Runs an operation, turning every failure into an AfiError. */
function guard<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw toAfiError(error);
  }
}

function normalize(path: unknown): string {
  if (typeof path !== "string") throw afiError("invalid_path", "path must be a string");
  return normalizeTreePath(path);
}

/** AFI refuses to read a symlink; the error names the target to read instead (`x-target`). */
function symlinkRead(path: string, info: TreeNodeInfo) {
  if (info.target === undefined) return afiError("invalid_path", "cannot read a symlink", path);
  const target = linkTarget(path, info.target);
  const message = `cannot read a symlink: read its target ${target} (or ask the transport to follow links)`;
  return afiError("invalid_path", message, path, { "x-target": target });
}

/** An absolute AFI path for a symlink's target, which the tree gives relative to the link's directory. */
function linkTarget(link: string, target: string): string {
  if (target.startsWith("/")) return normalizeTreePath(target);
  const directory = link.slice(0, link.lastIndexOf("/")) || "/";
  return normalizeTreePath(`${directory}/${target}`);
}

function integerOption(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min)
    throw afiError("invalid_path", `${name} must be an integer of at least ${min}`);
  return Math.min(value, max);
}

function globMatcher(glob: unknown): (name: string) => boolean {
  if (glob === undefined) return () => true;
  if (typeof glob !== "string" || glob.length === 0 || glob.length > MAX_GLOB_LENGTH)
    throw afiError("invalid_path", `glob must be a pattern of 1 to ${MAX_GLOB_LENGTH} characters`);
  // fnmatch on one name: `*` and `?` never cross `/`, and a leading dot must be matched explicitly.
  return picomatch(glob, { dot: false, nobrace: true, noextglob: true });
}

function listOffset(position: readonly unknown[], total: number): number {
  const [offset] = position;
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0 || offset > total)
    throw afiError("invalid_path", "the cursor is not one this provider issued");
  return offset;
}

function searchPosition(position: readonly unknown[]): readonly [string, number] {
  const [path, line] = position;
  if (typeof path !== "string" || typeof line !== "number" || !Number.isSafeInteger(line) || line < 1)
    throw afiError("invalid_path", "the cursor is not one this provider issued");
  return [path, line];
}
