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

/** A `forage mount` daemon running in a child process. */
export interface Daemon {
  readonly child: ChildProcess;
  readonly mountpoint: string;
  /** Everything the daemon printed so far. */
  output(): string;
  /** Resolves when the daemon printed a line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code or signal once the daemon exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const daemons = new Set<Daemon>();

/** A fresh empty directory under the system temp dir, for a mountpoint. */
export function freshMountpoint(label: string): string {
  return mkdtempSync(join("/tmp", `forage-${label}-`));
}

/** Starts `forage mount <args> <mountpoint>` and waits until it says it mounted. */
export async function startDaemon(
  args: readonly string[],
  mountpoint: string,
  options: { cwd?: string } = {},
): Promise<Daemon> {
  const child = spawn(process.execPath, [CLI, "mount", ...args, mountpoint], {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal })),
  );
  const daemon: Daemon = {
    child,
    mountpoint,
    output: () => output,
    exited,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise((done, fail) => {
        const check = (): void => {
          const match = pattern.exec(output);
          if (match === null) return;
          waiters.delete(check);
          clearTimeout(timer);
          done(match[0]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`daemon did not print ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        waiters.add(check);
        void exited.then(() => setTimeout(check, 50));
        check();
      }),
  };
  daemons.add(daemon);
  await Promise.race([
    daemon.waitFor(/forage: mounted .*\n/),
    exited.then(({ code }) => {
      throw new Error(`forage mount exited (${code}) before mounting:\n${output}`);
    }),
  ]);
  return daemon;
}

/** True while something is mounted exactly at `path`. */
export function isMounted(path: string): boolean {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .some((line) => line.split(" ")[4] === path);
}

/** Stops every daemon this file started and clears their mounts, whatever state they are in. */
export async function stopAllDaemons(): Promise<void> {
  for (const daemon of daemons) {
    if (daemon.child.exitCode === null && daemon.child.signalCode === null) {
      daemon.child.kill("SIGTERM");
      await Promise.race([daemon.exited, new Promise((done) => setTimeout(done, 5_000))]);
      daemon.child.kill("SIGKILL");
    }
    forceUnmount(daemon.mountpoint);
    daemons.delete(daemon);
  }
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

/** Runs a shell command as its own process (never in the daemon's process) and returns its result. */
export function sh(command: string, cwd?: string): { status: number; stdout: string; stderr: string } {
  const result = spawnSync("bash", ["-c", command], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
