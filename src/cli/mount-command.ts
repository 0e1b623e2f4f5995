import { resolve } from "node:path";
import { type MountHandle, mountTree, trace, tracing, watchStalls } from "../fuse/index.js";
import { runInSlices } from "../slices.js";
import { type SourceSpec, sourcePaths } from "../sources/source-spec.js";
import { watchSources } from "../sources/source-watcher.js";
import { type LoadedRevision, loadRevision, type StepRunner } from "./catalog-tree-source.js";
import type { CommandIo } from "./command-io.js";
import { commandHelp } from "./command-line.js";
import { count } from "./count.js";
import { isDaemonChild, reportReady, startDaemon } from "./daemon.js";
import { describeFailure } from "./describe-failure.js";
import { MOUNT_COMMAND, type MountArguments, parseMountArguments } from "./mount-arguments.js";
import { agentLine, stopLine, tryLines } from "./mount-hints.js";

/** `forage mount`: serves the catalog in the foreground until unmounted, SIGINT or SIGTERM; or, with --daemon, in the background. */
export async function runMount(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseMountArguments(argv);
  if (args === "help") {
    io.stdout(commandHelp(MOUNT_COMMAND));
    return 0;
  }
  if (args.daemon && !isDaemonChild()) {
    const started = await startDaemon(argv, args.target, args.logFile, io);
    if (typeof started === "number") return started;
    io.stdout(`forage: serving in the background as pid ${started.pid}; log: ${started.logFile}\n`);
    io.stdout(stopLine(resolve(args.target), "background"));
    return 0;
  }
  // Held only in the process that serves, so a daemon's parent never starts the servers.
  const live = args.watch && args.sources.some(isMcpServer) ? await holdLiveServers() : undefined;
  try {
    return await serve(args, io, live);
  } finally {
    await live?.close();
  }
}

/** Mounts, says so, and serves until the mount is gone. */
async function serve(args: MountArguments, io: CommandIo, live: LiveServers | undefined): Promise<number> {
  const revision = await loadRevision(args);
  // Served by the handlers at once; the node table follows between their requests.
  const handle = await mountTree(revision.tree, args.target, {
    ...args.fuse,
    readOnly: args.readOnly,
    deferTable: true,
  });
  trace(`mounted ${(process.uptime() * 1000).toFixed(0)} ms after the process started (${cpuMs()} ms of CPU)`);
  const mode = args.readOnly ? "read-only, without the /.afi/search control file; " : "";
  io.stdout(
    `forage: mounted ${count(revision.operationCount, "operation")} at ${handle.mountpoint} (${mode}revision ${revision.catalog.revision}, ${revision.catalog.stamp()})\n`,
  );
  // A daemon's hints go to its log, which its parent prints; only the parent knows the pid, so it says how to stop.
  if (args.example) io.stdout(tryLines(revision.tree, args.subtree, handle.mountpoint));
  io.stdout(agentLine(handle.mountpoint));
  if (isDaemonChild()) reportReady();
  else io.stdout(stopLine(handle.mountpoint, "foreground"));
  const stopWatching = args.watch ? watchForReloads(args, handle, revision, io, live) : undefined;
  const closed = await handle.closed;
  stopWatching?.();
  io.stdout(`forage: ${closed.external ? "unmounted from outside" : "unmounted"} ${handle.mountpoint}\n`);
  return 0;
}

/** CPU time this process has used (user and system), in milliseconds, for trace lines. */
function cpuMs(): string {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1000).toFixed(0);
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
  let unmounted = false;
  void handle.closed.then(() => (unmounted = true));
  // The catalog and the tree are built between requests, as the table is: the old revision is served meanwhile.
  const inSlices: StepRunner = (steps) => runInSlices(steps, () => unmounted);
  const reload = async (): Promise<void> => {
    const stalls = tracing() ? await watchStalls() : undefined;
    const started = performance.now();
    try {
      const next = await loadRevision(args, "mount", inSlices);
      if (next.catalog.stamp() === current) return;
      const loadedMs = performance.now() - started;
      await handle.swap(next.tree);
      if (stalls)
        trace(
          `reload in ${(performance.now() - started).toFixed(0)} ms (the revision loaded in ${loadedMs.toFixed(0)}), longest event-loop stall ${stalls.stop().toFixed(1)} ms, ${stalls.gcPauses()}`,
        );
      current = next.catalog.stamp();
      io.stdout(
        `forage: reloaded ${count(next.operationCount, "operation")} (revision ${next.catalog.revision}, ${current})\n`,
      );
    } catch (error) {
      if (!unmounted) io.stderr(`forage: reload failed, still serving ${current}: ${describeFailure(error)}\n`);
    } finally {
      stalls?.stop();
    }
  };
  const onChange = (): void => {
    reloading = reloading.then(reload);
  };
  // A live server says when its tools change; files are watched.
  const stopServers = live?.onToolsChanged(onChange);
  const stopFiles = watchSources(sourcePaths(args.sources), onChange);
  return () => {
    stopServers?.();
    stopFiles();
  };
}

type LiveServers = ReturnType<typeof import("../sources/mcp-server-source.js").holdMcpServers>;

/** Only a mount with an mcp: source loads the MCP client. */
async function holdLiveServers(): Promise<LiveServers> {
  return (await import("../sources/mcp-server-source.js")).holdMcpServers();
}

function isMcpServer(source: SourceSpec): boolean {
  return source.location.kind !== "path";
}
