/**
 * Serves a VirtualTree through the native FUSE binding: the request
 * handlers of one mount, each a short dispatch to the part that knows.
 *
 * - The node table flattens the whole tree for the addon, which then answers
 *   every request about it without JS (node-table.ts). The handlers below
 *   serve what the table leaves out: control files, the names an unlisted
 *   directory (/.search) makes on lookup, and inodes a swap removed.
 * - Inodes come from an InodeTable (inode-table.ts); paths go to the tree.
 * - Modes, sizes and timeouts: attributes.ts. Negative entries:
 *   negative-entries.ts. Open files of all three kinds: open-files.ts.
 *   readdir pages: directory-pages.ts. The revision served, and how a swap
 *   builds, installs and retires one: revision-swap.ts.
 * - TreeErrors map to errno (errno.ts); anything unexpected is EIO and is
 *   reported through onError.
 */
import { constants as fsConstants } from "node:fs";
import { childPath } from "../tree/tree-path.js";
import { TreeError, type TreeNodeInfo, type VirtualTree } from "../tree/virtual-tree.js";
import { Attributes, CONTROL_MODE, sizeOf } from "./attributes.js";
import { callerSession } from "./caller-session.js";
import { DirectoryPages } from "./directory-pages.js";
import { errno, errnoFor, isExpectedTreeError, treeErrorCode } from "./errno.js";
import { type InodeNode, InodeTable } from "./inode-table.js";
import type { NativeBinding, NativeHandlers } from "./native-binding.js";
import { NegativeEntries } from "./negative-entries.js";
import type { NodeTableSettings } from "./node-table.js";
import { OpenFiles } from "./open-files.js";
import { Revision } from "./revision-swap.js";

/** Linux's O_ACCMODE (not in fs.constants). */
const O_ACCMODE = 3;

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

export class TreeFilesystem {
  readonly #native: NativeBinding;
  readonly #options: TreeFilesystemOptions;
  readonly #inodes = new InodeTable();
  readonly #attributes: Attributes;
  readonly #revision: Revision;
  readonly #negative: NegativeEntries;
  readonly #files = new OpenFiles();
  readonly #pages: DirectoryPages;

  constructor(native: NativeBinding, tree: VirtualTree, options: TreeFilesystemOptions) {
    this.#native = native;
    this.#options = options;
    this.#attributes = new Attributes(options.controlFiles !== false, options.attrTimeout);
    this.#negative = new NegativeEntries(options.negativeTimeout, options.maxNegativeEntries);
    this.#pages = new DirectoryPages(this.#attributes, this.#inodes);
    this.#revision = new Revision(this.#inodes, this.#negative, tree, () => {
      this.#pages.newRevision();
      this.#files.newRevision();
    });
  }

  /** The revision served, which a RevisionSwap replaces (revision-swap.ts). */
  get revision(): Revision {
    return this.#revision;
  }

  get tree(): VirtualTree {
    return this.#revision.tree;
  }

  /** Number of inodes currently known. */
  get inodeCount(): number {
    return this.#inodes.size;
  }

  /** The handlers to pass to NativeBinding.mount (bound: the addon calls them without `this`). */
  handlers(): NativeHandlers {
    return {
      lookup: (req, parent, name) => this.#answer(req, () => this.#lookup(req, parent, name)),
      forget: (ino, nlookup) => this.#forget(ino, nlookup),
      getattr: (req, ino, fh) => this.#answer(req, () => this.#getattr(req, ino, fh)),
      setattr: (req, ino, toSet, size, fh) => this.#answer(req, () => this.#setattr(req, ino, toSet, size, fh)),
      readlink: (req, ino) =>
        this.#answer(req, () => this.#native.replyReadlink(req, this.tree.readlink(this.#node(ino).path))),
      open: (req, ino, flags, pid) => this.#answer(req, () => this.#open(req, ino, flags, pid)),
      read: (req, ino, size, offset, fh) => this.#answer(req, () => this.#read(req, ino, size, offset, fh)),
      write: (req, _ino, data, offset, fh) => this.#answer(req, () => this.#write(req, data, offset, fh)),
      flush: (req) => this.#native.replyErr(req, 0),
      release: (req, _ino, fh) => this.#answer(req, () => this.#release(req, fh)),
      readdir: (req, ino, size, offset, plus) => this.#answer(req, () => this.#readdir(req, ino, size, offset, plus)),
      statfs: (req) => this.#native.replyStatfs(req, this.#inodes.size),
    };
  }

  /** How this mount's node tables are made: modes, flags and timeouts. */
  tableSettings(): NodeTableSettings {
    const c = this.#native.constants;
    return {
      modeOf: (info) => this.#attributes.mode(info),
      forwardFlag: c.NODE_FORWARD,
      unlistedFlag: c.NODE_UNLISTED,
      entryTimeout: this.#options.entryTimeout,
      attrTimeout: this.#options.attrTimeout,
      negativeTimeout: this.#options.negativeTimeout,
    };
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
    const node = this.#inodes.get(ino);
    if (!node || node.stale) throw new TreeError("not_found", `inode ${ino} is no longer in the tree`);
    return node;
  }

  #lookup(req: number, parentIno: number, name: string): void {
    const parent = this.#node(parentIno);
    let info: TreeNodeInfo;
    try {
      info = this.tree.stat(childPath(parent.path, name));
    } catch (error) {
      if (treeErrorCode(error) === "not_found" && this.#negative.remember(parentIno, name)) {
        this.#native.replyEntry(req, 0, 0, 0, this.#options.negativeTimeout, 0);
        return;
      }
      throw error;
    }
    const node = this.#inodes.resolve(parent, name, info.kind);
    const a = this.#attributes;
    const sent = this.#native.replyEntry(
      req,
      node.ino,
      a.mode(info),
      sizeOf(info),
      this.#options.entryTimeout,
      a.timeout(info),
    );
    if (sent) node.nlookup++;
  }

  #forget(ino: number, nlookup: number): void {
    this.#inodes.forget(ino, nlookup);
    if (this.#inodes.get(ino)) return;
    this.#pages.forget(ino);
    this.#files.forget(ino);
  }

  #getattr(req: number, ino: number, fh: number): void {
    const session = this.#files.controlSession(fh);
    if (session) {
      this.#native.replyAttr(req, ino, CONTROL_MODE, session.size(), 0);
      return;
    }
    const info = this.tree.stat(this.#node(ino).path);
    this.#native.replyAttr(req, ino, this.#attributes.mode(info), sizeOf(info), this.#attributes.timeout(info));
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
    const info = this.tree.stat(this.#node(ino).path);
    if (!this.#attributes.isControl(info) || (toSet & ~allowed) !== 0) {
      this.#native.replyErr(req, errno.EROFS);
      return;
    }
    const session = this.#files.controlSession(fh);
    if (session && toSet & c.SET_ATTR_SIZE) session.truncate(size);
    this.#native.replyAttr(req, ino, this.#attributes.mode(info), session ? session.size() : sizeOf(info), 0);
  }

  #open(req: number, ino: number, flags: number, pid: number): void {
    const node = this.#node(ino);
    const info = this.tree.stat(node.path);
    if (info.kind === "directory") {
      this.#native.replyErr(req, errno.EISDIR);
      return;
    }
    const c = this.#native.constants;
    if (this.#attributes.isControl(info)) {
      const session = this.tree.openControl(node.path, callerSession(pid));
      if (flags & fsConstants.O_TRUNC) session.truncate(0);
      // direct_io: the answer's size changes per handle, so the page cache must stay out of it.
      this.#replyOpen(req, this.#files.openControl(ino, session), c.OPEN_DIRECT_IO);
      return;
    }
    if ((flags & O_ACCMODE) !== fsConstants.O_RDONLY || flags & fsConstants.O_TRUNC) {
      this.#native.replyErr(req, errno.EROFS);
      return;
    }
    const fh = this.#files.openFile(ino, () => this.tree.read(node.path));
    this.#replyOpen(req, fh, c.OPEN_KEEP_CACHE | c.OPEN_NOFLUSH);
  }

  #replyOpen(req: number, fh: number, openFlags: number): void {
    if (!this.#native.replyOpen(req, fh, openFlags)) this.#files.close(fh); // the opener was interrupted
  }

  #read(req: number, ino: number, size: number, offset: number, fh: number): void {
    const open = this.#files.get(fh);
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
    // A file the addon opened (fh 0): no open or release tells us how long to keep its bytes.
    const bytes = this.#files.readPlain(ino, size, offset, () => this.tree.read(this.#node(ino).path));
    this.#native.replyBuf(req, bytes);
  }

  #write(req: number, data: Buffer, offset: number, fh: number): void {
    const session = this.#files.controlSession(fh);
    if (!session) {
      this.#native.replyErr(req, errno.EROFS);
      return;
    }
    this.#native.replyWrite(req, session.write(data, offset));
  }

  #release(req: number, fh: number): void {
    this.#files.close(fh);
    this.#native.replyErr(req, 0);
  }

  /** One page, in list order; each readdirplus entry but "." and ".." is a lookup the kernel will forget later. */
  #readdir(req: number, ino: number, size: number, offset: number, plus: boolean): void {
    const page = this.#pages.page(this.tree, this.#node(ino), offset, size, plus);
    const sent = this.#native.replyReaddir(
      req,
      offset,
      plus,
      page.names,
      page.inos,
      page.modes,
      page.sizes,
      this.#options.entryTimeout,
      page.attrTimeouts,
      size,
    );
    if (plus) for (let i = 0; i < sent; i++) if (page.nodes[i]) page.nodes[i]!.nlookup++;
  }
}
