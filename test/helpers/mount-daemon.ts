import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fuseUnavailableReason } from "../../src/fuse/native-binding.js";

/** The built CLI, as `npm start` runs it; the bootstrap builds dist/ before tests. */
export const CLI = resolve("dist/cli/main.js");

/** Why the mount tests cannot run here, printed with the skip; undefined when they can. */
export function mountSkipReason(): string | undefined {
  const reason = fuseUnavailableReason();
  if (reason !== undefined) return reason;
  if (spawnSync("fusermount3", ["--version"]).status !== 0) return "fusermount3 is missing (apt-get install fuse3)";
  return undefined;
}

/** A daemon (the `forage mount` CLI or a test fixture) running in a child process. */
export interface Daemon {
  readonly child: ChildProcess;
  readonly mountpoint: string;
  /** Everything the daemon printed so far, stdout and stderr as they came. */
  output(): string;
  /** What the daemon printed on stderr so far. */
  stderr(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the daemon exits or times out first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Writes one line to the daemon's stdin (spawned with `stdin: true`). */
  send(line: string): void;
  /** True until the daemon exits. */
  running(): boolean;
  /** Resolves with the exit code or signal once the daemon exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const daemons = new Set<Daemon>();

/** A fresh empty directory under the system temp dir, for a mountpoint. */
export function freshMountpoint(label: string): string {
  return mkdtempSync(join("/tmp", `forage-${label}-`));
}

/** Starts `node <args>` as a daemon serving `mountpoint`; stopAllDaemons stops it. */
export function spawnDaemon(
  args: readonly string[],
  mountpoint: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: boolean } = {},
): Daemon {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe"],
  });
  let output = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    append(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal })),
  );
  const daemon: Daemon = {
    child,
    mountpoint,
    output: () => output,
    stderr: () => stderr,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    send: (line) => {
      child.stdin?.write(`${line}\n`);
    },
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise((done, fail) => {
        const finish = (): void => {
          waiters.delete(check);
          clearTimeout(timer);
        };
        const check = (): boolean => {
          const match = pattern.exec(output);
          if (match === null) return false;
          finish();
          done(match[0]);
          return true;
        };
        const timer = setTimeout(() => {
          finish();
          fail(new Error(`daemon did not print ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        waiters.add(check);
        // Output still in the pipe arrives after the exit event: look once more, then give up.
        void exited.then(({ code, signal }) =>
          setTimeout(() => {
            if (waiters.has(check) && !check()) {
              finish();
              fail(new Error(`daemon exited (${code ?? signal}) before printing ${pattern}; output:\n${output}`));
            }
          }, 50),
        );
        check();
      }),
  };
  daemons.add(daemon);
  return daemon;
}

/** Starts `forage mount <args> <mountpoint>` and waits until it says it mounted. */
export async function startDaemon(
  args: readonly string[],
  mountpoint: string,
  options: { cwd?: string } = {},
): Promise<Daemon> {
  const daemon = spawnDaemon([CLI, "mount", ...args, mountpoint], mountpoint, options);
  await daemon.waitFor(/forage: mounted .*\n/);
  return daemon;
}

/**
 * Polls `condition` every 50 ms; false if it still fails after `timeoutMs`, which is only a guard against a
 * hang: generous, since a busy machine is slow.
 */
export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((tick) => setTimeout(tick, 50));
  }
  return true;
}

/** The /proc/self/mountinfo line of the mount exactly at `path`, if any. */
export function mountinfoLine(path: string): string | undefined {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .find((line) => line.split(" ")[4] === path);
}

/** True while something is mounted exactly at `path`. */
export function isMounted(path: string): boolean {
  return mountinfoLine(path) !== undefined;
}

/** Stops a daemon (SIGTERM, then SIGKILL after 5 s) and clears its mount, whatever state it is in. */
export async function stopDaemon(daemon: Daemon): Promise<void> {
  if (daemon.running()) {
    daemon.child.kill("SIGTERM");
    await Promise.race([daemon.exited, new Promise((done) => setTimeout(done, 5_000))]);
    daemon.child.kill("SIGKILL");
  }
  forceUnmount(daemon.mountpoint);
  daemons.delete(daemon);
}

/** Stops every daemon this file started and clears their mounts. */
export async function stopAllDaemons(): Promise<void> {
  for (const daemon of daemons) await stopDaemon(daemon);
}

/** Clears a mount left behind, then removes the mountpoint directory. */
export function forceUnmount(mountpoint: string): void {
  for (let attempt = 0; attempt < 3 && isMounted(mountpoint); attempt += 1)
    spawnSync("fusermount3", ["-u", "-z", mountpoint]);
  if (isMounted(mountpoint)) spawnSync("umount", ["-l", mountpoint]);
}

/** Removes a mountpoint directory once nothing is mounted on it. */
export function removeMountpoint(mountpoint: string): void {
  forceUnmount(mountpoint);
  rmSync(mountpoint, { recursive: true, force: true });
}

/** A path as one single-quoted word for `sh`. */
export const quote = (path: string): string => `'${path.replace(/'/g, "'\\''")}'`;

/** Runs a shell command as its own process (never in the daemon's process) and returns its result. */
export function sh(command: string, cwd?: string): { status: number; stdout: string; stderr: string } {
  const result = spawnSync("bash", ["-c", command], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
