// The FUSE adapter (src/fuse/tree-filesystem.ts and the parts it dispatches to) without a kernel:
// a recording fake of the native binding answers nothing itself, records every reply, and the
// test drives the handlers as the kernel would. What only the kernel can show (its caches, real
// tools, the addon's own answers) stays in test/fuse-native.test.ts and test/mount*.test.ts.
// docs/native.md, "Serving before the table is built", "Reloads: `swap(tree)` and invalidation", "Kernel caching",
// "Which operations reach JS" and "The control file".
import { constants as fsConstants } from "node:fs";
import { constants as osConstants } from "node:os";
import { describe, expect, test } from "vitest";
import type { NativeBinding, NativeConstants, NativeHandlers, NativeSession } from "../src/fuse/native-binding.js";
import {
  type NextTableSpec,
  type NodeTableNumbers,
  type NodeTableSpec,
  type WalkedNodeTable,
  walkNodeTable,
} from "../src/fuse/node-table.js";
import { COPY_CHUNK_NODES, RevisionSwap } from "../src/fuse/revision-swap.js";
import { TreeFilesystem, type TreeFilesystemOptions } from "../src/fuse/tree-filesystem.js";
import { runToEnd, SlicesCancelled } from "../src/slices.js";
import {
  type ControlSession,
  type TreeEntry,
  TreeError,
  type TreeNodeInfo,
  type VirtualTree,
} from "../src/tree/virtual-tree.js";

const { ENOENT, EIO, EROFS, EISDIR, EINVAL } = osConstants.errno;
const ROOT = 1;
const DIR_MODE = 0o040555;
const FILE_MODE = 0o100444;
const CONTROL_MODE = 0o100666;
const LINK_MODE = 0o120777;

/** The addon's constants (native/forage_fuse.h and libfuse's FUSE_SET_ATTR_*). */
const constants: NativeConstants = {
  SET_ATTR_MODE: 1,
  SET_ATTR_UID: 2,
  SET_ATTR_GID: 4,
  SET_ATTR_SIZE: 8,
  SET_ATTR_ATIME: 16,
  SET_ATTR_MTIME: 32,
  SET_ATTR_ATIME_NOW: 128,
  SET_ATTR_MTIME_NOW: 256,
  SET_ATTR_CTIME: 1024,
  OPEN_KEEP_CACHE: 1,
  OPEN_DIRECT_IO: 2,
  OPEN_NOFLUSH: 4,
  OPEN_NONSEEKABLE: 8,
  NODE_FORWARD: 1,
  NODE_UNLISTED: 2,
};

// ---- A tree in memory ----------------------------------------------------------------------

/** A file's text; "-> target" for a symlink; CONTROL for a control file; an object for a directory. */
type Spec = string | { readonly [name: string]: Spec };
const CONTROL = "<control>";

/** A control session that answers with the upper-cased request; "slow" answers with a promise. */
class EchoSession implements ControlSession {
  request = "";
  closed = false;
  write(data: Uint8Array, offset: number): number {
    this.request = this.request.slice(0, offset) + Buffer.from(data).toString();
    return data.length;
  }
  truncate(size: number): void {
    this.request = this.request.slice(0, size);
  }
  read(offset: number, length: number): Uint8Array | Promise<Uint8Array> {
    if (this.request === "bad") throw new TreeError("invalid_path", "bad request");
    const answer = Buffer.from(this.request.toUpperCase()).subarray(offset, offset + length);
    if (this.request === "slow") return Promise.resolve(answer);
    if (this.request === "fail") return Promise.reject(new TreeError("invalid_path", "failed later"));
    return answer;
  }
  size(): number {
    return this.request.length;
  }
  close(): void {
    this.closed = true;
  }
}

/**
 * A tree from a nested object (see Spec).
 * `/.search` is unlisted: any name in it is a directory holding `results.json`.
 */
class MemoryTree implements VirtualTree {
  readonly stamp = "test";
  readonly reads: string[] = [];
  readonly sessions: EchoSession[] = [];
  readonly #spec: Spec;

  constructor(spec: Spec) {
    this.#spec = spec;
  }

  stat(path: string): TreeNodeInfo {
    if (path === "/.search") return { kind: "directory", size: 0, unlisted: true };
    if (/^\/\.search\/[^/]+$/.test(path)) return { kind: "directory", size: 0 };
    if (/^\/\.search\/[^/]+\/results\.json$/.test(path)) return { kind: "file", size: this.#search(path).length };
    return infoOf(this.#find(path));
  }

  list(path: string): readonly TreeEntry[] {
    if (path.startsWith("/.search")) {
      if (path === "/.search") return [];
      return [{ name: "results.json", ...this.stat(`${path}/results.json`) }];
    }
    const node = this.#find(path);
    if (typeof node === "string") throw new TreeError("invalid_path", "not a directory");
    const entries = Object.entries(node).map(([name, child]) => ({ name, ...infoOf(child) }));
    return path === "/" ? [...entries, { name: ".search", kind: "directory", size: 0, unlisted: true }] : entries;
  }

  read(path: string): Uint8Array {
    this.reads.push(path);
    if (path.startsWith("/.search/")) return this.#search(path);
    const node = this.#find(path);
    if (typeof node !== "string" || node === CONTROL || node.startsWith("-> "))
      throw new TreeError("invalid_path", "not a file");
    if (node === "<broken>") throw new Error("the renderer crashed");
    return Buffer.from(node);
  }

  readlink(path: string): string {
    const node = this.#find(path);
    if (typeof node !== "string" || !node.startsWith("-> ")) throw new TreeError("invalid_path", "not a symlink");
    return node.slice(3);
  }

  openControl(path: string): ControlSession {
    const node = this.#find(path);
    if (node !== CONTROL) throw new TreeError("read_only", "not a control file");
    const session = new EchoSession();
    this.sessions.push(session);
    return session;
  }

  #search(path: string): Uint8Array {
    return Buffer.from(`{"query":"${path.split("/")[2]}"}`);
  }

  #find(path: string): Spec {
    let node = this.#spec;
    for (const name of path.split("/").filter(Boolean)) {
      const next = typeof node === "object" ? node[name] : undefined;
      if (next === undefined) throw new TreeError("not_found", `no such path: ${path}`, path);
      node = next;
    }
    return node;
  }
}

function infoOf(node: Spec): TreeNodeInfo {
  if (node === CONTROL) return { kind: "file", size: 0, writable: true };
  if (typeof node === "string" && node.startsWith("-> ")) return { kind: "symlink", size: 0, target: node.slice(3) };
  if (typeof node === "string") return { kind: "file", size: Buffer.byteLength(node) };
  return { kind: "directory", size: 0 };
}

const revision1: Spec = {
  "README.md": "hello from revision 1\n",
  b: { "zeta.d.ts": "export declare const zeta: 1;\n", "gone.d.ts": "x" },
  link: "-> b/zeta.d.ts",
  "broken.txt": "<broken>",
  ".afi": { search: CONTROL },
};

// ---- The recording binding and the kernel that drives it -------------------------------------

type Reply =
  | { readonly op: "err"; readonly errno: number }
  | {
      readonly op: "entry";
      readonly ino: number;
      readonly mode: number;
      readonly size: number;
      readonly entryTimeout: number;
      readonly attrTimeout: number;
    }
  | {
      readonly op: "attr";
      readonly ino: number;
      readonly mode: number;
      readonly size: number;
      readonly attrTimeout: number;
    }
  | { readonly op: "readlink"; readonly target: string }
  | { readonly op: "open"; readonly fh: number; readonly flags: number }
  | { readonly op: "buf"; readonly text: string }
  | { readonly op: "write"; readonly count: number }
  | { readonly op: "statfs"; readonly files: number }
  | {
      readonly op: "readdir";
      readonly firstOffset: number;
      readonly plus: boolean;
      readonly names: string[];
      readonly inos: number[];
      readonly modes: number[];
      readonly sent: number;
    };

/**
 * Records every reply by request id (a request answered twice fails the test), and every call
 * of the next table: what the addon would serve is `served`, set only by serveNextTable.
 */
class RecordingBinding implements NativeBinding {
  readonly constants = constants;
  readonly libfuseVersion = 316;
  readonly replies = new Map<number, Reply>();
  /** Reply kinds the kernel refuses (the caller was interrupted): the reply returns false. */
  readonly refuse = new Set<Reply["op"]>();
  /** How many entries a readdir buffer holds at most (the real addon packs by bytes). */
  readdirRoom = Number.POSITIVE_INFINITY;

  mount(): never {
    throw new Error("the adapter never mounts");
  }
  unmount(): never {
    throw new Error("the adapter never unmounts");
  }
  setMtime(): never {
    throw new Error("the adapter never sets times");
  }
  /** "start", "fill", "serve", "drop", in the order they came. */
  readonly tableCalls: string[] = [];
  served: NodeTableSpec | undefined;
  /** serveNextTable throws, as the addon does for malformed numbers (dropping the next table). */
  refuseTable = false;
  #next: { spec: NextTableSpec; filled: number; contents: (Uint8Array | undefined)[]; flags: number[] } | undefined;

  startNextTable(_session: NativeSession, spec: NextTableSpec): void {
    this.tableCalls.push("start");
    this.#next = { spec, filled: 0, contents: [], flags: [] };
  }
  /** Copies the next `maxNodes` nodes' bytes and flags, as the addon does: the spec's may be let go of after. */
  fillNextTable(_session: NativeSession, spec: NextTableSpec, maxNodes: number): boolean {
    const next = this.#next;
    if (next?.spec !== spec) throw new Error("filled a table that is not the next one");
    this.tableCalls.push("fill");
    const to = Math.min(spec.modes.length, next.filled + maxNodes);
    for (let i = next.filled; i < to; i++) {
      next.contents.push(spec.contents[i]?.slice());
      next.flags.push(spec.flags[i]!);
    }
    next.filled = to;
    return next.filled === spec.modes.length;
  }
  serveNextTable(_session: NativeSession, numbers: NodeTableNumbers): void {
    const next = this.#next;
    this.#next = undefined;
    if (next === undefined || next.filled < next.spec.modes.length) throw new Error("served a table not filled");
    if (this.refuseTable) throw new TypeError("forage_fuse: two nodes share an inode number");
    this.tableCalls.push("serve");
    this.served = { ...next.spec, contents: next.contents, flags: Uint32Array.from(next.flags), ...numbers };
  }
  dropNextTable(): void {
    this.tableCalls.push("drop");
    this.#next = undefined;
  }
  /** True while a next table is started and not yet served or dropped. */
  get building(): boolean {
    return this.#next !== undefined;
  }
  /** True once every node of the next table is in: what is left of a build is its plan, then the install. */
  get filledInFull(): boolean {
    return this.#next !== undefined && this.#next.filled === this.#next.spec.modes.length;
  }
  releaseFreeMemory(): boolean {
    return false;
  }
  invalidate(): never {
    throw new Error("the adapter never invalidates: RevisionSwap.retire sends what install returns");
  }
  replyErr(req: number, errno: number): boolean {
    return this.#record(req, { op: "err", errno });
  }
  replyEntry(req: number, ino: number, mode: number, size: number, entryTimeout: number, attrTimeout: number): boolean {
    return this.#record(req, { op: "entry", ino, mode, size, entryTimeout, attrTimeout });
  }
  replyAttr(req: number, ino: number, mode: number, size: number, attrTimeout: number): boolean {
    return this.#record(req, { op: "attr", ino, mode, size, attrTimeout });
  }
  replyReadlink(req: number, target: string): boolean {
    return this.#record(req, { op: "readlink", target });
  }
  replyOpen(req: number, fh: number, flags: number): boolean {
    return this.#record(req, { op: "open", fh, flags });
  }
  replyBuf(req: number, data: Uint8Array): boolean {
    return this.#record(req, { op: "buf", text: Buffer.from(data).toString() });
  }
  replyWrite(req: number, count: number): boolean {
    return this.#record(req, { op: "write", count });
  }
  replyStatfs(req: number, files: number): boolean {
    return this.#record(req, { op: "statfs", files });
  }
  replyReaddir(
    req: number,
    firstOffset: number,
    plus: boolean,
    names: readonly string[],
    inos: readonly number[],
    modes: readonly number[],
  ): number {
    const sent = Math.min(names.length, this.readdirRoom);
    const ok = this.#record(req, {
      op: "readdir",
      firstOffset,
      plus,
      names: names.slice(0, sent),
      inos: inos.slice(0, sent),
      modes: modes.slice(0, sent),
      sent,
    });
    return ok ? sent : -1;
  }

  #record(req: number, reply: Reply): boolean {
    if (this.replies.has(req)) throw new Error(`request ${req} answered twice`);
    this.replies.set(req, reply);
    return !this.refuse.has(reply.op);
  }
}

/** Sends requests to the handlers as the kernel would and returns each one's answer. */
class Kernel {
  readonly native = new RecordingBinding();
  readonly fs: TreeFilesystem;
  readonly revisions: RevisionSwap;
  readonly errors: unknown[] = [];
  #tree: MemoryTree;
  readonly #handlers: NativeHandlers;
  #nextReq = 1;

  /** `table: "later"` starts with no table, as mountTree with deferTable: the handlers serve everything. */
  constructor(tree: MemoryTree, options: Partial<TreeFilesystemOptions> = {}, table: "first" | "later" = "first") {
    this.#tree = tree;
    this.fs = new TreeFilesystem(this.native, tree, {
      entryTimeout: 100,
      attrTimeout: 50,
      negativeTimeout: 10,
      onError: (error) => this.errors.push(error),
      ...options,
    });
    this.#handlers = this.fs.handlers();
    const session = { __brand: "forage_fuse.session" } as const;
    this.revisions = new RevisionSwap(this.native, session, this.fs.revision, this.fs.tableSettings());
    if (table === "first") this.revisions.installNow(tree, this.walk(tree)); // what mountTree does, with nothing cached yet
    tree.reads.length = 0; // the table rendered every file; count only what the handlers read
  }

  get tree(): MemoryTree {
    return this.#tree;
  }

  /** A tree's table, walked as a swap's build starts. */
  walk(tree: VirtualTree): WalkedNodeTable {
    return runToEnd(walkNodeTable(tree, this.fs.tableSettings()));
  }

  /** What mount.ts's swap does, minus the addon: returns the invalidation its retire would send. */
  swap(tree: MemoryTree): { inodes: number[]; entries: string[] } {
    this.#tree = tree;
    const { inodes, parents, names } = this.revisions.installNow(tree, this.walk(tree));
    tree.reads.length = 0;
    return { inodes, entries: names.map((name, i) => `${parents[i]}/${name}`) };
  }

  lookup(parent: number, name: string): Reply {
    return this.#send((req) => this.#handlers.lookup(req, parent, name));
  }

  /** The inode of a path, looked up name by name (each lookup counts, as in the kernel). */
  ino(path: string): number {
    let ino = ROOT;
    for (const name of path.split("/").filter(Boolean)) {
      const reply = this.lookup(ino, name);
      if (reply.op !== "entry" || reply.ino === 0) throw new Error(`${path}: ${JSON.stringify(reply)}`);
      ino = reply.ino;
    }
    return ino;
  }

  forget(ino: number, nlookup: number): void {
    this.#handlers.forget(ino, nlookup);
  }
  getattr(ino: number, fh = 0): Reply {
    return this.#send((req) => this.#handlers.getattr(req, ino, fh));
  }
  setattr(ino: number, toSet: number, size: number, fh = 0): Reply {
    return this.#send((req) => this.#handlers.setattr(req, ino, toSet, size, fh));
  }
  readlink(ino: number): Reply {
    return this.#send((req) => this.#handlers.readlink(req, ino));
  }
  open(ino: number, flags = fsConstants.O_RDONLY, pid = 0): Reply {
    return this.#send((req) => this.#handlers.open(req, ino, flags, pid));
  }
  read(ino: number, fh: number, offset = 0, size = 4096): Reply {
    return this.#send((req) => this.#handlers.read(req, ino, size, offset, fh));
  }
  /** A read whose answer may come later (a control file's promise). */
  async readLater(ino: number, fh: number): Promise<Reply> {
    const req = this.#nextReq++;
    this.#handlers.read(req, ino, 4096, 0, fh);
    await new Promise((resolve) => setImmediate(resolve));
    return this.#answer(req);
  }
  write(ino: number, fh: number, text: string, offset = 0): Reply {
    return this.#send((req) => this.#handlers.write(req, ino, Buffer.from(text), offset, fh));
  }
  release(ino: number, fh: number): Reply {
    return this.#send((req) => this.#handlers.release(req, ino, fh));
  }
  readdir(ino: number, offset: number, plus: boolean, size = 4096): Reply {
    return this.#send((req) => this.#handlers.readdir(req, ino, size, offset, plus));
  }
  statfs(): Reply {
    return this.#send((req) => this.#handlers.statfs?.(req, ROOT));
  }

  /** Opens a file and returns its handle. */
  fh(ino: number, flags = fsConstants.O_RDONLY): number {
    const reply = this.open(ino, flags);
    if (reply.op !== "open") throw new Error(`open ${ino}: ${JSON.stringify(reply)}`);
    return reply.fh;
  }

  #send(request: (req: number) => void): Reply {
    const req = this.#nextReq++;
    request(req);
    return this.#answer(req);
  }

  #answer(req: number): Reply {
    const reply = this.native.replies.get(req);
    if (!reply) throw new Error(`request ${req} was never answered`);
    return reply;
  }
}

const err = (errno: number): Reply => ({ op: "err", errno });
const text = (value: string): Reply => ({ op: "buf", text: value });

function withChanges(changes: Record<string, Spec | undefined>): MemoryTree {
  const spec = structuredClone(revision1) as Record<string, Spec>;
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete spec[name];
    else spec[name] = value;
  }
  return new MemoryTree(spec);
}

// ---- Attributes and lookups ------------------------------------------------------------------

describe("lookups and attributes", () => {
  test.each([
    { path: "/README.md", mode: FILE_MODE, size: 22, attrTimeout: 50 },
    { path: "/b", mode: DIR_MODE, size: 0, attrTimeout: 50 },
    { path: "/link", mode: LINK_MODE, size: "b/zeta.d.ts".length, attrTimeout: 50 },
    { path: "/.afi/search", mode: CONTROL_MODE, size: 0, attrTimeout: 0 },
    { path: "/.search/q1/results.json", mode: FILE_MODE, size: '{"query":"q1"}'.length, attrTimeout: 50 },
  ])("$path: mode $mode, size $size, attribute timeout $attrTimeout", ({ path, mode, size, attrTimeout }) => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino(path);
    expect(kernel.getattr(ino)).toEqual({ op: "attr", ino, mode, size, attrTimeout });
  });

  test("without control files (noOpen), the control file is a read-only file like the others", () => {
    const kernel = new Kernel(new MemoryTree(revision1), { controlFiles: false });
    const ino = kernel.ino("/.afi/search");
    expect(kernel.getattr(ino)).toEqual({ op: "attr", ino, mode: FILE_MODE, size: 0, attrTimeout: 50 });
    expect(kernel.open(ino, fsConstants.O_RDWR)).toEqual(err(EROFS));
  });

  test("a path keeps its inode across lookups, and the symlink's target comes from the tree", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const link = kernel.ino("/link");
    expect(kernel.ino("/link")).toBe(link);
    expect(kernel.readlink(link)).toEqual({ op: "readlink", target: "b/zeta.d.ts" });
  });

  test.each([
    { what: "a missing path", request: (k: Kernel) => k.lookup(ROOT, "nope"), errno: ENOENT, reported: 0 },
    { what: "an inode the adapter never gave", request: (k: Kernel) => k.getattr(999), errno: ENOENT, reported: 0 },
    { what: "readlink of a file", request: (k: Kernel) => k.readlink(k.ino("/README.md")), errno: EINVAL, reported: 0 },
    { what: "a renderer that crashes", request: (k: Kernel) => k.open(k.ino("/broken.txt")), errno: EIO, reported: 1 },
  ])("$what: errno $errno, reported to onError $reported times", ({ request, errno, reported }) => {
    const kernel = new Kernel(new MemoryTree(revision1), { negativeTimeout: 0 });
    expect(request(kernel)).toEqual(err(errno));
    expect(kernel.errors).toHaveLength(reported);
  });

  test("statfs counts the inodes known", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    expect(kernel.statfs()).toEqual({ op: "statfs", files: kernel.fs.inodeCount });
  });
});

// ---- Negative entries ------------------------------------------------------------------------

describe("negative entries", () => {
  test.each([
    { negativeTimeout: 10, max: undefined, names: ["x"], answers: ["negative"] },
    { negativeTimeout: 0, max: undefined, names: ["x"], answers: ["ENOENT"] },
    {
      negativeTimeout: 10,
      max: 2,
      names: ["x", "y", "z", "x"],
      answers: ["negative", "negative", "ENOENT", "ENOENT"],
    },
  ])("timeout $negativeTimeout, cap $max: $names answer $answers", ({ negativeTimeout, max, names, answers }) => {
    const kernel = new Kernel(new MemoryTree(revision1), { negativeTimeout, maxNegativeEntries: max });
    const got = names.map((name) => {
      const reply = kernel.lookup(ROOT, name);
      if (reply.op === "entry" && reply.ino === 0 && reply.entryTimeout === negativeTimeout) return "negative";
      return reply.op === "err" && reply.errno === ENOENT ? "ENOENT" : JSON.stringify(reply);
    });
    expect(got).toEqual(answers);
  });

  test("each negative entry is invalidated by the next swap, once", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const b = kernel.ino("/b");
    kernel.lookup(b, "missing");
    kernel.lookup(b, "missing");
    expect(kernel.swap(new MemoryTree(revision1)).entries).toEqual([`${b}/missing`]);
    expect(kernel.swap(new MemoryTree(revision1)).entries).toEqual([]);
  });

  test("the cap frees up again after a swap", () => {
    const kernel = new Kernel(new MemoryTree(revision1), { maxNegativeEntries: 1 });
    kernel.lookup(ROOT, "x");
    expect(kernel.lookup(ROOT, "y")).toEqual(err(ENOENT));
    kernel.swap(new MemoryTree(revision1));
    expect(kernel.lookup(ROOT, "y")).toMatchObject({ op: "entry", ino: 0 });
  });
});

// ---- The revision swap -----------------------------------------------------------------------

describe("the revision swap", () => {
  test("a table built after the handlers served the tree keeps every inode they gave, each under its path", async () => {
    const tree = new MemoryTree(revision1);
    const kernel = new Kernel(tree, {}, "later");
    const paths = ["/README.md", "/b/zeta.d.ts", "/link"];
    const served = paths.map((path) => kernel.ino(path));
    kernel.lookup(ROOT, "missing.md");
    await kernel.revisions.installInSlices(tree, () => false);
    const { inos, parents, names } = kernel.native.served!;
    const inoOf = (path: string): number => {
      let ino = ROOT;
      for (const name of path.split("/").filter(Boolean))
        ino = inos[names.findIndex((candidate, i) => candidate === name && parents[i] === ino)]!;
      return ino;
    };
    expect(paths.map(inoOf)).toEqual(served);
    expect(paths.map((path) => kernel.ino(path))).toEqual(served);
  });

  test("rendering a table stops, changing nothing, once the mount is closed", async () => {
    const tree = new MemoryTree(revision1);
    const kernel = new Kernel(tree, {}, "later");
    await expect(kernel.revisions.installInSlices(tree, () => true)).rejects.toThrow(SlicesCancelled);
    expect(kernel.native.served).toBeUndefined();
    expect(kernel.ino("/README.md")).toBeGreaterThan(ROOT);
  });

  test("the next table is built in chunks between requests and installed in one step; until then the old revision is served", async () => {
    const many: Record<string, Spec> = { ...(revision1 as Record<string, Spec>) };
    for (let i = 0; i < 3 * COPY_CHUNK_NODES; i++) many[`f${i}.md`] = `file ${i}\n`;
    const kernel = new Kernel(new MemoryTree(revision1));
    const before = kernel.native.served;
    const readme = kernel.ino("/README.md");
    kernel.native.tableCalls.length = 0;
    const next = new MemoryTree({ ...many, "README.md": "hello from revision 2\n" });
    // Each file takes a millisecond to render, so the build takes several slices of SLICE_MS.
    const read = next.read.bind(next);
    next.read = (path) => {
      for (const end = performance.now() + 1; performance.now() < end; );
      return read(path);
    };
    const loaded = kernel.revisions.installInSlices(next, () => false);
    let between = 0;
    const request = (): void => {
      if (kernel.native.served !== before) return;
      between += 1; // a request served between two slices sees the old revision only
      expect(kernel.fs.tree).toBe(kernel.tree);
      const fh = (kernel.open(readme) as { fh: number }).fh;
      expect(kernel.read(readme, fh)).toMatchObject({ text: "hello from revision 1\n" });
      setImmediate(request);
    };
    setImmediate(request);
    const { inodes } = await loaded;
    expect(between).toBeGreaterThan(1);
    const { tableCalls, served } = kernel.native;
    expect(tableCalls[0]).toBe("start");
    expect(tableCalls.filter((call) => call === "fill").length).toBeGreaterThan(3);
    expect(tableCalls.slice(-1)).toEqual(["serve"]);
    expect(served?.names).toContain("f0.md");
    expect(served?.inos[served.names.indexOf("README.md")]).toBe(readme); // an unchanged path keeps its number
    expect(kernel.fs.tree).toBe(next);
    expect(inodes).toContain(readme);
  });

  test.each([
    { failure: "the tree fails to render" },
    { failure: "the addon refuses the table" },
    { failure: "the mount closes while it is copied" },
    { failure: "the mount closes once it is copied, while it is planned" },
  ])(
    "a build that fails or is given up when $failure drops the next table and keeps the old revision",
    async ({ failure }) => {
      const kernel = new Kernel(new MemoryTree(revision1));
      const before = kernel.native.served;
      const readme = kernel.ino("/README.md");
      kernel.native.tableCalls.length = 0;
      const changes = { "README.md": "hello from revision 2\n", "NEW.md": "new" };
      const next = withChanges(changes);
      let cancelled = (): boolean => false;
      if (failure === "the tree fails to render")
        next.list = () => {
          throw new Error("cannot list");
        };
      if (failure === "the addon refuses the table") kernel.native.refuseTable = true;
      if (failure === "the mount closes while it is copied")
        cancelled = () => kernel.native.tableCalls.includes("fill");
      if (failure === "the mount closes once it is copied, while it is planned")
        cancelled = () => kernel.native.filledInFull;
      const known = kernel.fs.inodeCount;
      await expect(kernel.revisions.installInSlices(next, cancelled)).rejects.toThrow();
      expect(kernel.native.building).toBe(false);
      expect(kernel.native.tableCalls).not.toContain("serve");
      expect(kernel.native.served).toBe(before);
      expect(kernel.fs.tree).toBe(kernel.tree);
      expect(kernel.fs.inodeCount).toBe(known); // a plan changes nothing in the inode table
      expect(kernel.lookup(ROOT, "NEW.md")).toMatchObject({ op: "entry", ino: 0 });
      const fh = (kernel.open(readme) as { fh: number }).fh;
      expect(kernel.read(readme, fh)).toMatchObject({ text: "hello from revision 1\n" });
      // The next swap goes through as if the first had never started.
      kernel.native.refuseTable = false;
      const { names } = await kernel.revisions.installInSlices(withChanges(changes), () => false);
      expect(names).toContain("NEW.md");
      expect(kernel.native.served?.inos[kernel.native.served.names.indexOf("README.md")]).toBe(readme);
      expect(kernel.native.building).toBe(false);
    },
  );

  test("the next table's files are rendered a chunk at a time as they are copied, and JS lets go of each chunk's bytes once copied", () => {
    const many: Record<string, Spec> = { ...(revision1 as Record<string, Spec>) };
    for (let i = 0; i < 3 * COPY_CHUNK_NODES; i++) many[`f${i}.md`] = `file ${i}\n`;
    const kernel = new Kernel(new MemoryTree(revision1));
    const next = new MemoryTree(many);
    const walked = kernel.walk(next);
    expect(next.reads).toEqual([]); // walking renders no file
    kernel.native.tableCalls.length = 0;
    const building = kernel.revisions.build(next, walked);
    let steps = 0;
    while (!kernel.native.tableCalls.includes("fill")) {
      building.next();
      steps += 1;
    }
    // A file per step; at the first fill, the first chunk's files are read, and the rest not yet.
    expect(steps).toBeGreaterThanOrEqual(next.reads.length);
    expect(next.reads.length).toBeGreaterThan(0);
    expect(next.reads.length).toBeLessThanOrEqual(COPY_CHUNK_NODES);
    while (kernel.native.tableCalls.filter((call) => call === "fill").length < 2) building.next();
    // Right after the second fill, both chunks' bytes are let go of, and the third is not read yet.
    const { contents } = walked.spec;
    expect(next.reads.length).toBeLessThanOrEqual(2 * COPY_CHUNK_NODES);
    expect(contents.every((bytes) => bytes === undefined)).toBe(true);
    building.next();
    // The third chunk's bytes are held only until its fill.
    expect(contents.slice(2 * COPY_CHUNK_NODES, 3 * COPY_CHUNK_NODES).some((bytes) => bytes !== undefined)).toBe(true);
    expect(contents.slice(0, 2 * COPY_CHUNK_NODES).every((bytes) => bytes === undefined)).toBe(true);
    const built = runToEnd(building);
    expect(walked.spec.contents.every((bytes) => bytes === undefined)).toBe(true);
    kernel.revisions.install(built);
    const { served } = kernel.native;
    const f7 = served!.names.indexOf("f7.md");
    expect(new TextDecoder().decode(served!.contents[f7])).toBe("file 7\n");
    expect(served!.contents.filter((bytes) => bytes !== undefined).length).toBe(next.reads.length);
  });

  test("a plan made between requests is installed when the handlers changed no path of either table", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const next = withChanges({ "NEW.md": "new" });
    const walked = kernel.walk(next);
    const built = runToEnd(kernel.revisions.build(next, walked));
    kernel.ino("/.search/q1/results.json"); // JS numbers names under /.search, which no table lists
    kernel.ino("/README.md"); // a table path's lookup finds its live node: nothing changes
    expect(kernel.fs.revision.holds(built)).toBe(true);
  });

  test("a handler that numbers a path of the new table after the plan was made: the plan is made again, with the handler's number", () => {
    const next = withChanges({ "NEW.md": "new" });
    const kernel = new Kernel(new MemoryTree(revision1), {}, "later"); // the handlers number paths until the first table
    const walked = kernel.walk(next);
    const built = runToEnd(kernel.revisions.build(next, walked));
    const zeta = kernel.ino("/b/zeta.d.ts");
    expect(kernel.fs.revision.holds(built)).toBe(false);
    kernel.revisions.install(built);
    const { inos, names } = kernel.native.served!;
    expect(new Set(inos).size).toBe(inos.length);
    expect(inos[names.indexOf("zeta.d.ts")]).toBe(zeta);
    expect(kernel.ino("/b/zeta.d.ts")).toBe(zeta);
  });

  test("an unchanged tree invalidates every table inode and no entry; every path keeps its inode", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const before = ["/README.md", "/b/zeta.d.ts", "/link"].map((path) => kernel.ino(path));
    const { inodes, entries } = kernel.swap(new MemoryTree(revision1));
    expect(entries).toEqual([]);
    expect(inodes).toEqual(expect.arrayContaining([ROOT, ...before]));
    expect(["/README.md", "/b/zeta.d.ts", "/link"].map((path) => kernel.ino(path))).toEqual(before);
  });

  test.each([
    { change: "a file removed", changes: { "README.md": undefined }, entries: ["1/README.md"], after: "missing" },
    { change: "a file added", changes: { "NEW.md": "new" }, entries: ["1/NEW.md"], after: "new inode" },
    {
      change: "a file that became a directory",
      changes: { "README.md": { "x.md": "x" } },
      entries: ["1/README.md", "1/README.md", "<new>/x.md"],
      after: "new inode",
    },
    {
      change: "a file's bytes changed",
      changes: { "README.md": "hello from revision 2\n" },
      entries: [],
      after: "same inode",
    },
  ])("$change: entries $entries are invalidated, and the path then has $after", ({ changes, entries, after }) => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const name = Object.keys(changes)[0]!;
    const old = name === "NEW.md" ? undefined : kernel.ino(`/${name}`);
    const swapped = kernel.swap(withChanges(changes));
    const now = kernel.lookup(ROOT, name) as { op: string; ino: number };
    expect(swapped.entries).toEqual(entries.map((entry) => entry.replace("<new>", String(now.ino))));
    if (old !== undefined) expect(swapped.inodes).toContain(old);
    expect(now.op).toBe("entry");
    if (after === "missing") expect(now.ino).toBe(0);
    if (after === "same inode") expect(now.ino).toBe(old);
    if (after === "new inode") expect(now.ino).not.toBe(old ?? 0);
    if (old !== undefined && after !== "same inode") expect(kernel.getattr(old)).toEqual(err(ENOENT));
  });

  test("a node JS serves (under /.search) is invalidated while the kernel holds it, and forgotten otherwise", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const held = kernel.ino("/.search/q1/results.json");
    const q2 = kernel.ino("/.search/q2");
    kernel.readdir(q2, 0, false); // numbers only readdir saw: nothing the kernel holds
    const count = kernel.fs.inodeCount;
    const { inodes, entries } = kernel.swap(new MemoryTree(revision1));
    expect(inodes).toContain(held);
    expect(entries).toEqual([]);
    expect(kernel.fs.inodeCount).toBe(count - 1); // q2's results.json, seen by readdir only
    expect(kernel.ino("/.search/q1/results.json")).toBe(held);
  });

  test("a lookup the kernel refused counts nothing, so the swap does not invalidate it", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const search = kernel.ino("/.search");
    kernel.native.refuse.add("entry");
    const refused = kernel.lookup(search, "q1");
    kernel.native.refuse.clear();
    expect(refused).toMatchObject({ op: "entry" });
    expect(kernel.swap(new MemoryTree(revision1)).inodes).not.toContain((refused as { ino: number }).ino);
  });

  test("a forgotten node is gone: the kernel naming it again gets ENOENT", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const q = kernel.ino("/.search/q1");
    kernel.forget(q, 1);
    expect(kernel.getattr(q)).toEqual(err(ENOENT));
    expect(kernel.swap(new MemoryTree(revision1)).inodes).not.toContain(q);
  });

  test("a tree that fails to render changes nothing: the build throws before the install", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const readme = kernel.ino("/README.md");
    const failing = new MemoryTree(revision1);
    failing.list = () => {
      throw new Error("cannot list");
    };
    expect(() => kernel.walk(failing)).toThrow("cannot list");
    expect(kernel.fs.tree).toBe(kernel.tree);
    expect(kernel.getattr(readme)).toMatchObject({ op: "attr", ino: readme });
  });
});

// ---- Open files ------------------------------------------------------------------------------

describe("open files", () => {
  test.each([
    { what: "a directory", path: "/b", flags: fsConstants.O_RDONLY, reply: err(EISDIR) },
    { what: "a file for writing", path: "/README.md", flags: fsConstants.O_WRONLY, reply: err(EROFS) },
    {
      what: "a file with O_TRUNC",
      path: "/README.md",
      flags: fsConstants.O_RDONLY | fsConstants.O_TRUNC,
      reply: err(EROFS),
    },
    {
      what: "a file for reading",
      path: "/README.md",
      flags: fsConstants.O_RDONLY,
      reply: { op: "open", fh: 1, flags: 1 | 4 },
    },
    {
      what: "the control file",
      path: "/.afi/search",
      flags: fsConstants.O_RDWR,
      reply: { op: "open", fh: 1, flags: 2 },
    },
  ])("open of $what: $reply", ({ path, flags, reply }) => {
    const kernel = new Kernel(new MemoryTree(revision1));
    expect(kernel.open(kernel.ino(path), flags)).toEqual(reply);
  });

  test("a file opened through JS keeps the bytes it opened across a swap; a new open reads the new revision", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/README.md");
    const old = kernel.fh(ino);
    kernel.swap(withChanges({ "README.md": "hello from revision 2\n" }));
    const fresh = kernel.fh(ino);
    expect(kernel.read(ino, old, 6, 4)).toEqual(text("from"));
    expect(kernel.read(ino, fresh)).toEqual(text("hello from revision 2\n"));
  });

  test("opens of one inode share its bytes: one render until the last release", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/README.md");
    const [a, b] = [kernel.fh(ino), kernel.fh(ino)];
    kernel.release(ino, a);
    kernel.fh(ino);
    kernel.release(ino, b);
    expect(kernel.tree.reads).toEqual(["/README.md"]);
  });

  test("a file the addon opened (fh 0) is rendered once, and let go once its end was served", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/README.md");
    expect([0, 8, 16].map((offset) => kernel.read(ino, 0, offset, 8))).toEqual([
      text("hello fr"),
      text("om revis"),
      text("ion 1\n"),
    ]);
    expect(kernel.tree.reads).toEqual(["/README.md"]);
    kernel.read(ino, 0, 0, 8);
    expect(kernel.tree.reads).toEqual(["/README.md", "/README.md"]);
  });

  test("a file the addon opened (fh 0) reads the new revision from the swap on, even halfway through", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/README.md");
    expect(kernel.read(ino, 0, 0, 8)).toEqual(text("hello fr"));
    kernel.swap(withChanges({ "README.md": "HELLO FROM REVISION 2\n" }));
    expect(kernel.read(ino, 0, 8, 8)).toEqual(text("OM REVIS"));
  });

  test("the control file: a session per handle, writes, reads, getattr and truncate through the handle", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/.afi/search");
    const fh = kernel.fh(ino, fsConstants.O_RDWR);
    expect(kernel.write(ino, fh, "query")).toEqual({ op: "write", count: 5 });
    expect(kernel.getattr(ino, fh)).toEqual({ op: "attr", ino, mode: CONTROL_MODE, size: 5, attrTimeout: 0 });
    expect(kernel.setattr(ino, constants.SET_ATTR_SIZE | constants.SET_ATTR_MTIME, 3, fh)).toEqual({
      op: "attr",
      ino,
      mode: CONTROL_MODE,
      size: 3,
      attrTimeout: 0,
    });
    expect(kernel.read(ino, fh)).toEqual(text("QUE"));
    expect(kernel.release(ino, fh)).toEqual(err(0));
    expect(kernel.tree.sessions.map((session) => session.closed)).toEqual([true]);
  });

  test.each([
    { what: "an answer that comes later", request: "slow", reply: text("SLOW"), reported: 0 },
    { what: "a request that fails later", request: "fail", reply: err(EINVAL), reported: 0 },
    { what: "a request that fails at once", request: "bad", reply: err(EINVAL), reported: 0 },
  ])("control file, $what: $reply", async ({ request, reply, reported }) => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/.afi/search");
    const fh = kernel.fh(ino, fsConstants.O_RDWR);
    kernel.write(ino, fh, request);
    expect(await kernel.readLater(ino, fh)).toEqual(reply);
    expect(kernel.errors).toHaveLength(reported);
  });

  test.each([
    {
      what: "a write to a plain file's handle",
      request: (k: Kernel, ino: number, fh: number) => k.write(ino, fh, "x"),
    },
    { what: "a write with fh 0", request: (k: Kernel, ino: number) => k.write(ino, 0, "x") },
    {
      what: "a chmod of the control file",
      request: (k: Kernel) => k.setattr(k.ino("/.afi/search"), constants.SET_ATTR_MODE, 0),
    },
    {
      what: "a truncate of a plain file",
      request: (k: Kernel, ino: number) => k.setattr(ino, constants.SET_ATTR_SIZE, 0),
    },
  ])("$what: EROFS", ({ request }) => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/README.md");
    expect(request(kernel, ino, kernel.fh(ino))).toEqual(err(EROFS));
  });

  test("an open the kernel refused (the opener was interrupted) is closed again: its session ends", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const ino = kernel.ino("/.afi/search");
    kernel.native.refuse.add("open");
    kernel.open(ino, fsConstants.O_RDWR);
    expect(kernel.tree.sessions.map((session) => session.closed)).toEqual([true]);
  });
});

// ---- Directory pages -------------------------------------------------------------------------

describe("directory pages", () => {
  test.each([
    {
      offset: 0,
      room: Number.POSITIVE_INFINITY,
      names: [".", "..", "README.md", "b", "link", "broken.txt", ".afi", ".search"],
    },
    { offset: 0, room: 3, names: [".", "..", "README.md"] },
    { offset: 3, room: 3, names: ["b", "link", "broken.txt"] },
    { offset: 6, room: 3, names: [".afi", ".search"] },
    { offset: 8, room: 3, names: [] },
  ])("from offset $offset with room for $room: $names", ({ offset, room, names }) => {
    const kernel = new Kernel(new MemoryTree(revision1));
    kernel.native.readdirRoom = room;
    expect(kernel.readdir(ROOT, offset, false)).toMatchObject({ op: "readdir", firstOffset: offset, names });
  });

  test("'.' is the directory and '..' its parent; the entries have the inodes lookups give", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const b = kernel.ino("/b");
    expect(kernel.readdir(b, 0, false)).toMatchObject({
      names: [".", "..", "zeta.d.ts", "gone.d.ts"],
      inos: [b, ROOT, kernel.ino("/b/zeta.d.ts"), kernel.ino("/b/gone.d.ts")],
      modes: [DIR_MODE, DIR_MODE, FILE_MODE, FILE_MODE],
    });
  });

  test("a page asks for no more entries than the buffer's size could hold", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    expect(kernel.readdir(ROOT, 0, false, 64)).toMatchObject({ names: [".", "..", "README.md"] });
    expect(kernel.readdir(ROOT, 0, true, 160)).toMatchObject({ names: [".", ".."] });
  });

  test.each([
    { plus: true, room: Number.POSITIVE_INFINITY, refused: false, counted: true },
    { plus: false, room: Number.POSITIVE_INFINITY, refused: false, counted: false },
    { plus: true, room: 2, refused: false, counted: false },
    { plus: true, room: Number.POSITIVE_INFINITY, refused: true, counted: false },
  ])(
    "readdirplus $plus, room $room, refused $refused: the entry counts as a lookup: $counted",
    ({ plus, room, refused, counted }) => {
      const kernel = new Kernel(new MemoryTree(revision1));
      const q = kernel.ino("/.search/q1");
      kernel.native.readdirRoom = room;
      if (refused) kernel.native.refuse.add("readdir");
      const reply = kernel.readdir(q, 0, plus);
      kernel.native.refuse.clear();
      const results = kernel.ino("/.search/q1/results.json");
      if (reply.op === "readdir" && reply.sent > 2) expect(reply.inos[2]).toBe(results);
      kernel.forget(results, 1); // the lookup ino() just made
      expect(kernel.getattr(results).op).toBe(counted ? "attr" : "err");
    },
  );

  test("after a swap, a directory lists the new revision's names", () => {
    const kernel = new Kernel(new MemoryTree(revision1));
    const b = kernel.ino("/b");
    kernel.readdir(b, 0, false);
    const next = new MemoryTree({ ...revision1, b: { "zeta.d.ts": "z", "new.d.ts": "n" } });
    kernel.swap(next);
    expect(kernel.readdir(b, 0, false)).toMatchObject({ names: [".", "..", "zeta.d.ts", "new.d.ts"] });
  });
});
