/**
 * `forage mount --daemon` (docs/cli.md, "Daemon mode"): the command starts
 * itself again as a detached child whose output goes to a log file, waits
 * until that child has mounted, prints what it printed, and returns. A
 * failure before the mount is ready reaches the caller as the child's own
 * message and exit code.
 */
import { spawn } from "node:child_process";
import { closeSync, fstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { CommandIo } from "./command-io.js";
import { defaultLogFile } from "./daemon-log.js";

/** Set in the child's environment, so that it serves instead of starting another child. */
const DAEMON_CHILD = "FORAGE_DAEMON_CHILD";

/** True in the background process a `--daemon` mount started. */
export function isDaemonChild(): boolean {
  return process.env[DAEMON_CHILD] === "1" && process.send !== undefined;
}

/** In the background process: tells the waiting command that the mount is ready, then lets it go. */
export function reportReady(): void {
  process.send?.("ready", () => process.disconnect?.());
}

/** What the started daemon is: where it serves and logs. */
export interface StartedDaemon {
  readonly pid: number;
  readonly logFile: string;
}

/**
 * Starts `forage mount <argv>` in the background and resolves once it is
 * mounted, or returns its exit code when it fails first (its message on stderr).
 */
export async function startDaemon(
  argv: readonly string[],
  target: string,
  logFile: string | undefined,
  io: CommandIo,
): Promise<StartedDaemon | number> {
  const log = logFile === undefined ? defaultLogFile(resolve(target)) : resolve(logFile);
  mkdirSync(dirname(log), { recursive: true });
  const fd = openSync(log, "a", 0o600);
  const offset = fstatSync(fd).size;
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1] as string, "mount", ...argv], {
    detached: true,
    stdio: ["ignore", fd, fd, "ipc"],
    env: { ...process.env, [DAEMON_CHILD]: "1" },
  });
  closeSync(fd);
  const outcome = await new Promise<"ready" | number>((done) => {
    child.once("message", () => done("ready"));
    child.once("exit", (code) => done(code ?? 1));
    child.once("error", () => done(1));
  });
  const output = readFrom(log, offset);
  if (outcome !== "ready") {
    io.stderr(output || `forage: the background mount exited (${outcome}) before mounting; see ${log}\n`);
    return outcome;
  }
  child.unref();
  if (child.connected) child.disconnect();
  io.stdout(output);
  return { pid: child.pid as number, logFile: log };
}

/** What the log gained since `offset`: the child's own lines, for the caller to see. */
function readFrom(file: string, offset: number): string {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size - offset;
    const buffer = Buffer.alloc(Math.max(0, Math.min(size, 64 * 1024)));
    readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.toString("utf8");
  } finally {
    closeSync(fd);
  }
}
