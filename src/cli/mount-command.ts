import { type MountHandle, mountTree } from "../fuse/index.js";
import { MCP_PREFIX, type SourceSpec } from "./catalog-source.js";
import { type LoadedRevision, loadRevision } from "./catalog-tree-source.js";
import type { CommandIo } from "./command-io.js";
import { describeFailure } from "./describe-failure.js";
import { type MountArguments, parseMountArguments } from "./mount-arguments.js";
import { watchSources } from "./source-watcher.js";

/** `forage mount`: serves the catalog in the foreground until unmounted, SIGINT or SIGTERM. */
export async function runMount(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseMountArguments(argv);
  const live = args.watch && args.sources.some(isMcpServer) ? await holdLiveServers() : undefined;
  try {
    return await serve(args, io, live);
  } finally {
    await live?.close();
  }
}

async function serve(args: MountArguments, io: CommandIo, live: LiveServers | undefined): Promise<number> {
  const revision = await loadRevision(args);
  const handle = await mountTree(revision.tree, args.target, { debug: args.debug, readOnly: args.readOnly });
  const mode = args.readOnly ? "read-only, without the /.afi/search control file; " : "";
  io.stdout(
    `forage: mounted ${revision.operationCount} operations at ${handle.mountpoint} (${mode}revision ${revision.catalog.revision}, ${revision.catalog.stamp()})\n`,
  );
  const stopWatching = args.watch ? watchForReloads(args, handle, revision, io, live) : undefined;
  const closed = await handle.closed;
  stopWatching?.();
  io.stdout(`forage: ${closed.external ? "unmounted from outside" : "unmounted"} ${handle.mountpoint}\n`);
  return 0;
}

/** Rebuilds the revision when a source changes and swaps it in whole; a broken edit keeps the old one. */
function watchForReloads(
  args: MountArguments,
  handle: MountHandle,
  first: LoadedRevision,
  io: CommandIo,
  live: LiveServers | undefined,
): () => void {
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
  const onChange = (): void => {
    reloading = reloading.then(reload);
  };
  // A live server says when its tools change; files are watched.
  const stopServers = live?.onToolsChanged(onChange);
  const stopFiles = watchSources(
    args.sources.filter((source) => !isMcpServer(source)).map((source) => source.file),
    onChange,
  );
  return () => {
    stopServers?.();
    stopFiles();
  };
}

type LiveServers = ReturnType<typeof import("./mcp-source.js").holdMcpServers>;

/** Only a mount with an mcp: source loads the MCP client. */
async function holdLiveServers(): Promise<LiveServers> {
  return (await import("./mcp-source.js")).holdMcpServers();
}

function isMcpServer(source: SourceSpec): boolean {
  return source.file.startsWith(MCP_PREFIX);
}
