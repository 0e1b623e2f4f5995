// No mount may outlive the benchmark: every daemon, FUSE mountpoint and tmpfs it made is
// recorded here and removed on exit, on errors and on SIGINT/SIGTERM/SIGHUP.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { log } from "./config.mjs";

/** What the run made: its work directory and, as root, its own tmpfs mount. */
export const workspace = { workDir: undefined, tmpfsMount: undefined };
/** Daemon child processes still to be stopped. */
export const children = new Set();
/** FUSE mountpoints to unmount lazily on cleanup. */
export const fuseMountpoints = new Set();

/** The mountpoint of a FUSE system in the work directory. */
export const mountpointOf = (system) => join(workspace.workDir, `mnt-${system}`);

function mountedPaths() {
  return readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[1])
    .filter(Boolean);
}
/** Whether path is a mountpoint now (/proc/mounts). */
export const isMounted = (path) => mountedPaths().includes(path);

/** Stops every daemon, unmounts everything this run mounted and removes the work directory. */
export function cleanupSync() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  for (const path of fuseMountpoints)
    if (isMounted(path)) spawnSync("fusermount3", ["-u", "-z", path], { stdio: "ignore" });
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
  if (workspace.tmpfsMount && isMounted(workspace.tmpfsMount))
    spawnSync("umount", ["-l", workspace.tmpfsMount], { stdio: "ignore" });
  workspace.tmpfsMount = undefined;
  const { workDir } = workspace;
  if (workDir && !mountedPaths().some((path) => path.startsWith(`${workDir}/`)))
    rmSync(workDir, { recursive: true, force: true });
  workspace.workDir = undefined;
}

/** Runs cleanupSync on exit and on SIGINT, SIGTERM and SIGHUP. */
export function cleanUpOnExit() {
  process.on("exit", cleanupSync);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ]) {
    process.on(signal, () => {
      log(`${signal}: unmounting and exiting`);
      cleanupSync();
      process.exit(code);
    });
  }
}
