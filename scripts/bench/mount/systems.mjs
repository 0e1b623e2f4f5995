// The systems under test and their daemons: what each runs, preflight, start until usable,
// stop, and making tmpfs as cold as it gets.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { children, fuseMountpoints, isMounted, mountpointOf } from "./cleanup.mjs";
import { addon, cfsBinary, cli, log, MOUNT_TIMEOUT_MS, pinned, pinnedCpus, projectRoot, sleep } from "./config.mjs";
import { waitForExit } from "./processes.mjs";

/** Each system's report label and, for a FUSE daemon, its [command, args] for a size. */
export const SYSTEMS = {
  tmpfs: { label: "tmpfs" },
  cfs: { label: "C (cfs -s)", command: (size) => [cfsBinary, [size.tree, mountpointOf("cfs"), "-f", "-s"]] },
  // The kernel ro flag stops the kernel from invalidating atime after each readdir and read (so a
  // repeated run sends no GETATTR); no-open keeps open and release away from the daemon.
  "cfs-ro": {
    label: "C ro (cfs -s -o ro --no-open)",
    command: (size) => [cfsBinary, [size.tree, mountpointOf("cfs-ro"), "--no-open", "-f", "-s", "-o", "ro"]],
  },
  // forage starts as the npm bin does, through its /bin/sh launcher line (which adds the mount's heap flags).
  forage: {
    label: "forage",
    command: (size) => ["/bin/sh", [cli, "mount", size.source, mountpointOf("forage")]],
  },
  "forage-ro": {
    label: "forage -o ro",
    command: (size) => ["/bin/sh", [cli, "mount", "-o", "ro", size.source, mountpointOf("forage-ro")]],
  },
};

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Throws unless everything the run needs is there; builds scripts/bench/cfs when missing. */
export async function preflight() {
  const missing = [];
  if (process.platform !== "linux") missing.push("Linux");
  if (!existsSync("/dev/fuse")) missing.push("/dev/fuse");
  for (const tool of ["fusermount3", "perl", "find", "xargs", "grep", "md5sum", ...(pinnedCpus ? ["taskset"] : [])])
    if (!onPath(tool)) missing.push(tool);
  if (!existsSync(cli)) missing.push(`${cli} (run node scripts/bootstrap.mjs)`);
  // Another build may be replacing the addon right now: give it a moment.
  for (let waited = 0; !existsSync(addon) && waited < 30_000; waited += 500) await sleep(500);
  if (!existsSync(addon)) missing.push(`${addon} (run node scripts/bootstrap.mjs)`);
  if (missing.length > 0) throw new Error(`cannot run: missing ${missing.join(", ")}`);
  if (!existsSync(cfsBinary)) {
    log("building scripts/bench/cfs");
    const built = spawnSync(join(projectRoot, "scripts/bench/cfs/build.sh"), {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (built.status !== 0) throw new Error("scripts/bench/cfs/build.sh failed");
  }
}

/**
 * Starts a daemon (startOnce). Others may rebuild the addon or dist/ while this runs (the addon
 * is missing for a moment then): such a failed start is retried once the files are back, and the
 * report says that the build changed.
 */
export async function startDaemon(system, size, extraArgs = [], ready = "table") {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(system, size, extraArgs, ready);
    } catch (error) {
      const transient = /not built|ERR_MODULE_NOT_FOUND|Cannot find module|SyntaxError/.test(String(error));
      if (!transient || attempt === 5) throw error;
      log(
        `${system} failed to start (attempt ${attempt}), probably a concurrent rebuild; retrying: ${String(error).split("\n")[0]}`,
      );
      for (let waited = 0; !existsSync(addon) && waited < 60_000; waited += 500) await sleep(500);
      await sleep(3_000);
    }
  }
}

/** The line a forage daemon writes (FORAGE_MOUNT_TRACE) once its node table serves. */
const TABLE_IN = /forage: trace: node table in/;
/** The line it writes once search is prepared, which a start with `ready` "search" waits for as well. */
const SEARCH_PREPARED = /forage: trace: search prepared/;

/**
 * Starts a daemon and waits until a known file stats (usableMs), then until forage's node table
 * is in (tableInMs; the same for C, which loads its tree before mounting), and with `ready`
 * "search" until its search is prepared too (BENCH_COLD_AFTER=search's cold samples); returns
 * { child, root, usableMs, tableInMs, output() }. `extraArgs` go before forage's source.
 */
async function startOnce(system, size, extraArgs, ready) {
  const mountpoint = mountpointOf(system);
  if (isMounted(mountpoint)) throw new Error(`${mountpoint} is already mounted`);
  const [daemon, daemonArgs] = SYSTEMS[system].command(size);
  const forage = system.startsWith("forage");
  const [command, args] = pinned(
    daemon,
    forage ? [daemonArgs[0], "mount", ...extraArgs, ...daemonArgs.slice(2)] : daemonArgs,
  ); // taskset execs: the pid stays the daemon's
  const probe = join(mountpoint, "README.md");
  const start = performance.now();
  // The launcher runs the first `node` on PATH: make it this one.
  const env = forage
    ? { ...process.env, FORAGE_MOUNT_TRACE: "1", PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` }
    : process.env;
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env });
  children.add(child);
  fuseMountpoints.add(mountpoint);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      throw new Error(`${system} exited before mounting: ${output}`);
    }
    try {
      await stat(probe);
      break;
    } catch {
      // not mounted yet
    }
    if (performance.now() - start > MOUNT_TIMEOUT_MS)
      throw new Error(`${system} did not mount within ${MOUNT_TIMEOUT_MS} ms: ${output}`);
    await sleep(1);
  }
  const usableMs = performance.now() - start;
  /** Waits until the daemon's output has a line matching `line`; throws if it exits or the time is up. */
  const waitForLine = async (line, what) => {
    while (!line.test(output)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${system} exited: ${output}`);
      if (performance.now() - start > MOUNT_TIMEOUT_MS)
        throw new Error(`${system}'s ${what} within ${MOUNT_TIMEOUT_MS} ms: ${output}`);
      await sleep(1);
    }
  };
  if (forage) await waitForLine(TABLE_IN, "node table was not in");
  const tableInMs = forage ? performance.now() - start : usableMs;
  if (forage && ready === "search") await waitForLine(SEARCH_PREPARED, "search was not prepared");
  return { system, child, root: mountpoint, usableMs, tableInMs, output: () => output };
}

/** Stops a daemon with SIGTERM (SIGKILL and a lazy unmount after 5 s); throws if it stays mounted. */
export async function stopDaemon(daemon) {
  const { child, root } = daemon;
  child.kill("SIGTERM");
  if (!(await waitForExit(child, 5_000))) {
    log(`${daemon.system} did not exit on SIGTERM; forcing`);
    spawnSync("fusermount3", ["-u", "-z", root], { stdio: "ignore" });
    child.kill("SIGKILL");
    await waitForExit(child, 5_000);
  }
  if (isMounted(root)) spawnSync("fusermount3", ["-u", "-z", root], { stdio: "ignore" });
  children.delete(child);
  if (isMounted(root)) throw new Error(`${root} is still mounted`);
}

/** Whether drop_caches could be written (so tmpfs "cold" runs are cold); false after the first refusal. */
export const coldness = { dropCachesPermitted: true };

/** Makes tmpfs as cold as it gets: drops the page, dentry and inode caches, then re-reads tools and code. */
export function coolDown() {
  if (coldness.dropCachesPermitted) {
    spawnSync("sync");
    try {
      writeFileSync("/proc/sys/vm/drop_caches", "3");
    } catch {
      coldness.dropCachesPermitted = false;
      log("cannot write /proc/sys/vm/drop_caches: tmpfs 'cold' runs are not cold");
    }
  }
  // Page the tools and the daemons' code back in, so that no timed run (and no time-to-mount) reads the disk.
  spawnSync(
    "sh",
    [
      "-c",
      "find --version; xargs --version; cat --version; grep --version; wc --version; md5sum --version; perl -e 1; sort --version",
    ],
    { stdio: "ignore" },
  );
  spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `await import(${JSON.stringify(join(projectRoot, "dist/index.js"))});`],
    { stdio: "ignore" },
  );
  // The CLI's bundles: the mount loads some chunks that the library's entry does not.
  const chunks = join(projectRoot, "dist/chunks");
  const bundles = existsSync(chunks) ? readdirSync(chunks).map((name) => join(chunks, name)) : [];
  spawnSync("cat", [addon, cfsBinary, cli, ...bundles], { stdio: "ignore" });
}
