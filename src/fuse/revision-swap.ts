/**
 * A revision swap, every stage of it (docs/native.md, "Reloads: `swap(tree)` and invalidation").
 * The names below are the only ones used for them, in code, comments and docs:
 *
 * 1. **build** the next table, between requests (src/slices.ts): walk the tree (node-table.ts),
 *    render its files and copy them into the addon's next table a chunk of nodes at a time, number
 *    its nodes and plan its install. Nothing served changes; a build that fails or is given up
 *    drops the next table, and the current revision stays served.
 * 2. **install** it, in one synchronous step so that no request sees one part without the other:
 *    plan again if a handler broke the plan, have the addon serve the next table (a pointer in C;
 *    the old table is freed), and make its tree and nodes the served revision.
 * 3. **retire** the old revision: have the kernel forget what it may hold of it, in batches.
 *
 * The kernel may hold the attributes and data of every node of the old table and of every other
 * node it still counts lookups of; it may hold the entry of every name that no longer leads to the
 * same inode (removed, changed kind, new, or cached as missing).
 */

import { runInSlices, runToEnd, SlicesCancelled, type Steps } from "../slices.js";
import type { TreeNodeKind, VirtualTree } from "../tree/virtual-tree.js";
import type { InodeNode, InodeTable, PathWatch } from "./inode-table.js";
import { trace } from "./mount-trace.js";
import type { NativeBinding, NativeSession } from "./native-binding.js";
import type { NegativeEntries } from "./negative-entries.js";
import {
  type NodeTableSettings,
  type NumberedNodeTable,
  numberNodeTable,
  type WalkedNodeTable,
  walkNodeTable,
} from "./node-table.js";

/** What the kernel must forget when a revision is retired (see NativeBinding.invalidate). */
export interface Invalidation {
  readonly inodes: number[];
  readonly parents: number[];
  readonly names: string[];
}

/**
 * The next table, built: its tree, its walked table (copied into the addon), its numbers, and the
 * plan of its install (the pinned nodes and table invalidation that `Revision.install` applies). The
 * plan holds while no handler changes the live node of a path it counted on (`watch`).
 */
export interface NextTable {
  readonly tree: VirtualTree;
  readonly walked: WalkedNodeTable;
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

/** Nodes copied into the addon's next table per step: well under a millisecond of copying. */
export const COPY_CHUNK_NODES = 256;

/** Inodes (and entries) per invalidation batch: copying one takes the addon about a millisecond. */
export const INVALIDATION_BATCH = 4096;

/** Map entries looked at per step of a plan: about a millisecond. */
const PLAN_CHUNK = 4096;

/** Swaps the revisions of one mount's session, one at a time: build, install, retire. */
export class RevisionSwap {
  readonly #native: NativeBinding;
  readonly #session: NativeSession;
  readonly #revision: Revision;
  readonly #settings: NodeTableSettings;

  constructor(native: NativeBinding, session: NativeSession, revision: Revision, settings: NodeTableSettings) {
    this.#native = native;
    this.#session = session;
    this.#revision = revision;
    this.#settings = settings;
  }

  /**
   * Builds `tree`'s next table from its walk (walkNodeTable, which a mount runs for its first table
   * before mounting, so that a tree that fails to list leaves nothing mounted): copies it into the addon, then numbers it and plans its
   * install, in steps, while the current revision goes on being served. A step that throws leaves the
   * next table in the addon: callers drop it (`#dropNext`).
   */
  *build(tree: VirtualTree, walked: WalkedNodeTable): Steps<NextTable> {
    yield* this.#copy(walked);
    return yield* this.#revision.plan(tree, walked);
  }

  /**
   * Serves `next` (planned again first if a handler changed a path it counted on) and makes it the
   * served revision, in one synchronous step; returns what the kernel must forget to retire the old one.
   */
  install(next: NextTable): Invalidation {
    const started = performance.now();
    const holding = this.#revision.holds(next) ? next : runToEnd(this.#revision.plan(next.tree, next.walked));
    const checked = performance.now();
    this.#native.serveNextTable(this.#session, holding.numbered.numbers);
    const served = performance.now();
    const invalidation = this.#revision.install(holding);
    trace(
      `next table installed in ${(performance.now() - started).toFixed(1)} ms: ${holding === next ? "plan held" : "planned again"} ${(checked - started).toFixed(1)} ms, served ${(served - checked).toFixed(1)} ms, revision updated ${(performance.now() - served).toFixed(1)} ms`,
    );
    return invalidation;
  }

  /** Builds a walked table to its end and installs it, now (a mount's first table). */
  installNow(tree: VirtualTree, walked: WalkedNodeTable): Invalidation {
    let next: NextTable;
    try {
      next = runToEnd(this.build(tree, walked));
    } catch (error) {
      this.#dropNext(error);
    }
    return this.install(next);
  }

  /**
   * Walks and builds `tree`'s next table in slices between requests, then installs it; resolves to
   * what retiring the old revision takes. Rejects, with the current revision still served and
   * nothing left in the addon's next table, when the tree fails to render, the addon refuses the
   * table, or `cancelled()` turns true (SlicesCancelled).
   */
  async installInSlices(tree: VirtualTree, cancelled: () => boolean): Promise<Invalidation> {
    let next: NextTable;
    try {
      const started = performance.now();
      next = await runInSlices(this.#walkAndBuild(tree), cancelled);
      trace(`next table built in slices in ${(performance.now() - started).toFixed(0)} ms`);
      if (cancelled()) throw new SlicesCancelled("cancelled");
    } catch (error) {
      this.#dropNext(error);
    }
    return this.install(next);
  }

  /**
   * Retires the old revision: hands `invalidation` to the kernel in batches, one after the other
   * (the addon copies each batch's arrays on the JS thread); stops once `gone()`, since the kernel
   * side is then gone, or going, and with it what it cached.
   */
  async retire(invalidation: Invalidation, gone: () => boolean): Promise<void> {
    const { inodes, parents, names } = invalidation;
    this.#native.setMtime(this.#session, Date.now() / 1000);
    let handing = 0;
    for (let from = 0; from === 0 || from < Math.max(inodes.length, names.length); from += INVALIDATION_BATCH) {
      if (gone()) return;
      const to = from + INVALIDATION_BATCH;
      const started = performance.now();
      const invalidated = new Promise<void>((done) =>
        this.#native.invalidate(
          this.#session,
          inodes.slice(from, to),
          parents.slice(from, to),
          names.slice(from, to),
          () => done(),
        ),
      );
      handing = Math.max(handing, performance.now() - started);
      await invalidated;
    }
    trace(
      `invalidation of ${inodes.length} inodes and ${names.length} entries handed over in batches of at most ${handing.toFixed(1)} ms`,
    );
  }

  *#walkAndBuild(tree: VirtualTree): Steps<NextTable> {
    const walked = yield* walkNodeTable(tree, this.#settings);
    return yield* this.build(tree, walked);
  }

  /**
   * Renders the walked table's bytes, a file per step, and copies them into the addon's next table
   * a chunk of nodes at a time (the addon copies the next chunk at each fill), letting go of each
   * chunk's bytes once copied; nothing serves the next table yet.
   */
  *#copy(walked: WalkedNodeTable): Steps<void> {
    this.#native.startNextTable(this.#session, walked.spec);
    const count = walked.paths.length;
    for (let from = 0; ; from += COPY_CHUNK_NODES) {
      // A file at a time: one may take milliseconds to render (directories render nothing).
      for (let to = from + 1; to <= Math.min(from + COPY_CHUNK_NODES, count); to++) {
        walked.contents.renderUpTo(to);
        if (walked.kinds[to - 1] !== "directory") yield;
      }
      const filled = this.#native.fillNextTable(this.#session, walked.spec, COPY_CHUNK_NODES);
      walked.contents.release(from, from + COPY_CHUNK_NODES);
      if (filled) return;
      yield;
    }
  }

  /** A build that failed leaves no next table (the addon drops a table it refused itself). */
  #dropNext(error: unknown): never {
    this.#native.dropNextTable(this.#session);
    throw error;
  }
}

/** The tree being served and the table nodes the addon serves for it, by path. */
export class Revision {
  readonly #inodes: InodeTable;
  readonly #negative: NegativeEntries;
  readonly #onInstall: () => void;
  #tree: VirtualTree;
  #pinned: ReadonlyMap<string, InodeNode> = new Map<string, InodeNode>();

  /** `onInstall` drops what the handlers cached of the old revision. */
  constructor(inodes: InodeTable, negative: NegativeEntries, tree: VirtualTree, onInstall: () => void) {
    this.#inodes = inodes;
    this.#negative = negative;
    this.#tree = tree;
    this.#onInstall = onInstall;
  }

  get tree(): VirtualTree {
    return this.#tree;
  }

  /**
   * Numbers `tree`'s walked table and plans its install, yielding every few thousand nodes
   * (src/slices.ts); touches nothing the handlers read, so the current revision goes on being
   * served meanwhile.
   */
  *plan(tree: VirtualTree, walked: WalkedNodeTable): Steps<NextTable> {
    const watch = this.#inodes.watchPaths();
    const numbered = yield* numberNodeTable(walked, this.#inodes);
    const after = new Map<string, InodeNode>();
    for (const node of numbered.nodes) {
      after.set(node.path, node);
      if (after.size % PLAN_CHUNK === 0) yield;
    }
    const before = this.#pinned;
    const next: NextTable = {
      tree,
      walked,
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
      next.oldInodes.push(node.ino);
      if (after.get(path) !== node) entryOf(node, next).unpin.push(node);
      if (++seen % PLAN_CHUNK === 0) yield;
    }
    for (const [path, node] of after) {
      if (before.get(path) !== node) entryOf(node, next).pin.push(node);
      if (++seen % PLAN_CHUNK === 0) yield;
    }
    return next;
  }

  /**
   * Whether the plan of `next` still holds: nothing installed since it was made, and no handler
   * changed the live node of a path of either table meanwhile (rare: the addon answers for table paths).
   */
  holds(next: NextTable): boolean {
    const { watch, before, after } = next;
    if (next.before !== this.#pinned || watch.overflowed) return false;
    for (const path of watch.paths) if (before.has(path) || after.has(path)) return false;
    return true;
  }

  /**
   * Serves the tree of `next` (whose plan must hold, and whose table the addon now serves) from now
   * on; returns what the kernel must forget. Files opened through JS keep the bytes they opened;
   * files opened by the addon (fh 0) read the new revision once their cached pages are invalidated.
   * The negative entries are drained: each is invalidated.
   */
  install(next: NextTable): Invalidation {
    this.#onInstall();
    this.#inodes.unwatch(next.watch);
    for (const node of next.pin) this.#inodes.attach(node).pinned = true;
    this.#pinned = next.after;
    this.#tree = next.tree;
    const invalidation = this.#unpinnedInvalidation(next.tree);
    this.#negative.drainInto(invalidation.parents, invalidation.names);
    // Table nodes the kernel may hold are all invalidated; names that appeared or went away lose their entries.
    for (const node of next.unpin) this.#inodes.detach(node);
    return {
      inodes: invalidation.inodes.concat(next.oldInodes),
      parents: invalidation.parents.concat(next.parents),
      names: invalidation.names.concat(next.names),
    };
  }

  /** The nodes JS serves itself (below /.search): the same rules, from their lookup counts. */
  #unpinnedInvalidation(tree: VirtualTree): Invalidation {
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

function entryOf(node: InodeNode, next: NextTable): NextTable {
  next.parents.push(node.parent);
  next.names.push(node.name);
  return next;
}

function kindIn(tree: VirtualTree, path: string): TreeNodeKind | undefined {
  try {
    return tree.stat(path).kind;
  } catch {
    return undefined;
  }
}
