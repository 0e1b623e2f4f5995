/**
 * Serves a VirtualTree through the native FUSE binding: the request
 * handlers of one mount.
 *
 * - `prepare()` flattens the whole tree for the addon, which then answers
 *   every request about it without JS (node-table.ts). The handlers below
 *   serve what the table leaves out: control files, the names an unlisted
 *   directory (/.search) makes on lookup, and inodes a swap removed.
 * - Inodes come from an InodeTable; paths go to the tree.
 * - readdir lists in tree.list order, after "." and "..".
 * - Plain files are opened by the addon without JS (fastOpen). A read
 *   takes the file's bytes from tree.read once per inode, serves them by
 *   offset, and lets them go once the end of the file was served: the kernel
 *   keeps the pages (keep_cache), so the daemon need not.
 * - The control file (`writable`) gets a ControlSession per open file handle.
 * - TreeErrors map to errno (errno.ts); anything unexpected is EIO and is
 *   reported through onError.
 * - `prepare(tree).commit()` replaces the tree at once and returns what the kernel must forget.
 */
import { constants as fsConstants } from "node:fs";
import { childPath } from "../tree/tree-path.js";
import {
  type ControlSession,
  TreeError,
  type TreeNodeInfo,
  type TreeNodeKind,
  type VirtualTree,
} from "../tree/virtual-tree.js";
import { callerSession } from "./caller-session.js";
import { errno, errnoFor, isExpectedTreeError, treeErrorCode } from "./errno.js";
import { type InodeNode, InodeTable } from "./inode-table.js";
import type { NativeBinding, NativeHandlers } from "./native-binding.js";
import { buildNodeTable, type NodeTableSpec } from "./node-table.js";

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
/** Linux's O_ACCMODE (not in fs.constants). */
const O_ACCMODE = 3;

/** Smallest kernel dirent sizes: header + one 8-byte name slot (plus fuse_entry_out for readdirplus). */
const MIN_DIRENT = 32;
const MIN_DIRENTPLUS = 160;

export interface TreeFilesystemOptions {
  /** Seconds the kernel may cache a name -> inode answer. */
  readonly entryTimeout: number;
  /** Seconds the kernel may cache attributes (the control file always gets 0). */
  readonly attrTimeout: number;
  /** Seconds the kernel may cache "no such name"; 0 disables negative caching. */
  readonly negativeTimeout: number;
  /** Cap on remembered negative entries (each must be invalidated on swap). */
  readonly maxNegativeEntries?: number;
  /**
   * Serve control files as control files (default true). False when the
   * kernel opens files itself (noOpen): without opens there are no
   * per-open sessions, so control files are shown read-only (0444, EROFS).
   */
  readonly controlFiles?: boolean;
  readonly onError?: (error: unknown) => void;
}

/** What the kernel must drop after a swap (see NativeBinding.invalidate). */
export interface Invalidation {
  readonly inodes: number[];
  readonly parents: number[];
  readonly names: string[];
}

/** A tree ready to be served: load `table` into the addon, then `commit`. */
export interface PreparedTree {
  readonly table: NodeTableSpec;
  readonly commit: () => Invalidation;
}

interface Listing {
  readonly names: string[];
  readonly kinds: TreeNodeKind[];
  readonly modes: number[];
  readonly sizes: number[];
  readonly attrTimeouts: number[];
}

interface Content {
  readonly bytes: Uint8Array;
  opens: number;
}

type OpenFile =
  | { readonly kind: "file"; readonly ino: number; readonly content: Content }
  | { readonly kind: "control"; readonly ino: number; readonly session: ControlSession };

export function modeOf(info: TreeNodeInfo, controlFiles = true): number {
  if (info.kind === "directory") return S_IFDIR | 0o555;
  if (info.kind === "symlink") return S_IFLNK | 0o777;
  return S_IFREG | (info.writable && controlFiles ? 0o666 : 0o444);
}

/** Directories report 0 (AFI); a symlink's size is its target's length. */
export function sizeOf(info: TreeNodeInfo): number {
  if (info.kind === "directory") return 0;
  if (info.kind === "symlink" && info.target !== undefined) return Buffer.byteLength(info.target);
  return info.size;
}

export class TreeFilesystem {
  readonly #native: NativeBinding;
  readonly #options: TreeFilesystemOptions;
  readonly #table = new InodeTable();
  readonly #listings = new Map<number, Listing>();
  readonly #contents = new Map<number, Content>();
  /** Bytes of files being read without a JS handle (fh 0), until their end is served. */
  readonly #reading = new Map<number, Uint8Array>();
  readonly #open = new Map<number, OpenFile>();
  readonly #negative = new Map<number, Set<string>>();
  #negativeCount = 0;
  #nextFh = 1;
  #tree: VirtualTree;
  /** The nodes of the table the addon serves, by path. */
  #pinned = new Map<string, InodeNode>();

  constructor(native: NativeBinding, tree: VirtualTree, options: TreeFilesystemOptions) {
    this.#native = native;
    this.#tree = tree;
    this.#options = options;
  }

  get tree(): VirtualTree {
    return this.#tree;
  }

  /** Number of inodes currently known. */
  get inodeCount(): number {
    return this.#table.size;
  }

  /** The handlers to pass to NativeBinding.mount (bound: the addon calls them without `this`). */
  handlers(): NativeHandlers {
    return {
      lookup: (req, parent, name) => this.#answer(req, () => this.#lookup(req, parent, name)),
      forget: (ino, nlookup) => this.#forget(ino, nlookup),
      getattr: (req, ino, fh) => this.#answer(req, () => this.#getattr(req, ino, fh)),
      setattr: (req, ino, toSet, size, fh) => this.#answer(req, () => this.#setattr(req, ino, toSet, size, fh)),
      readlink: (req, ino) =>
        this.#answer(req, () => this.#native.replyReadlink(req, this.#tree.readlink(this.#node(ino).path))),
      open: (req, ino, flags, pid) => this.#answer(req, () => this.#openFile(req, ino, flags, pid)),
      read: (req, ino, size, offset, fh) => this.#answer(req, () => this.#read(req, ino, size, offset, fh)),
      write: (req, _ino, data, offset, fh) => this.#answer(req, () => this.#write(req, data, offset, fh)),
      flush: (req) => this.#native.replyErr(req, 0),
      release: (req, _ino, fh) => this.#answer(req, () => this.#release(req, fh)),
      readdir: (req, ino, size, offset, plus) => this.#answer(req, () => this.#readdir(req, ino, size, offset, plus)),
      statfs: (req) => this.#native.replyStatfs(req, this.#table.size),
    };
  }

  /**
   * The node table of `tree` (it renders every file), and the step that makes `tree` the one
   * served. Nothing changes before `commit`, so a tree that fails to render or a table the addon
   * refuses leaves the current revision in place. Load the table into the addon, then commit,
   * in one synchronous step: no request may be served in between.
   *
   * `commit` returns the kernel caches to invalidate: attributes and data of every inode the
   * kernel may hold, and the entries whose name no longer leads to the same inode (removed,
   * changed kind, new, or cached as missing). Files opened through JS keep the bytes they
   * opened; files opened by the addon (fh 0) read the new revision once their cached pages are
   * invalidated, so a reader in the middle of one may see the new bytes from there on.
   */
  prepare(tree: VirtualTree): PreparedTree {
    const c = this.#native.constants;
    const built = buildNodeTable(tree, this.#table, {
      modeOf: (info) => this.#mode(info),
      forwardFlag: c.NODE_FORWARD,
      unlistedFlag: c.NODE_UNLISTED,
      entryTimeout: this.#options.entryTimeout,
      attrTimeout: this.#options.attrTimeout,
      negativeTimeout: this.#options.negativeTimeout,
    });
    return { table: built.spec, commit: () => this.#commit(tree, built.commit()) };
  }

  #commit(tree: VirtualTree, pinned: readonly InodeNode[]): Invalidation {
    const before = this.#pinned;
    this.#pinned = new Map(pinned.map((node) => [node.path, node]));
    this.#tree = tree;
    this.#listings.clear();
    this.#contents.clear();
    this.#reading.clear();
    const invalidation = this.#swapUnpinned(tree);
    this.#diffPinned(before, this.#pinned, invalidation);
    return invalidation;
  }

  /** Table nodes the kernel may hold are all invalidated; names that appeared or went away lose their entries. */
  #diffPinned(
    before: Map<string, InodeNode>,
    after: Map<string, InodeNode>,
    { inodes, parents, names }: Invalidation,
  ): void {
    for (const [path, node] of before) {
      inodes.push(node.ino);
      if (after.get(path) === node) continue;
      parents.push(node.parent);
      names.push(node.name);
      this.#table.detach(node);
    }
    for (const [path, node] of after) {
      if (before.get(path) === node) continue;
      parents.push(node.parent);
      names.push(node.name);
    }
  }

  /** The nodes JS serves itself (below /.search): the same rules, from their lookup counts. */
  #swapUnpinned(tree: VirtualTree): Invalidation {
    const inodes: number[] = [];
    const parents: number[] = [];
    const names: string[] = [];
    for (const node of this.#table.nodes()) {
      if (node.pinned) continue;
      if (!node.stale && this.#kindIn(tree, node.path) !== node.kind) {
        parents.push(node.parent);
        names.push(node.name);
        this.#table.detach(node);
      }
      if (node.nlookup > 0) inodes.push(node.ino);
      else if (!node.stale) this.#table.remove(node); // numbers only the kernel's readdir saw
    }
    for (const [parent, set] of this.#negative) {
      for (const name of set) {
        parents.push(parent);
        names.push(name);
      }
    }
    this.#negative.clear();
    this.#negativeCount = 0;
    return { inodes, parents, names };
  }

  #kindIn(tree: VirtualTree, path: string): TreeNodeKind | undefined {
    try {
      return tree.stat(path).kind;
    } catch {
      return undefined;
    }
  }

  /** Runs a handler; a throw becomes the mapped errno (the request is answered either way). */
  #answer(req: number, work: () => unknown): void {
    try {
      work();
    } catch (error) {
      this.#fail(req, error);
    }
  }

  #fail(req: number, error: unknown): void {
    if (!isExpectedTreeError(error)) this.#options.onError?.(error);
    this.#native.replyErr(req, errnoFor(error));
  }

  /** The live node for an inode number; ENOENT when the kernel names one we dropped or a swap removed. */
  #node(ino: number): InodeNode {
    const node = this.#table.get(ino);
    if (!node || node.stale) throw new TreeError("not_found", `inode ${ino} is no longer in the tree`);
    return node;
  }

  #isControl(info: TreeNodeInfo): boolean {
    return info.writable === true && this.#options.controlFiles !== false;
  }

  #mode(info: TreeNodeInfo): number {
    return modeOf(info, this.#options.controlFiles !== false);
  }

  #attrTimeout(info: TreeNodeInfo): number {
    return this.#isControl(info) ? 0 : this.#options.attrTimeout;
  }

  #lookup(req: number, parentIno: number, name: string): void {
    const parent = this.#node(parentIno);
    let info: TreeNodeInfo;
    try {
      info = this.#tree.stat(childPath(parent.path, name));
    } catch (error) {
      if (treeErrorCode(error) === "not_found" && this.#rememberMissing(parentIno, name)) {
        this.#native.replyEntry(req, 0, 0, 0, this.#options.negativeTimeout, 0);
        return;
      }
      throw error;
    }
    const node = this.#table.resolve(parent, name, info.kind);
    const sent = this.#native.replyEntry(
      req,
      node.ino,
      this.#mode(info),
      sizeOf(info),
      this.#options.entryTimeout,
      this.#attrTimeout(info),
    );
    if (sent) node.nlookup++;
  }

  /** Records a negative entry so a swap can invalidate it; false when negative caching is off or full. */
  #rememberMissing(parent: number, name: string): boolean {
    if (this.#options.negativeTimeout <= 0) return false;
    if (this.#negativeCount >= (this.#options.maxNegativeEntries ?? 10_000)) return false;
    let set = this.#negative.get(parent);
    if (!set) this.#negative.set(parent, (set = new Set()));
    if (!set.has(name)) {
      set.add(name);
      this.#negativeCount++;
    }
    return true;
  }

  #forget(ino: number, nlookup: number): void {
    this.#table.forget(ino, nlookup);
    if (this.#table.get(ino)) return;
    this.#listings.delete(ino);
    this.#reading.delete(ino);
  }

  #getattr(req: number, ino: number, fh: number): void {
    const open = fh ? this.#open.get(fh) : undefined;
    if (open?.kind === "control") {
      this.#native.replyAttr(req, ino, S_IFREG | 0o666, open.session.size(), 0);
      return;
    }
    const info = this.#tree.stat(this.#node(ino).path);
    this.#native.replyAttr(req, ino, this.#mode(info), sizeOf(info), this.#attrTimeout(info));
  }

  /** Only the control file's size (and its times, ignored) may be set. */
  #setattr(req: number, ino: number, toSet: number, size: number, fh: number): void {
    const c = this.#native.constants;
    const allowed =
      c.SET_ATTR_SIZE |
      c.SET_ATTR_ATIME |
      c.SET_ATTR_MTIME |
      c.SET_ATTR_ATIME_NOW |
      c.SET_ATTR_MTIME_NOW |
      c.SET_ATTR_CTIME;
    const info = this.#tree.stat(this.#node(ino).path);
    if (!this.#isControl(info) || (toSet & ~allowed) !== 0) {
      this.#native.replyErr(req, errno.EROFS);
      return;
    }
    const open = fh ? this.#open.get(fh) : undefined;
    const session = open?.kind === "control" ? open.session : undefined;
    if (session && toSet & c.SET_ATTR_SIZE) session.truncate(size);
    this.#native.replyAttr(req, ino, this.#mode(info), session ? session.size() : sizeOf(info), 0);
  }

  #openFile(req: number, ino: number, flags: number, pid: number): void {
    const node = this.#node(ino);
    const info = this.#tree.stat(node.path);
    if (info.kind === "directory") {
      this.#native.replyErr(req, errno.EISDIR);
      return;
    }
    if (this.#isControl(info)) {
      const session = this.#tree.openControl(node.path, callerSession(pid));
      if (flags & fsConstants.O_TRUNC) session.truncate(0);
      // direct_io: the answer's size changes per handle, so the page cache must stay out of it.
      this.#register(req, { kind: "control", ino, session }, this.#native.constants.OPEN_DIRECT_IO);
      return;
    }
    const accessMode = flags & O_ACCMODE;
    if (accessMode !== fsConstants.O_RDONLY || flags & fsConstants.O_TRUNC) {
      this.#native.replyErr(req, errno.EROFS);
      return;
    }
    let content = this.#contents.get(ino);
    if (!content) {
      content = { bytes: this.#tree.read(node.path), opens: 0 };
      this.#contents.set(ino, content);
    }
    content.opens++;
    const c = this.#native.constants;
    this.#register(req, { kind: "file", ino, content }, c.OPEN_KEEP_CACHE | c.OPEN_NOFLUSH);
  }

  #register(req: number, open: OpenFile, openFlags: number): void {
    const fh = this.#nextFh++;
    this.#open.set(fh, open);
    if (!this.#native.replyOpen(req, fh, openFlags)) this.#close(fh); // the opener was interrupted
  }

  #close(fh: number): void {
    const open = this.#open.get(fh);
    this.#open.delete(fh);
    if (open?.kind === "control") open.session.close();
    if (open?.kind !== "file") return;
    open.content.opens--;
    if (open.content.opens === 0 && this.#contents.get(open.ino) === open.content) this.#contents.delete(open.ino);
  }

  #read(req: number, ino: number, size: number, offset: number, fh: number): void {
    const open = this.#open.get(fh);
    if (open?.kind === "control") {
      const answer = open.session.read(offset, size);
      if (answer instanceof Uint8Array) this.#native.replyBuf(req, answer);
      else
        answer.then(
          (bytes) => this.#native.replyBuf(req, bytes),
          (error: unknown) => this.#fail(req, error),
        );
      return;
    }
    if (open?.kind === "file") {
      this.#native.replyBuf(req, open.content.bytes.subarray(offset, offset + size));
      return;
    }
    this.#readPlain(req, ino, size, offset);
  }

  /** A read of a file the addon opened (fh 0): no open/release tells us how long to keep the bytes. */
  #readPlain(req: number, ino: number, size: number, offset: number): void {
    const bytes = this.#reading.get(ino) ?? this.#tree.read(this.#node(ino).path);
    if (offset + size >= bytes.length) this.#reading.delete(ino);
    else this.#reading.set(ino, bytes);
    this.#native.replyBuf(req, bytes.subarray(offset, offset + size));
  }

  #write(req: number, data: Buffer, offset: number, fh: number): void {
    const open = this.#open.get(fh);
    if (open?.kind !== "control") {
      this.#native.replyErr(req, errno.EROFS);
      return;
    }
    this.#native.replyWrite(req, open.session.write(data, offset));
  }

  #release(req: number, fh: number): void {
    this.#close(fh);
    this.#native.replyErr(req, 0);
  }

  #listing(node: InodeNode): Listing {
    const cached = this.#listings.get(node.ino);
    if (cached) return cached;
    const dirMode = S_IFDIR | 0o555;
    const listing: Listing = {
      names: [".", ".."],
      kinds: ["directory", "directory"],
      modes: [dirMode, dirMode],
      sizes: [0, 0],
      attrTimeouts: [0, 0],
    };
    for (const entry of this.#tree.list(node.path)) {
      listing.names.push(entry.name);
      listing.kinds.push(entry.kind);
      listing.modes.push(this.#mode(entry));
      listing.sizes.push(sizeOf(entry));
      listing.attrTimeouts.push(this.#attrTimeout(entry));
    }
    this.#listings.set(node.ino, listing);
    return listing;
  }

  /** One page, in list order. Offsets are listing indexes: entry i says "resume at i + 1". */
  #readdir(req: number, ino: number, size: number, offset: number, plus: boolean): void {
    const dir = this.#node(ino);
    const listing = this.#listing(dir);
    const end = Math.min(listing.names.length, offset + Math.floor(size / (plus ? MIN_DIRENTPLUS : MIN_DIRENT)) + 1);
    const nodes: (InodeNode | undefined)[] = [];
    const inos: number[] = [];
    for (let i = offset; i < end; i++) {
      const node = i < 2 ? undefined : this.#table.resolve(dir, listing.names[i]!, listing.kinds[i]!);
      nodes.push(node);
      inos.push(node ? node.ino : i === 0 ? dir.ino : dir.parent);
    }
    const sent = this.#native.replyReaddir(
      req,
      offset,
      plus,
      listing.names.slice(offset, end),
      inos,
      listing.modes.slice(offset, end),
      listing.sizes.slice(offset, end),
      this.#options.entryTimeout,
      listing.attrTimeouts.slice(offset, end),
      size,
    );
    // Each readdirplus entry but "." and ".." is a lookup the kernel will forget later.
    if (plus) for (let i = 0; i < sent; i++) if (nodes[i]) nodes[i]!.nlookup++;
  }
}
