/**
 * Mounting a VirtualTree: `mountTree(tree, mountpoint, options)`.
 *
 * The returned handle swaps in new revisions (`swap`, for --watch), unmounts
 * (`unmount`), and tells when the mount is gone for any reason (`closed`,
 * including an unmount from outside). The mount never outlives the process:
 * it is unmounted on exit, on an uncaught error (via the 'exit' event and the
 * addon's own exit hooks) and, unless `handleSignals` is false, on SIGINT,
 * SIGTERM and SIGHUP.
 */
import { resolve } from "node:path";
import { ForageError } from "../forage-error.js";
import { runInSlices, runToEnd, SlicesCancelled } from "../slices.js";
import type { VirtualTree } from "../tree/virtual-tree.js";
import { allowOtherRefusal } from "./allow-other.js";
import { trace, tracing, watchStalls } from "./mount-trace.js";
import { prepareMountpoint } from "./mountpoint.js";
import { lockMountpoint, type MountpointLock } from "./mountpoint-lock.js";
import { loadNativeBinding, type NativeBinding, type NativeSession } from "./native-binding.js";
import { type WalkedNodeTable, walkNodeTable } from "./node-table.js";
import { RevisionSwap } from "./revision-swap.js";
import { settleHeap } from "./settle-heap.js";
import { TreeFilesystem } from "./tree-filesystem.js";

/**
 * How long a mount that defers its table waits before rendering it (docs/native.md, "Serving
 * before the table is built"): the first slice, which renders the root's files, took 14-20 ms
 * at 1,000 operations, and the caller's first request, which the handlers answer on the JS
 * thread until the table is in, waited for it.
 */
const FIRST_REQUESTS_MS = 20;

/** One day: a revision never changes, and swap invalidates explicitly. */
const LONG_TIMEOUT = 86_400;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long a signal waits for a clean unmount before forcing it. */
const SIGNAL_UNMOUNT_GRACE_MS = 2_000;

export interface MountOptions {
  /** Seconds the kernel caches names (default one day). */
  readonly entryTimeout?: number;
  /** Seconds the kernel caches attributes (default one day). */
  readonly attrTimeout?: number;
  /** Seconds the kernel caches missing names (default: entryTimeout; 0 = off). */
  readonly negativeTimeout?: number;
  /** Let other users see the mount (needs user_allow_other in /etc/fuse.conf unless root). */
  readonly allowOther?: boolean;
  /**
   * Let the kernel check permission bits (default false). Off, every write
   * reaches the daemon and gets EROFS; on, a non-root writer gets EACCES
   * from the kernel first.
   */
  readonly defaultPermissions?: boolean;
  /**
   * Have fusermount3 unmount even if this process is killed with SIGKILL
   * (default false). It turns noOpendir off by default: fusermount3 decides
   * the daemon is dead when opening the mount's root fails, and under
   * no-opendir that open never reaches the dead daemon, so it would succeed.
   */
  readonly autoUnmount?: boolean;
  /** Allow a non-empty mountpoint (default false). */
  readonly nonEmpty?: boolean;
  /**
   * Mount read-only in the kernel (the AFI `ro` option; default false). The
   * kernel then refuses every write itself, control files included, and no
   * longer drops a file's attributes after the first read of it, so a
   * repeated `cat` or `find` sends the daemon nothing at all. Implies noOpen
   * unless that is set. Serve a tree without control files here.
   */
  readonly readOnly?: boolean;
  /**
   * Let the kernel open files itself (default: readOnly). Warm opens then
   * never reach the daemon, which is as fast as FUSE gets, but there are no
   * per-open sessions, so control files (/.afi/search) are read-only.
   */
  readonly noOpen?: boolean;
  /** Let the kernel skip opendir/releasedir and cache every directory (default: true, unless autoUnmount). */
  readonly noOpendir?: boolean;
  /**
   * Mount before the node table is built (default false): the handlers serve the tree at once,
   * the table is rendered in slices between their requests and swapped in when complete. It is
   * the same revision, so no reader sees a difference but speed (docs/native.md, "Serving
   * before the table is built"). A table that fails to build is reported through onError and
   * the handlers go on serving.
   */
  readonly deferTable?: boolean;
  /** Unmount cleanly on SIGINT, SIGTERM and SIGHUP, then die of the signal (default true). */
  readonly handleSignals?: boolean;
  /** libfuse debug output on stderr. */
  readonly debug?: boolean;
  /** Called with unexpected errors from the tree (the request got EIO). Default: stderr. */
  readonly onError?: (error: unknown) => void;
}

export interface MountClosed {
  /** True when the mount was ended from outside (fusermount3 -u, umount). */
  readonly external: boolean;
}

export interface MountHandle {
  /** The canonical mountpoint. */
  readonly mountpoint: string;
  /** The tree being served. */
  readonly tree: VirtualTree;
  /** Resolves once the node table serves the first tree (at once unless deferTable); never rejects. */
  readonly tableServed: Promise<void>;
  /**
   * Swaps `tree` in (revision-swap.ts): builds its next table in slices between requests while
   * the old revision is served, installs it atomically, then retires the old revision from the
   * kernel's caches.
   */
  swap(tree: VirtualTree): Promise<void>;
  /** Unmounts; resolves once the mount is gone. Safe to call twice. */
  unmount(): Promise<void>;
  /** Resolves when the mount is gone, whoever ended it. */
  readonly closed: Promise<MountClosed>;
}

function defaultOnError(error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`forage mount: a request failed with EIO: ${text}\n`);
}

export function mountOptionString(options: MountOptions): string {
  const list = ["fsname=forage", "subtype=forage"];
  if (options.readOnly) list.push("ro");
  if (options.allowOther) list.push("allow_other");
  if (options.defaultPermissions) list.push("default_permissions");
  if (options.autoUnmount) list.push("auto_unmount");
  return list.join(",");
}

/**
 * Mounts `tree` at `mountpoint` and serves it from this process: the node table from the
 * addon's reader thread, everything else from the event loop.
 * Throws (leaving nothing mounted) when FUSE is unavailable — the message
 * says what to install — when the mountpoint is unusable, when another
 * process holds its lock (one mount per mountpoint), or when allow_other is
 * asked for but not permitted.
 *
 * Never read the mount from this same process synchronously: a request that needs JS
 * would wait for the event loop that the reading call blocks.
 */
export async function mountTree(
  tree: VirtualTree,
  mountpoint: string,
  options: MountOptions = {},
): Promise<MountHandle> {
  const native = loadNativeBinding();
  const refusal = options.allowOther ? allowOtherRefusal() : undefined;
  if (refusal !== undefined) throw new ForageError("unsupported", refusal, { feature: "allow_other" });
  const lock = await lockMountpoint(resolve(mountpoint));
  try {
    return mountLocked(native, tree, resolve(mountpoint), options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function mountLocked(
  native: NativeBinding,
  tree: VirtualTree,
  mountpoint: string,
  options: MountOptions,
  lock: MountpointLock,
): MountHandle {
  const path = prepareMountpoint(mountpoint, { nonEmpty: options.nonEmpty ?? false });
  const entryTimeout = options.entryTimeout ?? LONG_TIMEOUT;
  const filesystem = new TreeFilesystem(native, tree, {
    entryTimeout,
    attrTimeout: options.attrTimeout ?? LONG_TIMEOUT,
    negativeTimeout: options.negativeTimeout ?? entryTimeout,
    controlFiles: !(options.noOpen ?? options.readOnly),
    onError: options.onError ?? defaultOnError,
  });
  if (options.deferTable) return new Mount(native, filesystem, undefined, path, options, lock);
  const mount = mountWithTable(native, filesystem, tree, path, options, lock);
  // Before mountTree resolves, so before anyone told of the mount reads it.
  settleHeap(() => native.releaseFreeMemory());
  return mount;
}

/**
 * Walks the first table, then mounts, builds and installs it, rendering its
 * files, before the first request is served (so a tree that fails to list
 * leaves nothing mounted, and one the addon refuses is unmounted). A function
 * of its own so that no frame still holds the table's bytes when settleHeap runs.
 */
function mountWithTable(
  native: NativeBinding,
  filesystem: TreeFilesystem,
  tree: VirtualTree,
  path: string,
  options: MountOptions,
  lock: MountpointLock,
): Mount {
  const walked = runToEnd(walkNodeTable(tree, filesystem.tableSettings()));
  return new Mount(native, filesystem, walked, path, options, lock);
}

class Mount implements MountHandle {
  readonly mountpoint: string;
  readonly closed: Promise<MountClosed>;
  readonly #native: NativeBinding;
  readonly #filesystem: TreeFilesystem;
  readonly #session: NativeSession;
  readonly #swap: RevisionSwap;
  readonly #onExit = (): void => this.#native.unmount(this.#session, true);
  readonly #onSignal = (signal: NodeJS.Signals): void => this.#unmountAndDie(signal);
  readonly #onError: (error: unknown) => void;
  #open = true;
  /** unmount() was asked: the session may be torn down before onClose says so, so nothing more is sent. */
  #closing = false;
  /** The swap in progress (the first table's, then each tree's), so that they run one at a time. */
  #tableWork: Promise<unknown>;
  readonly tableServed: Promise<void>;

  constructor(
    native: NativeBinding,
    filesystem: TreeFilesystem,
    walked: WalkedNodeTable | undefined,
    mountpoint: string,
    options: MountOptions,
    lock: MountpointLock,
  ) {
    this.#native = native;
    this.#filesystem = filesystem;
    this.mountpoint = mountpoint;
    this.#onError = options.onError ?? defaultOnError;
    let settle: (closed: MountClosed) => void = () => {};
    this.closed = new Promise((resolve) => (settle = resolve));
    this.#session = native.mount(
      mountpoint,
      mountOptionString(options),
      {
        uid: process.getuid?.() ?? 0,
        gid: process.getgid?.() ?? 0,
        mtime: Date.now() / 1000,
        noOpendir: options.noOpendir ?? !options.autoUnmount,
        noOpen: options.noOpen ?? options.readOnly ?? false,
        fastOpen: true,
        debug: options.debug ?? false,
      },
      {
        ...filesystem.handlers(),
        onError: options.onError ?? defaultOnError,
        onClose: (external) => {
          this.#open = false;
          lock.release();
          this.#removeProcessHooks();
          settle({ external });
        },
      },
    );
    this.#swap = new RevisionSwap(native, this.#session, filesystem.revision, filesystem.tableSettings());
    try {
      // The first revision's table: the kernel holds nothing yet, so there is nothing to retire.
      if (walked) this.#swap.installNow(filesystem.tree, walked);
    } catch (error) {
      native.unmount(this.#session, true);
      throw error;
    }
    process.on("exit", this.#onExit);
    if (options.handleSignals ?? true) for (const signal of SIGNALS) process.on(signal, this.#onSignal);
    this.tableServed = walked ? Promise.resolve() : this.#tableInBackground(filesystem.tree);
    this.#tableWork = this.tableServed;
    void this.tableServed.then(() => this.#prepare(filesystem.tree));
  }

  /**
   * Runs the tree's preparation (its search index) between requests once its table serves, so
   * that the first query does not build it (docs/native.md, "Serving before the table is built");
   * it stops when the tree is no longer served.
   */
  async #prepare(tree: VirtualTree): Promise<void> {
    if (tree.preparationSteps === undefined) return;
    const started = performance.now();
    try {
      await runInSlices(tree.preparationSteps(), () => this.#gone() || this.#filesystem.tree !== tree);
      trace(
        `search prepared in ${(performance.now() - started).toFixed(0)} ms, ${(process.uptime() * 1000).toFixed(0)} ms after the process started`,
      );
    } catch (error) {
      if (!(error instanceof SlicesCancelled)) this.#onError(error);
    }
  }

  /**
   * Builds the first table between requests, then installs it; a failure leaves the handlers
   * serving. The kernel holds nothing but what the handlers told it, which the table repeats: the
   * same revision, so there is nothing to retire.
   */
  async #tableInBackground(tree: VirtualTree): Promise<void> {
    // What the caller asks right after mounting comes before the table's first step, which stats
    // the root's files and so renders them.
    await new Promise((resolve) => setTimeout(resolve, FIRST_REQUESTS_MS));
    if (this.#gone()) return;
    const started = performance.now();
    try {
      // Swaps wait for this load (#tableWork), so only closing can cancel it.
      await this.#swap.installInSlices(tree, () => this.#gone());
      // Once the frame that held the rendered bytes is gone, as at a mount that builds its table first.
      settleHeap(() => this.#native.releaseFreeMemory());
      const cpu = process.cpuUsage();
      trace(
        `node table in after ${(performance.now() - started).toFixed(0)} ms, ${(process.uptime() * 1000).toFixed(0)} ms after the process started (${((cpu.user + cpu.system) / 1000).toFixed(0)} ms of CPU)`,
      );
    } catch (error) {
      if (this.#open && !(error instanceof SlicesCancelled)) this.#onError(error);
    }
  }

  get tree(): VirtualTree {
    return this.#filesystem.tree;
  }

  swap(tree: VirtualTree): Promise<void> {
    const swapped = this.#tableWork.then(() => this.#swapNow(tree));
    this.#tableWork = swapped.catch(() => {});
    void swapped.then(
      () => this.#prepare(tree),
      () => {},
    );
    return swapped;
  }

  async #swapNow(tree: VirtualTree): Promise<void> {
    const stalls = tracing() ? await watchStalls() : undefined;
    const started = performance.now();
    try {
      await this.#swapIn(tree);
      if (stalls)
        trace(
          `swap in ${(performance.now() - started).toFixed(0)} ms, longest event-loop stall ${stalls.stop().toFixed(1)} ms, ${stalls.gcPauses()}`,
        );
    } finally {
      stalls?.stop();
    }
  }

  async #swapIn(tree: VirtualTree): Promise<void> {
    const closed = (): boolean => this.#gone();
    const closedError = (): Error => new Error(`forage mount at ${this.mountpoint} is closed`);
    if (closed()) throw closedError();
    // A tree that fails to render, or a table the addon refuses, throws here and changes nothing.
    const invalidation = await this.#swap.installInSlices(tree, closed).catch((error: unknown) => {
      throw error instanceof SlicesCancelled ? closedError() : error;
    });
    await this.#swap.retire(invalidation, closed);
  }

  async unmount(): Promise<void> {
    if (this.#open && !this.#closing) {
      this.#closing = true;
      this.#native.unmount(this.#session, false);
    }
    await this.closed;
  }

  /** The mount is closed, or unmount() was asked. */
  #gone(): boolean {
    return !this.#open || this.#closing;
  }

  #removeProcessHooks(): void {
    process.off("exit", this.#onExit);
    for (const signal of SIGNALS) process.off(signal, this.#onSignal);
  }

  /** Unmounts, then lets the signal do what it would have done without us. */
  #unmountAndDie(signal: NodeJS.Signals): void {
    this.#removeProcessHooks();
    const die = (): void => {
      clearTimeout(timer);
      process.kill(process.pid, signal);
    };
    const timer = setTimeout(() => {
      this.#native.unmount(this.#session, true);
      die();
    }, SIGNAL_UNMOUNT_GRACE_MS);
    void this.unmount().finally(die);
  }
}
