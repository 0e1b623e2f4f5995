/**
 * The TypeScript face of native/ (forage_fuse.node), and its lazy loader.
 *
 * Nothing here loads the addon at import time: the library must work on
 * machines without FUSE. `loadNativeBinding()` is called only when mounting,
 * and when the addon or libfuse3 is missing it throws a `FuseUnavailableError`
 * that says exactly what to install.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ForageError } from "../forage-error.js";
import type { NextTableSpec, NodeTableNumbers } from "./node-table.js";

/** An opaque mounted session. */
export type NativeSession = { readonly __brand: "forage_fuse.session" };

/**
 * Request handlers. Each request handler gets a request id first and must
 * answer it exactly once with a `reply*` function, now or later. A handler
 * that throws gets its request answered with EIO and the error passed to
 * `onError`; the daemon goes on.
 */
export interface NativeHandlers {
  lookup(req: number, parent: number, name: string): void;
  /** The kernel dropped `nlookup` references to `ino`; answers nothing. */
  forget(ino: number, nlookup: number): void;
  /** `fh` is 0 unless the kernel asked about an open file. */
  getattr(req: number, ino: number, fh: number): void;
  /** `toSet` is a mask of `constants.SET_ATTR_*`. */
  setattr(req: number, ino: number, toSet: number, size: number, fh: number): void;
  readlink(req: number, ino: number): void;
  /** Opens of anything but plain files (see fastOpen). Answer with a nonzero fh: 0 means "opened by the addon". */
  open(req: number, ino: number, flags: number, pid: number): void;
  read(req: number, ino: number, size: number, offset: number, fh: number): void;
  write(req: number, ino: number, data: Buffer, offset: number, fh: number): void;
  /** Only for handles JS opened (fh != 0). */
  flush(req: number, ino: number, fh: number): void;
  /** Only for handles JS opened (fh != 0). */
  release(req: number, ino: number, fh: number): void;
  /** Offsets are indexes into the listing; `plus` asks for attributes too. */
  readdir(req: number, ino: number, size: number, offset: number, plus: boolean): void;
  statfs?(req: number, ino: number): void;
  /** An exception thrown by a handler (its request already got EIO). */
  onError?(error: unknown): void;
  /** The session is over; `external` when it was unmounted from outside. */
  onClose?(external: boolean): void;
}

export interface NativeMountConfig {
  uid?: number;
  gid?: number;
  /** Seconds since the epoch, reported as atime/mtime/ctime of every node. */
  mtime?: number;
  /** Answer opendir with ENOSYS where the kernel allows it (default true). */
  noOpendir?: boolean;
  /**
   * Answer open with ENOSYS where the kernel allows it (default false): the
   * kernel then opens every file itself and sends no open/flush/release, so
   * no file can have per-open state; reads and writes arrive with fh 0.
   */
  noOpen?: boolean;
  /**
   * Answer open/flush/release of plain files (the last mode reported for the
   * inode is a regular file without write bits) in the addon, without JS
   * (default true). Such opens get fh 0, keep_cache and noflush; a write
   * open of them gets EROFS. Reads still go to the read handler, with fh 0.
   */
  fastOpen?: boolean;
  /** libfuse debug output on stderr. */
  debug?: boolean;
}

export interface NativeConstants {
  readonly SET_ATTR_MODE: number;
  readonly SET_ATTR_UID: number;
  readonly SET_ATTR_GID: number;
  readonly SET_ATTR_SIZE: number;
  readonly SET_ATTR_ATIME: number;
  readonly SET_ATTR_MTIME: number;
  readonly SET_ATTR_ATIME_NOW: number;
  readonly SET_ATTR_MTIME_NOW: number;
  readonly SET_ATTR_CTIME: number;
  readonly OPEN_KEEP_CACHE: number;
  readonly OPEN_DIRECT_IO: number;
  readonly OPEN_NOFLUSH: number;
  readonly OPEN_NONSEEKABLE: number;
  /** Node table flag: requests about the node itself go to the handlers (a control file). */
  readonly NODE_FORWARD: number;
  /** Node table flag: a directory whose unlisted names are looked up by the handlers. */
  readonly NODE_UNLISTED: number;
}

/** What native/build/Release/forage_fuse.node exports. */
export interface NativeBinding {
  /** Mounts and starts serving (the node table from the addon's reader thread). `options` is libfuse's `-o` string. */
  mount(mountpoint: string, options: string, config: NativeMountConfig, handlers: NativeHandlers): NativeSession;
  /** Starts teardown; `onClose` fires when done. `force` unmounts at once (process exit). */
  unmount(session: NativeSession, force: boolean): void;
  setMtime(session: NativeSession, seconds: number): void;
  /**
   * Starts the next node table, empty: nothing serves it until serveNextTable. Replaces any next
   * table started before. Throws a TypeError when `table` has no nodes or too many.
   */
  startNextTable(session: NativeSession, table: NextTableSpec): void;
  /**
   * Copies up to `maxNodes` more nodes of `table` (the one startNextTable was given) into the next
   * table; true once all are in. A malformed table throws a TypeError and is dropped.
   */
  fillNextTable(session: NativeSession, table: NextTableSpec, maxNodes: number): boolean;
  /**
   * Numbers the filled next table and serves it from now on, in place of the one before, in
   * one step: the addon answers lookup, getattr, readdir, open, read and readlink of its nodes
   * itself, and forwards the rest to the handlers. Malformed numbers throw a TypeError and drop
   * the next table; the old one is still served.
   */
  serveNextTable(session: NativeSession, numbers: NodeTableNumbers): void;
  /** Frees the next table, if any (a build that failed or was given up); what is served stays. */
  dropNextTable(session: NativeSession): void;
  /** Returns the C heap's free pages to the kernel (glibc malloc_trim); true when some were. */
  releaseFreeMemory(): boolean;
  /**
   * Invalidates kernel caches on the threadpool: attributes and data of
   * `inodes`, and the entries (parents[i], names[i]). `done` gets the count
   * of notifications the kernel refused (nodes it did not know are not counted).
   */
  invalidate(
    session: NativeSession,
    inodes: readonly number[],
    parents: readonly number[],
    names: readonly string[],
    done: (failures: number) => void,
  ): void;
  /** Each reply returns false when the request was already answered or is gone. */
  replyErr(req: number, errno: number): boolean;
  replyEntry(req: number, ino: number, mode: number, size: number, entryTimeout: number, attrTimeout: number): boolean;
  replyAttr(req: number, ino: number, mode: number, size: number, attrTimeout: number): boolean;
  replyReadlink(req: number, target: string): boolean;
  replyOpen(req: number, fh: number, flags: number): boolean;
  replyBuf(req: number, data: Uint8Array): boolean;
  replyWrite(req: number, count: number): boolean;
  replyStatfs(req: number, files: number): boolean;
  /** Sends as many entries as fit in `size` bytes; returns how many (-1 if the request is gone). */
  replyReaddir(
    req: number,
    firstOffset: number,
    plus: boolean,
    names: readonly string[],
    inos: readonly number[],
    modes: readonly number[],
    sizes: readonly number[],
    entryTimeout: number,
    attrTimeouts: readonly number[],
    size: number,
  ): number;
  readonly constants: NativeConstants;
  /** libfuse's version, e.g. 314 for 3.14. */
  readonly libfuseVersion: number;
}

/** The commands that make FUSE mounts work on a Debian machine. */
export const FUSE_INSTALL_HINT =
  "apt-get install fuse3 libfuse3-dev, then npm rebuild @fungi.computer/forage (or node scripts/build-native.mjs in a checkout)";

/** Thrown when mounting is impossible on this machine; the message says what to install. */
export class FuseUnavailableError extends ForageError<"unsupported"> {
  constructor(message: string) {
    super("unsupported", message, { feature: "fuse" });
  }
}

/** Where the built addon lives; FORAGE_FUSE_ADDON overrides it. */
export function nativeAddonPath(): string {
  const override = process.env.FORAGE_FUSE_ADDON;
  if (override) return resolve(override);
  // src/fuse/ and dist/fuse/ are both two levels below the package root.
  const here = dirname(fileURLToPath(import.meta.url));
  return join(here, "..", "..", "native", "build", "Release", "forage_fuse.node");
}

let cached: NativeBinding | undefined;

/** Loads the addon on first use. Throws FuseUnavailableError with install advice. */
export function loadNativeBinding(): NativeBinding {
  if (cached) return cached;
  const path = nativeAddonPath();
  if (!existsSync(path)) {
    throw new FuseUnavailableError(
      `forage mount needs the native FUSE addon, which is not built (${path}): ${FUSE_INSTALL_HINT}`,
    );
  }
  try {
    cached = createRequire(import.meta.url)(path) as NativeBinding;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const missingLib = /libfuse3/.test(reason) ? "libfuse3 is missing" : "the native FUSE addon failed to load";
    throw new FuseUnavailableError(`forage mount: ${missingLib} (${reason.split("\n")[0]}): ${FUSE_INSTALL_HINT}`);
  }
  return cached;
}

/** Why FUSE cannot be used here, or undefined when it can (addon, /dev/fuse, fusermount3). */
export function fuseUnavailableReason(): string | undefined {
  try {
    loadNativeBinding();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!existsSync("/dev/fuse")) return "/dev/fuse is missing (no FUSE in this kernel or container)";
  return undefined;
}
