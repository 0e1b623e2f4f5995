/**
 * The revision a mount serves, and what the kernel must forget when another
 * replaces it (docs/native.md, "Reloads: `swap(tree)` and invalidation").
 *
 * The kernel may hold the attributes and data of every node of the old table
 * and of every other node it still counts lookups of; it may hold the entry
 * of every name that no longer leads to the same inode (removed, changed
 * kind, new, or cached as missing).
 */
import type { TreeNodeKind, VirtualTree } from "../tree/virtual-tree.js";
import type { InodeNode, InodeTable } from "./inode-table.js";
import type { NegativeEntries } from "./negative-entries.js";

/** What the kernel must drop after a swap (see NativeBinding.invalidate). */
export interface Invalidation {
  readonly inodes: number[];
  readonly parents: number[];
  readonly names: string[];
}

/** The tree being served and the table nodes the addon serves for it, by path. */
export class Revision {
  readonly #inodes: InodeTable;
  #tree: VirtualTree;
  #pinned = new Map<string, InodeNode>();

  constructor(inodes: InodeTable, tree: VirtualTree) {
    this.#inodes = inodes;
    this.#tree = tree;
  }

  get tree(): VirtualTree {
    return this.#tree;
  }

  /**
   * Serves `tree`, whose table nodes are `pinned`, from now on; returns what the kernel must
   * forget. The negative entries are drained: each is invalidated.
   */
  commit(tree: VirtualTree, pinned: readonly InodeNode[], negative: NegativeEntries): Invalidation {
    const before = this.#pinned;
    this.#pinned = new Map(pinned.map((node) => [node.path, node]));
    this.#tree = tree;
    const invalidation = this.#swapUnpinned(tree);
    negative.drainInto(invalidation.parents, invalidation.names);
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
      this.#inodes.detach(node);
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
    for (const node of this.#inodes.nodes()) {
      if (node.pinned) continue;
      if (!node.stale && kindIn(tree, node.path) !== node.kind) {
        parents.push(node.parent);
        names.push(node.name);
        this.#inodes.detach(node);
      }
      if (node.nlookup > 0) inodes.push(node.ino);
      else if (!node.stale) this.#inodes.remove(node); // numbers only the kernel's readdir saw
    }
    return { inodes, parents, names };
  }
}

function kindIn(tree: VirtualTree, path: string): TreeNodeKind | undefined {
  try {
    return tree.stat(path).kind;
  } catch {
    return undefined;
  }
}
