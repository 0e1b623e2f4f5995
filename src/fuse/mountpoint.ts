/**
 * Mountpoint checks, and clearing a dead FUSE mount left by a killed daemon.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ForageError } from "../forage-error.js";

/** Errors `stat` gives on a FUSE mount whose daemon is gone (e.g. after kill -9). */
const DEAD_MOUNT_CODES = new Set(["ENOTCONN", "ECONNABORTED"]);

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function statError(path: string): string | undefined {
  try {
    statSync(path);
    return undefined;
  } catch (error) {
    return errorCode(error) ?? "EIO";
  }
}

/** /proc/self/mountinfo escapes space, tab, newline and backslash as octal. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** The filesystem type mounted exactly at `path` (absolute), or undefined. */
export function mountedType(path: string): string | undefined {
  let table: string;
  try {
    table = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return undefined;
  }
  let found: string | undefined;
  for (const line of table.split("\n")) {
    const [left, right] = line.split(" - ");
    const mountPoint = left?.split(" ")[4];
    if (mountPoint !== undefined && right && unescapeMountPath(mountPoint) === path) found = right.split(" ")[0];
  }
  return found; // the last one listed is the one on top
}

/** The path with its parent directory's symlinks resolved; the last component may be unreachable. */
function canonicalParent(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: "ignore" });
  return result.status === 0;
}

/**
 * If `path` is a dead FUSE mount, unmounts it (fusermount3 -u -z, or
 * umount -l as root). Returns true when it cleared one. Throws when a dead
 * mount is there and cannot be cleared.
 */
export function clearStaleMount(path: string): boolean {
  const code = statError(path);
  if (!code || !DEAD_MOUNT_CODES.has(code)) return false;
  // Only FUSE mounts: a hung network mount also says ENOTCONN, and is not ours to drop.
  const type = mountedType(canonicalParent(path)) ?? "";
  if (!/^fuse(blk)?(\.|$)/.test(type)) {
    throw refused(
      path,
      `${path} is not reachable (${code}) and is not a FUSE mount (${type || "type unknown"}); not touching it`,
    );
  }
  run("fusermount3", ["-u", "-z", path]);
  if (DEAD_MOUNT_CODES.has(statError(path) ?? "") && process.getuid?.() === 0) run("umount", ["-l", path]);
  if (DEAD_MOUNT_CODES.has(statError(path) ?? "")) {
    throw refused(
      path,
      `${path} is a dead FUSE mount (${code}) and could not be cleared; run: fusermount3 -u -z ${path}`,
    );
  }
  return true;
}

export interface MountpointOptions {
  /** Allow mounting over a non-empty directory (its files are hidden while mounted). */
  readonly nonEmpty?: boolean;
}

/**
 * Makes `path` (absolute) ready to mount on: clears a dead mount, then
 * requires an existing, empty directory that is not already a mount point.
 * Every failure is a ForageError "invalid_argument" that names the path and what is wrong
 * (details: `mountpoint`).
 * Returns the canonical path (symlinks resolved), as the kernel will list it.
 */
export function prepareMountpoint(path: string, options: MountpointOptions = {}): string {
  clearStaleMount(path);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") throw refused(path, `mountpoint ${path} does not exist; create it first (mkdir -p ${path})`);
    throw refused(path, `mountpoint ${path} cannot be used: ${code ?? String(error)}`);
  }
  if (!isDirectory) throw refused(path, `mountpoint ${path} is not a directory`);
  const canonical = realpathSync(path);
  const type = mountedType(canonical);
  if (type)
    throw refused(path, `mountpoint ${path} is already mounted (${type}); unmount it first (fusermount3 -u ${path})`);
  if (!options.nonEmpty && readdirSync(canonical).length > 0) {
    throw refused(
      path,
      `mountpoint ${path} is not empty; mounting would hide its files (use -o nonempty to do it anyway)`,
    );
  }
  return canonical;
}

/** A mountpoint that cannot be mounted on. */
function refused(mountpoint: string, message: string): ForageError<"invalid_argument"> {
  return new ForageError("invalid_argument", message, { mountpoint });
}
