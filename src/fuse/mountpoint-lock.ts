/**
 * One mount per mountpoint, even when two processes start at the same moment.
 *
 * The lock is a listening socket in Linux's abstract namespace, named after
 * the mountpoint's real path. Binding a name is atomic and exclusive, and the
 * kernel frees it when the process ends however it ends (kill -9 included),
 * so there is no lock file to go stale and no takeover race. Whoever holds it
 * answers a connection with its pid and mountpoint, for the refusal message
 * and for `forage unmount`.
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { basename, dirname, join } from "node:path";
import { ForageError } from "../forage-error.js";

/** Who holds a mountpoint's lock, as it answers. */
export interface LockHolder {
  readonly pid: number;
  readonly mountpoint: string;
}

/** A held lock; release it once the mount is gone (exit releases it too). */
export interface MountpointLock {
  release(): void;
}

/** A holder still building its table answers late; after this long it counts as not answering. */
const ASK_TIMEOUT_MS = 3_000;

/** The real path when it resolves; a dead mount does not, so then its parent's real path and its name. */
export function lockKeyPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

function socketName(key: string): string {
  return `\0forage/mount/${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
}

/**
 * Takes the lock of `path` (absolute), or throws an Error naming who holds it.
 * The socket does not keep the process alive. The path is resolved once, now:
 * once mounted, resolving it would ask this very process, which answers
 * nothing while it waits for the answer.
 */
export async function lockMountpoint(path: string): Promise<MountpointLock> {
  const key = lockKeyPath(path);
  const answer = `${JSON.stringify({ pid: process.pid, mountpoint: key })}\n`;
  const server = createServer((socket) => {
    socket.on("error", () => {});
    socket.end(answer);
  });
  try {
    await new Promise<void>((listening, fail) => {
      server.once("error", fail);
      server.listen({ path: socketName(key) }, () => listening());
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const holder = await lockHolder(path);
    throw new ForageError(
      "invalid_argument",
      holder === undefined
        ? `mountpoint ${path} is being mounted by another process (busy starting, it did not answer); not mounting twice`
        : `mountpoint ${path} is already mounted by forage (pid ${holder.pid}); unmount it first: forage unmount ${path}`,
      holder === undefined ? { mountpoint: path } : { mountpoint: path, pid: holder.pid },
    );
  }
  server.unref();
  return { release: () => closeQuietly(server) };
}

function closeQuietly(server: Server): void {
  if (server.listening) server.close();
}

/**
 * Who holds `path`'s lock, or undefined when nobody (or nothing that answers) does.
 * Never call it in the process that serves `path`: it resolves the path.
 */
export function lockHolder(path: string): Promise<LockHolder | undefined> {
  const name = socketName(lockKeyPath(path));
  return new Promise((done) => {
    let text = "";
    const socket = connect({ path: name });
    const finish = (holder: LockHolder | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      done(holder);
    };
    const timer = setTimeout(() => finish(undefined), ASK_TIMEOUT_MS);
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("end", () => finish(parseHolder(text)));
    socket.on("error", () => finish(undefined));
  });
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    return typeof value.pid === "number" && typeof value.mountpoint === "string"
      ? { pid: value.pid, mountpoint: value.mountpoint }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves true once nobody holds `path`'s lock, false if someone still does after `timeoutMs`. */
export async function waitForLockRelease(path: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await lockHolder(path)) !== undefined) {
    if (Date.now() > deadline) return false;
    await new Promise((tick) => setTimeout(tick, 50));
  }
  return true;
}
