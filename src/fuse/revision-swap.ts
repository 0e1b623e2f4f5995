/**
 * The revision a mount serves, and what the kernel must forget when another
 * replaces it (docs/native.md, "Reloads: `swap(tree)` and invalidation").
 *
 * The kernel may hold the attributes and data of every node of the old table
 * and of every other node it still counts lookups of; it may hold the entry
 * of every name that no longer leads to the same inode (removed, changed
 * kind, new, or cached as missing).
 */

import type { Steps } from "../slices.js";
import type { TreeNodeKind, VirtualTree } from "../tree/virtual-tree.js";
import type { InodeNode, InodeTable, PathWatch } from "./inode-table.js";
import type { NegativeEntries } from "./negative-entries.js";
import { type NumberedNodeTable, numberNodeTable, type WalkedNodeTable } from "./node-table.js";

/** What the kernel must drop after a swap (see NativeBinding.invalidate). */
export interface Invalidation {
  readonly inodes: number[];
  readonly parents: number[];
  readonly names: string[];
}

/**
 * A switch to another revision worked out ahead, between requests: the table's numbers, and
 * the pinned nodes and table invalidation that `Revision.commit` applies. It holds while no
 * handler changes the live node of a path it counted on (`watch`).
 */
export interface PlannedSwap {
  readonly tree: VirtualTree;
  readonly numbered: NumberedNodeTable;
  /** The pinned nodes it was planned against, and the ones after it, by path. */
  readonly before: ReadonlyMap<string, InodeNode>;
  readonly after: ReadonlyMap<string, InodeNode>;
  readonly watch: PathWatch;
  /** Every node of the old table, which the kernel may hold. */
  readonly oldInodes: number[];
  /** The entries of names that appeared or went away, in the order they are sent. */
  readonly parents: number[];
  readonly names: string[];
  /** Old table nodes the new one does not keep, to detach; new table nodes, to attach and pin. */
  readonly unpin: InodeNode[];
  readonly pin: InodeNode[];
}

/** Map entries looked at per step of a plan: about a millisecond. */
const PLAN_CHUNK = 4096;

/** The tree being served and the table nodes the addon serves for it, by path. */
export class Revision {
  readonly #inodes: InodeTable;
  #tree: VirtualTree;
  #pinned: ReadonlyMap<string, InodeNode> = new Map<string, InodeNode>();

  constructor(inodes: InodeTable, tree: VirtualTree) {
    this.#inodes = inodes;
    this.#tree = tree;
  }

  get tree(): VirtualTree {
    return this.#tree;
  }

  /**
   * Plans the switch to `tree`, whose table is `walked`, yielding every few thousand nodes
   * (src/slices.ts); touches nothing the handlers read, so the current revision goes on being
   * served meanwhile.
   */
  *plan(tree: VirtualTree, walked: WalkedNodeTable): Steps<PlannedSwap> {
    const watch = this.#inodes.watchPaths();
    const numbered = yield* numberNodeTable(walked, this.#inodes);
    const after = new Map<string, InodeNode>();
    for (const node of numbered.nodes) {
      after.set(node.path, node);
      if (after.size % PLAN_CHUNK === 0) yield;
    }
    const before = this.#pinned;
    const plan: PlannedSwap = {
      tree,
      numbered,
      before,
      after,
      watch,
      oldInodes: [],
      parents: [],
      names: [],
      unpin: [],
      pin: [],
    };
    let seen = 0;
    for (const [path, node] of before) {
      plan.oldInodes.push(node.ino);
      if (after.get(path) !== node) this.#entryOf(node, plan).unpin.push(node);
      if (++seen % PLAN_CHUNK === 0) yield;
    }
    for (const [path, node] of after) {
      if (before.get(path) !== node) this.#entryOf(node, plan).pin.push(node);
      if (++seen % PLAN_CHUNK === 0) yield;
    }
    return plan;
  }

  /**
   * Whether `plan` still holds: nothing committed since it was made, and no handler changed the
   * live node of a path of either table meanwhile (rare: the addon answers for table paths).
   */
  holds(plan: PlannedSwap): boolean {
    const { watch, before, after } = plan;
    if (plan.before !== this.#pinned || watch.overflowed) return false;
    for (const path of watch.paths) if (before.has(path) || after.has(path)) return false;
    return true;
  }

  /**
   * Serves the tree of `plan` (which must hold, and whose table the addon now serves) from now
   * on; returns what the kernel must forget. The negative entries are drained: each is invalidated.
   */
  commit(plan: PlannedSwap, negative: NegativeEntries): Invalidation {
    this.#inodes.unwatch(plan.watch);
    for (const node of plan.pin) this.#inodes.attach(node).pinned = true;
    this.#pinned = plan.after;
    this.#tree = plan.tree;
    const invalidation = this.#swapUnpinned(plan.tree);
    negative.drainInto(invalidation.parents, invalidation.names);
    // Table nodes the kernel may hold are all invalidated; names that appeared or went away lose their entries.
    for (const node of plan.unpin) this.#inodes.detach(node);
    return {
      inodes: invalidation.inodes.concat(plan.oldInodes),
      parents: invalidation.parents.concat(plan.parents),
      names: invalidation.names.concat(plan.names),
    };
  }

  #entryOf(node: InodeNode, plan: PlannedSwap): PlannedSwap {
    plan.parents.push(node.parent);
    plan.names.push(node.name);
    return plan;
  }

  /** The nodes JS serves itself (below /.search): the same rules, from their lookup counts. */
  #swapUnpinned(tree: VirtualTree): Invalidation {
    const inodes: number[] = [];
    const parents: number[] = [];
    const names: string[] = [];
    for (const node of this.#inodes.unpinned()) {
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
