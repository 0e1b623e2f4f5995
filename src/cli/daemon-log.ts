import { createHash } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { lockKeyPath } from "../fuse/index.js";
import { CliError } from "./cli-error.js";

/**
 * Where a `--daemon` mount logs unless --log-file says otherwise
 * (docs/cli.md, "Daemon mode"): `$XDG_RUNTIME_DIR/forage/`, else
 * `/tmp/forage-<uid>/`, one file per mountpoint named after it.
 */
export function defaultLogFile(mountpoint: string): string {
  const key = lockKeyPath(mountpoint);
  const digest = createHash("sha256").update(key).digest("hex").slice(0, 12);
  const name = basename(key).replace(/[^A-Za-z0-9._-]/g, "_") || "root";
  return join(privateRuntimeDirectory(), `${name}-${digest}.log`);
}

/** A directory only this user can enter; /tmp is shared, so a directory someone else made there is refused. */
function privateRuntimeDirectory(): string {
  const uid = process.getuid?.() ?? 0;
  const runtime = process.env.XDG_RUNTIME_DIR;
  const directory = runtime ? join(runtime, "forage") : join("/tmp", `forage-${uid}`);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const info = lstatSync(directory);
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) {
    throw new CliError(`${directory} is not a private directory of this user; give the log a place with --log-file`);
  }
  return directory;
}
