/**
 * How a revision's node table gets into the addon (docs/native.md, "Reloads: `swap(tree)` and
 * invalidation"): walked, then rendered and copied into the addon's staged table a chunk of nodes per step,
 * and numbered and planned (revision-swap.ts), while the current revision goes on being served;
 * then, in one short synchronous step, switched to (a pointer in C) and committed. A load that fails or is given up drops
 * the staged table, and the current revision stays served.
 */
import { runInSlices, runToEnd, SlicesCancelled, type Steps } from "../slices.js";
import type { VirtualTree } from "../tree/virtual-tree.js";
import { trace } from "./mount-trace.js";
import type { NativeBinding, NativeSession } from "./native-binding.js";
import type { WalkedNodeTable } from "./node-table.js";
import type { Invalidation, PlannedSwap, TreeFilesystem } from "./tree-filesystem.js";

/** Nodes copied into the staged table per step: well under a millisecond of copying. */
export const STAGE_CHUNK_NODES = 256;

/** Loads node tables into one mount's session, one at a time. */
export class TableLoader {
  readonly #native: NativeBinding;
  readonly #session: NativeSession;
  readonly #filesystem: TreeFilesystem;

  constructor(native: NativeBinding, session: NativeSession, filesystem: TreeFilesystem) {
    this.#native = native;
    this.#session = session;
    this.#filesystem = filesystem;
  }

  /**
   * Renders a walked table's bytes, a file per step, and copies them into the addon's staged
   * table a chunk of nodes at a time (the addon copies the next chunk at each fill), letting go
   * of each chunk's bytes once copied; nothing serves the staged table yet.
   */
  *stageSteps(walked: WalkedNodeTable): Steps<void> {
    this.#native.stageTable(this.#session, walked.spec);
    const count = walked.paths.length;
    for (let from = 0; ; from += STAGE_CHUNK_NODES) {
      // A file at a time: one may take milliseconds to render (directories render nothing).
      for (let to = from + 1; to <= Math.min(from + STAGE_CHUNK_NODES, count); to++) {
        walked.contents.renderUpTo(to);
        if (walked.kinds[to - 1] !== "directory") yield;
      }
      const filled = this.#native.fillStagedTable(this.#session, walked.spec, STAGE_CHUNK_NODES);
      walked.contents.release(from, from + STAGE_CHUNK_NODES);
      if (filled) return;
      yield;
    }
  }

  /**
   * Serves the staged table with the numbers of `plan` (made again first if a handler changed a
   * path it counted on) and commits it, in one synchronous step, so that no request sees one
   * without the other; returns what the kernel must forget.
   */
  switchTo(plan: PlannedSwap, walked: WalkedNodeTable): Invalidation {
    const started = performance.now();
    const holding = this.#filesystem.holding(plan, walked);
    const checked = performance.now();
    this.#native.serveStagedTable(this.#session, holding.numbered.numbers);
    const served = performance.now();
    const invalidation = this.#filesystem.commit(holding);
    trace(
      `table switched in ${(performance.now() - started).toFixed(1)} ms: ${holding === plan ? "plan held" : "planned again"} ${(checked - started).toFixed(1)} ms, served ${(served - checked).toFixed(1)} ms, committed ${(performance.now() - served).toFixed(1)} ms`,
    );
    return invalidation;
  }

  /** Stages a table walked before and switches to it, now. */
  loadNow(tree: VirtualTree, walked: WalkedNodeTable): Invalidation {
    let plan: PlannedSwap;
    try {
      runToEnd(this.stageSteps(walked));
      plan = runToEnd(this.#filesystem.planSteps(tree, walked));
    } catch (error) {
      this.#drop(error);
    }
    return this.switchTo(plan, walked);
  }

  /**
   * Renders, stages and plans `tree`'s table in slices between requests, then switches to it;
   * resolves to what the kernel must forget. Rejects, with the current revision still served and
   * nothing left staged, when the tree fails to render, the addon refuses the table, or
   * `cancelled()` turns true (SlicesCancelled).
   */
  async load(tree: VirtualTree, cancelled: () => boolean): Promise<Invalidation> {
    let planned: { plan: PlannedSwap; walked: WalkedNodeTable };
    try {
      const started = performance.now();
      planned = await runInSlices(this.#walkStageAndPlan(tree), cancelled);
      trace(`table rendered, staged and planned in slices in ${(performance.now() - started).toFixed(0)} ms`);
      if (cancelled()) throw new SlicesCancelled("cancelled");
    } catch (error) {
      this.#drop(error);
    }
    return this.switchTo(planned.plan, planned.walked);
  }

  *#walkStageAndPlan(tree: VirtualTree): Steps<{ plan: PlannedSwap; walked: WalkedNodeTable }> {
    const walked = yield* this.#filesystem.walkSteps(tree);
    yield* this.stageSteps(walked);
    const plan = yield* this.#filesystem.planSteps(tree, walked);
    return { plan, walked };
  }

  /** A load that failed leaves nothing staged (the addon drops a table it refused itself). */
  #drop(error: unknown): never {
    this.#native.dropStagedTable(this.#session);
    throw error;
  }
}
