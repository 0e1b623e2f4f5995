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
    return this.place(parent, name, kind, this.numberFor(childPath(parent.path, name), kind));
  }

  /** The number `resolve` would give: the live node's when its kind matches, else a fresh one (never reused). */
  numberFor(path: string, kind: TreeNodeKind): number {
    const known = this.#byPath.get(path);
    return known && known.kind === kind ? known.ino : this.#nextIno++;
  }

  /** The node for `name` in `parent` with number `ino` (from numberFor), created when new; `path` is theirs joined. */
  place(
    parent: InodeNode,
    name: string,
    kind: TreeNodeKind,
    ino: number,
    path = childPath(parent.path, name),
  ): InodeNode {
    const known = this.#byPath.get(path);
    if (known && known.ino === ino) return known;
    if (known) this.detach(known);
    const node: InodeNode = { ino, path, parent: parent.ino, name, kind, nlookup: 0, stale: false, pinned: false };
    this.#byIno.set(node.ino, node);
    this.#byPath.set(path, node);
    return node;
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
    if (this.#byPath.get(node.path) === node) this.#byPath.delete(node.path);
    node.stale = true;
    node.pinned = false;
    if (node.nlookup === 0) this.#byIno.delete(node.ino);
  }

  remove(node: InodeNode): void {
    if (node.ino === ROOT_INO) return;
    this.#byIno.delete(node.ino);
    if (this.#byPath.get(node.path) === node) this.#byPath.delete(node.path);
  }

  /** A snapshot of all nodes, safe to mutate the table while iterating it. */
  nodes(): InodeNode[] {
    return [...this.#byIno.values()];
  }
}
