/**
 * The inode <-> path table of a mount.
 *
 * FUSE names nodes by inode number; the tree names them by path. A node
 * gets a number the first time the kernel hears of it (lookup or readdir)
 * and keeps it while the kernel holds references (`nlookup`, counted from
 * our lookup and readdirplus replies, given back by forget). Nodes of the
 * node table the addon serves are pinned instead: the addon answers for
 * them, so their counts never reach us, and they live as long as the table.
 * Numbers are never reused, so the generation is always 0.
 */
import { childPath } from "../tree/tree-path.js";
import type { TreeNodeKind } from "../tree/virtual-tree.js";

/** FUSE_ROOT_ID */
export const ROOT_INO = 1;

export interface InodeNode {
  readonly ino: number;
  readonly path: string;
  /** The parent's inode number (the root is its own parent). */
  readonly parent: number;
  readonly name: string;
  readonly kind: TreeNodeKind;
  /** References the kernel holds. */
  nlookup: number;
  /** No longer reachable by path: a swapped-in tree removed it or changed its kind. */
  stale: boolean;
  /** In the addon's node table: kept whatever the lookup count says. */
  pinned: boolean;
}

export class InodeTable {
  readonly #byIno = new Map<number, InodeNode>();
  readonly #byPath = new Map<string, InodeNode>();
  #nextIno = ROOT_INO + 1;
  #watch: PathWatch | undefined;

  constructor() {
    const root: InodeNode = {
      ino: ROOT_INO,
      path: "/",
      parent: ROOT_INO,
      name: "",
      kind: "directory",
      nlookup: 1,
      stale: false,
      pinned: true,
    };
    this.#byIno.set(ROOT_INO, root);
    this.#byPath.set("/", root);
  }

  get size(): number {
    return this.#byIno.size;
  }

  get(ino: number): InodeNode | undefined {
    return this.#byIno.get(ino);
  }

  /** The live node for a path, if it has one. */
  byPath(path: string): InodeNode | undefined {
    return this.#byPath.get(path);
  }

  /**
   * The node for `name` in `parent`, created when new. A node whose kind no
   * longer matches is detached first: the kernel must never see an inode
   * change type.
   */
  resolve(parent: InodeNode, name: string, kind: TreeNodeKind): InodeNode {
    return this.attach(this.planned(childPath(parent.path, name), name, parent.ino, kind));
  }

  /**
   * The node `resolve` would give, without touching the table: the live node when its kind
   * matches, else a new one with a fresh number (never reused), which `attach` puts in.
   */
  planned(path: string, name: string, parent: number, kind: TreeNodeKind): InodeNode {
    const known = this.#byPath.get(path);
    if (known && known.kind === kind) return known;
    return { ino: this.#nextIno++, path, parent, name, kind, nlookup: 0, stale: false, pinned: false };
  }

  /** Makes a node from `planned` the live one for its path, detaching the one it replaces. */
  attach(node: InodeNode): InodeNode {
    const known = this.#byPath.get(node.path);
    if (known === node) return node;
    if (known) this.detach(known);
    this.#byIno.set(node.ino, node);
    this.#byPath.set(node.path, node);
    this.#watch?.add(node.path);
    return node;
  }

  /**
   * Records, from now on, each path whose live node changes (one watch at a time: a new one
   * ends the last). A table planned between requests checks it before it is served.
   */
  watchPaths(): PathWatch {
    this.#watch = new PathWatch();
    return this.#watch;
  }

  /** Ends `watch` if it is still the one recording. */
  unwatch(watch: PathWatch): void {
    if (this.#watch === watch) this.#watch = undefined;
  }

  /** The kernel let go of `count` references; a node nobody holds is dropped. */
  forget(ino: number, count: number): void {
    const node = this.#byIno.get(ino);
    if (!node || node.ino === ROOT_INO) return;
    node.nlookup = Math.max(0, node.nlookup - count);
    if (node.nlookup === 0 && !node.pinned) this.remove(node);
  }

  /** Unlinks a node from its path; the kernel may still name it by number until it forgets. */
  detach(node: InodeNode): void {
    if (node.ino === ROOT_INO) return;
    this.#unlink(node);
    node.stale = true;
    node.pinned = false;
    if (node.nlookup === 0) this.#byIno.delete(node.ino);
  }

  remove(node: InodeNode): void {
    if (node.ino === ROOT_INO) return;
    this.#byIno.delete(node.ino);
    this.#unlink(node);
  }

  #unlink(node: InodeNode): void {
    if (this.#byPath.get(node.path) !== node) return;
    this.#byPath.delete(node.path);
    this.#watch?.add(node.path);
  }

  /** A snapshot of the nodes not pinned (those JS serves), safe to mutate the table while iterating it. */
  unpinned(): InodeNode[] {
    const nodes: InodeNode[] = [];
    for (const node of this.#byIno.values()) if (!node.pinned) nodes.push(node);
    return nodes;
  }
}

/** Paths whose live node changed while it watched (InodeTable.watchPaths); past a bound, just that many did. */
export class PathWatch {
  /** More than this many changes: the watcher stops naming them (a plan then starts over anyway). */
  static readonly MAX_PATHS = 1024;
  readonly paths = new Set<string>();
  overflowed = false;

  add(path: string): void {
    if (this.overflowed) return;
    if (this.paths.size >= PathWatch.MAX_PATHS) {
      this.overflowed = true;
      this.paths.clear();
    } else this.paths.add(path);
  }
}
