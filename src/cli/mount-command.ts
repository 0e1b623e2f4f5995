import { type MountHandle, mountTree } from "../fuse/index.js";
import { type LoadedRevision, loadRevision } from "./catalog-tree-source.js";
import type { CommandIo } from "./command-io.js";
import { describeFailure } from "./describe-failure.js";
import { type MountArguments, parseMountArguments } from "./mount-arguments.js";
import { watchSources } from "./source-watcher.js";

/** `forage mount`: serves the catalog in the foreground until unmounted, SIGINT or SIGTERM. */
export async function runMount(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseMountArguments(argv);
  const revision = await loadRevision(args);
  const handle = await mountTree(revision.tree, args.target, { debug: args.debug, readOnly: args.readOnly });
  const mode = args.readOnly ? "read-only, without the /.afi/search control file; " : "";
  io.stdout(
    `forage: mounted ${revision.operationCount} operations at ${handle.mountpoint} (${mode}revision ${revision.catalog.revision}, ${revision.catalog.stamp()})\n`,
  );
  const stopWatching = args.watch ? watchForReloads(args, handle, revision, io) : undefined;
  const closed = await handle.closed;
  stopWatching?.();
  io.stdout(`forage: ${closed.external ? "unmounted from outside" : "unmounted"} ${handle.mountpoint}\n`);
  return 0;
}

/** Rebuilds the revision when a source changes and swaps it in whole; a broken edit keeps the old one. */
function watchForReloads(args: MountArguments, handle: MountHandle, first: LoadedRevision, io: CommandIo): () => void {
  let current = first.catalog.stamp();
  let reloading = Promise.resolve();
  const reload = async (): Promise<void> => {
    try {
      const next = await loadRevision(args);
      if (next.catalog.stamp() === current) return;
      await handle.swap(next.tree);
      current = next.catalog.stamp();
      io.stdout(`forage: reloaded ${next.operationCount} operations (revision ${next.catalog.revision}, ${current})\n`);
    } catch (error) {
      io.stderr(`forage: reload failed, still serving ${current}: ${describeFailure(error)}\n`);
    }
  };
  return watchSources(
    args.sources.map((source) => source.file),
    () => {
      reloading = reloading.then(reload);
    },
  );
}
