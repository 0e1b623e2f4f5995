/**
 * The contract between the pure virtual tree (src/tree) and a transport such as
 * the FUSE adapter (src/fuse). Paths are absolute POSIX paths, already
 * normalised by the caller ("/", "/computers/local/files/read.d.ts").
 */

import type { Steps } from "../slices.js";

/** What a node is, in AFI terms. */
export type TreeNodeKind = "directory" | "file" | "symlink";

/** AFI error codes a tree raises; the transport maps them to errno (afi.md, "Errors"). */
export type TreeErrorCode = "not_found" | "invalid_path" | "unsupported" | "read_only" | "internal";

/** A typed tree failure; never a crash. */
export class TreeError extends Error {
  override readonly name = "TreeError";
  constructor(
    readonly code: TreeErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** The attributes of one node. Sizes are exact byte lengths of what `read` returns. */
export interface TreeNodeInfo {
  readonly kind: TreeNodeKind;
  readonly size: number;
  /** Symlink target, relative to the link's directory. */
  readonly target?: string;
  /** True only for control files (`/.afi/search`) that accept writes. */
  readonly writable?: boolean;
  /** True for directories that answer lookups of names they do not list (`/.search`). */
  readonly unlisted?: boolean;
}

/** One child in a directory listing. */
export interface TreeEntry extends TreeNodeInfo {
  readonly name: string;
}

/**
 * A per-open session on a control file: writes collect a request, reads return its answer.
 * A session that reads without having written takes the request its caller
 * (a Unix session) most recently closed unanswered, so `echo '{…}' > .afi/search;
 * cat .afi/search` works from a shell, where the writer and the reader are
 * separate opens, and no other caller can take or disturb it. Transports
 * must serve control files uncached (direct I/O): each answer is computed anew.
 */
export interface ControlSession {
  write(data: Uint8Array, offset: number): number;
  truncate(size: number): void;
  /**
   * Runs the request on first read; later reads page the same answer. A bad request
   * throws at once; a search still running answers with a promise (it runs in slices,
   * so that the transport goes on serving everyone else meanwhile).
   */
  read(offset: number, length: number): Uint8Array | Promise<Uint8Array>;
  /** Current size in bytes (request while writing, answer once read). */
  size(): number;
  /** The handle is released: a request written but not read through it waits for the next reader. */
  close(): void;
}

/** A read-only view of one catalog revision as files and directories. */
export interface VirtualTree {
  /**
   * Work the tree would otherwise do on a first request (building search), as steps that a
   * transport may run between its requests once it serves (src/slices.ts). Optional: answers
   * never depend on it, since a request that comes first does what is left of it.
   */
  preparationSteps?(): Steps<void>;
  /** Identity of the revision this tree serves (the catalog stamp). */
  readonly stamp: string;
  stat(path: string): TreeNodeInfo;
  /** Direct children in the order `ls -f` must show. */
  list(path: string): readonly TreeEntry[];
  /** The whole content of a file. */
  read(path: string): Uint8Array;
  readlink(path: string): string;
  /** Opens a control file for `caller` (see ControlSession); throws `read_only` for any other path. */
  openControl(path: string, caller?: string): ControlSession;
}
