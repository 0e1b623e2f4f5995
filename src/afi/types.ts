/** AFI's `Entry` (schemas/entry): metadata for one file, directory or symlink. */
export interface AfiEntry {
  readonly path: string;
  readonly type: "file" | "directory" | "symlink";
  /** Exact bytes for a file; 0 for directories and symlinks. */
  readonly size: number;
  readonly mtime: string;
  readonly ctime: string;
  readonly content_type: string;
  /** The absolute AFI path a symlink points at. */
  readonly target?: string;
}

/** `list` options (operations/list). */
export interface AfiListOptions {
  readonly limit?: number;
  readonly cursor?: string;
  /** An fnmatch pattern applied to child names. */
  readonly glob?: string;
}

/** One page of a directory's children. */
export interface AfiListResult {
  readonly entries: readonly AfiEntry[];
  readonly next_cursor?: string;
}

/** `read` options (operations/read): a byte range. */
export interface AfiReadOptions {
  readonly offset?: number;
  readonly length?: number;
}

/** The bytes of a range; transports encode them (base64 over MCP, the body over HTTP). */
export interface AfiReadResult {
  /** The normalised path read. */
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly content_type: string;
  readonly eof: boolean;
  /** The file's whole size, for HTTP's Content-Range. */
  readonly size: number;
  /** Where the bytes begin in the file. */
  readonly offset: number;
}

/** `search` options (operations/search). */
export interface AfiSearchOptions {
  readonly path?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** AFI's `Match` (schemas/match) in exact and regex mode: no score. */
export interface AfiMatch {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
  /** Up to 2 lines either side of the match (docs/afi.md, "Match context"). */
  readonly context: { readonly before: readonly string[]; readonly after: readonly string[] };
}

/** One page of matches, in (path, line) order. */
export interface AfiSearchResult {
  readonly matches: readonly AfiMatch[];
  readonly next_cursor?: string;
}

/** The four AFI operations and the manifest over one tree, knowing no transport. */
export interface AfiCore {
  manifest(): Readonly<Record<string, unknown>>;
  stat(path: unknown): AfiEntry;
  list(path: unknown, options?: AfiListOptions): AfiListResult;
  read(path: unknown, options?: AfiReadOptions): AfiReadResult;
  /** `query` is an AFI SearchQuery: a string (exact) or `{ regex, flags? }`. */
  search(query: unknown, options?: AfiSearchOptions): Promise<AfiSearchResult>;
}
