/**
 * The native FUSE binding and the VirtualTree adapter, on real mounts (docs/native.md).
 *
 * A small hand-written tree (test/fixtures/fuse-demo-daemon.mjs) is mounted
 * by a daemon in a child process (a daemon that read its own mount would
 * deadlock), running the current src/fuse sources transpiled by
 * test/fixtures/fuse-build-modules.mjs. Real tools (ls, cat, stat, find) and
 * plain file system calls from this process check what the kernel shows.
 * Every mount is cleared after each test, even when it fails.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import type { NativeBinding, NativeHandlers, NativeSession } from "../src/fuse/native-binding.js";
import type { NodeTableSpec } from "../src/fuse/node-table.js";
import { INVALIDATION_BATCH } from "../src/fuse/revision-swap.js";
import {
  type Daemon,
  forceUnmount,
  isMounted,
  mountinfoLine,
  mountSkipReason,
  spawnDaemon,
  stopAllDaemons,
  stopDaemon,
  until,
} from "./helpers/mount-daemon.js";

const run = promisify(execFile);
const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const addon = join(root, "native", "build", "Release", "forage_fuse.node");
const daemonScript = join(root, "test", "fixtures", "fuse-demo-daemon.mjs");
const buildModulesScript = join(root, "test", "fixtures", "fuse-build-modules.mjs");

const skipReason = mountSkipReason();
if (skipReason) console.warn(`[fuse-native] skipping the FUSE tests: ${skipReason}`);

function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
  return undefined;
}

function bigBytes(): Buffer {
  const bytes = Buffer.alloc(300_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 251;
  return bytes;
}

/**
 * How long a tool may run before it is killed: only a guard against a hung mount, so that the test fails
 * instead of hanging; generous, since a busy machine makes every tool slow. Below vitest's 120 s per test.
 */
const HANG_GUARD_MS = 45_000;

/** Runs a tool; resolves with stdout. Rejects after HANG_GUARD_MS so a hung mount fails the test instead of hanging it. */
async function tool(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, { timeout: HANG_GUARD_MS, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

async function toolBytes(command: string, args: string[]): Promise<Buffer> {
  const { stdout } = await run(command, args, {
    timeout: HANG_GUARD_MS,
    maxBuffer: 16 * 1024 * 1024,
    encoding: "buffer",
  });
  return stdout;
}

/** Starts the demo daemon on `mountpoint` and waits for its "ready" line. */
async function startDemoDaemon(mountpoint: string, modules: string, options: object = {}): Promise<Daemon> {
  const daemon = spawnDaemon([daemonScript, mountpoint, JSON.stringify(options)], mountpoint, {
    env: { ...process.env, FORAGE_FUSE_MODULES: modules, FORAGE_FUSE_ADDON: addon },
    stdin: true,
  });
  await daemon.waitFor(/^ready .*$/m);
  return daemon;
}

describe.skipIf(skipReason !== undefined)("FUSE mount of a VirtualTree (native binding + adapter)", () => {
  let work = "";
  let modules = "";
  let shared: Daemon;
  let mnt = "";
  const daemons = new Set<Daemon>();
  const mountpoints = new Set<string>();

  function newMountpoint(name: string): string {
    const path = join(work, name);
    mkdirSync(path, { recursive: true });
    mountpoints.add(path);
    return path;
  }

  async function startDaemon(mountpoint: string, options: object = {}): Promise<Daemon> {
    const daemon = await startDemoDaemon(mountpoint, modules, options);
    daemons.add(daemon);
    return daemon;
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "forage-fuse-"));
    modules = join(work, "modules");
    execFileSync(process.execPath, [buildModulesScript, modules]);
    mnt = newMountpoint("shared");
    shared = await startDemoDaemon(mnt, modules);
  });

  afterEach(async () => {
    for (const daemon of daemons) await stopDaemon(daemon);
    daemons.clear();
    for (const path of mountpoints) if (path !== mnt) forceUnmount(path);
  });

  afterAll(async () => {
    await stopAllDaemons(); // the shared daemon, and any that failed to start
    for (const path of mountpoints) forceUnmount(path);
    if (work && ![...mountpoints].some(isMounted)) rmSync(work, { recursive: true, force: true });
  });

  test("mounts with fsname and subtype forage, without the kernel ro flag", () => {
    const line = mountinfoLine(mnt);
    expect(line).toBeDefined();
    expect(line).toMatch(/ - fuse\.forage forage /);
    expect(line!.split(" ")[5]!.split(",")).not.toContain("ro");
  });

  test("ls -f shows list order, after . and ..", async () => {
    expect((await tool("ls", ["-f", mnt])).split("\n").filter(Boolean)).toEqual([
      ".",
      "..",
      "README.md",
      "b",
      "link",
      "big.bin",
      "broken.txt",
      ".afi",
    ]);
    expect((await tool("ls", ["-f", join(mnt, "b")])).split("\n").filter(Boolean)).toEqual([
      ".",
      "..",
      "zeta.d.ts",
      "alpha.d.ts",
      "mid",
    ]);
  });

  test("cat reads files, through symlinks, and large files across many requests", async () => {
    expect(await tool("cat", [join(mnt, "README.md")])).toBe("hello from revision 1\n");
    expect(await tool("cat", [join(mnt, "link")])).toBe("export declare const zeta: 1;\n");
    expect(await tool("readlink", [join(mnt, "link")])).toBe("b/zeta.d.ts\n");
    expect((await toolBytes("cat", [join(mnt, "big.bin")])).equals(bigBytes())).toBe(true);
  });

  test("stat sizes equal the bytes read, with sane modes and times", async () => {
    const files = (await tool("find", [mnt, "-type", "f", "-not", "-name", "broken.txt", "-not", "-name", "search"]))
      .split("\n")
      .filter(Boolean);
    expect(files.length).toBe(6);
    for (const file of files) {
      const size = Number((await tool("stat", ["-c", "%s", file])).trim());
      expect(size, file).toBe((await toolBytes("cat", [file])).length);
    }
    const modes = (
      await tool("stat", [
        "-c",
        "%n %a %F",
        mnt,
        join(mnt, "README.md"),
        join(mnt, ".afi", "search"),
        join(mnt, "link"),
      ])
    )
      .trim()
      .split("\n");
    expect(modes).toEqual([
      `${mnt} 555 directory`,
      `${join(mnt, "README.md")} 444 regular file`,
      `${join(mnt, ".afi", "search")} 666 regular empty file`,
      `${join(mnt, "link")} 777 symbolic link`,
    ]);
    const mtime = statSync(join(mnt, "README.md")).mtimeMs;
    expect(Math.abs(Date.now() - mtime)).toBeLessThan(10 * 60_000);
    expect(statSync(join(mnt, "README.md")).uid).toBe(process.getuid!());
  });

  test("find counts files, directories and symlinks", async () => {
    const count = async (type: string) => (await tool("find", [mnt, "-type", type])).split("\n").filter(Boolean).length;
    expect(await count("f")).toBe(8);
    expect(await count("d")).toBe(4);
    expect(await count("l")).toBe(1);
  });

  test("answers writes with EROFS and missing paths with ENOENT", () => {
    expect(errorCode(() => writeFileSync(join(mnt, "README.md"), "x"))).toBe("EROFS");
    expect(errorCode(() => openSync(join(mnt, "README.md"), "r+"))).toBe("EROFS");
    expect(errorCode(() => writeFileSync(join(mnt, "new-file"), "x"))).toBe("EROFS");
    expect(errorCode(() => mkdirSync(join(mnt, "dir")))).toBe("EROFS");
    expect(errorCode(() => rmSync(join(mnt, "README.md")))).toBe("EROFS");
    expect(errorCode(() => readFileSync(join(mnt, "missing.txt")))).toBe("ENOENT");
    expect(errorCode(() => readFileSync(join(mnt, "b", "missing", "deeper")))).toBe("ENOENT");
    expect(errorCode(() => readFileSync(join(mnt, "README.md", "x")))).toBe("ENOTDIR");
  });

  test("turns a handler that throws into EIO and keeps serving", async () => {
    expect(errorCode(() => readFileSync(join(mnt, "broken.txt")))).toBe("EIO");
    expect(await tool("cat", [join(mnt, "README.md")])).toBe("hello from revision 1\n");
    expect(shared.running()).toBe(true);
  });

  test("round-trips the control file: write a request, read the answer", () => {
    const fd = openSync(join(mnt, ".afi", "search"), "r+");
    try {
      const request = '{"query":"zeta"}';
      expect(writeSync(fd, request)).toBe(request.length);
      const buffer = Buffer.alloc(4096);
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      const answer = buffer.subarray(0, n).toString();
      expect(answer.endsWith("\n\n")).toBe(true);
      expect(JSON.parse(answer.split("\n")[0]!)).toEqual({ path: "/echo", line: 1, text: request });
      // fstat carries no file handle to the daemon (the kernel sends none), so
      // it shows the tree's size for the path; only this handle has the answer.
      expect(fstatSync(fd).isFile()).toBe(true);
    } finally {
      closeSync(fd);
    }
    // Each open is its own session; O_TRUNC and shell redirection work.
    execFileSync("sh", ["-c", `printf 'abc' > ${join(mnt, ".afi", "search")}`]);
  });

  test("serves 16 concurrent readers without error", async () => {
    const expected = createHash("sha256").update(bigBytes()).digest("hex");
    const readers = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0 ? toolBytes("cat", [join(mnt, "big.bin")]) : toolBytes("cat", [join(mnt, "b", "mid", "deep.json")]),
    );
    const results = await Promise.all(readers);
    results.forEach((bytes, i) => {
      if (i % 2 === 0) expect(createHash("sha256").update(bytes).digest("hex")).toBe(expected);
      else expect(bytes.toString()).toBe('{"deep":true}\n');
    });
  });

  test("swaps in a new revision and the kernel caches follow", async () => {
    const path = newMountpoint("swap");
    const daemon = await startDaemon(path);
    // Warm every cache first: entries, attributes, pages, directory listings.
    expect(await tool("cat", [join(path, "README.md"), join(path, "link")])).toContain("revision 1");
    expect(await tool("ls", ["-f", join(path, "b")])).toContain("alpha.d.ts");
    await tool("find", [path]);
    expect(statSync(join(path, "b", "mid")).isDirectory()).toBe(true);
    expect(errorCode(() => statSync(join(path, "b", "new.d.ts")))).toBe("ENOENT");

    daemon.send("swap");
    await daemon.waitFor(/^swapped.*$/m);

    expect(await tool("cat", [join(path, "README.md")])).toBe("hello from revision 2, which is longer\n");
    expect(statSync(join(path, "README.md")).size).toBe("hello from revision 2, which is longer\n".length);
    expect((await tool("ls", ["-f", join(path, "b")])).split("\n").filter(Boolean)).toEqual([
      ".",
      "..",
      "new.d.ts",
      "zeta.d.ts",
      "mid",
    ]);
    expect(await tool("cat", [join(path, "b", "new.d.ts")])).toBe("export declare const fresh: 2;\n");
    expect(await tool("cat", [join(path, "link")])).toBe("export declare const fresh: 2;\n");
    expect(statSync(join(path, "b", "mid")).isFile()).toBe(true);
    expect(await tool("cat", [join(path, "b", "mid")])).toBe("mid is a file now\n");
    expect(errorCode(() => statSync(join(path, "b", "alpha.d.ts")))).toBe("ENOENT");
    expect(errorCode(() => statSync(join(path, "broken.txt")))).toBe("ENOENT");
  });

  test("a swap past one invalidation batch reaches every cached file, the last in table order too", async () => {
    const path = newMountpoint("swap-many");
    const daemon = await startDaemon(path, { manyFiles: INVALIDATION_BATCH + 1000 });
    // Same sizes in both revisions: only the invalidation makes the kernel drop the cached pages.
    const cached = ["many/f0.txt", `many/f${INVALIDATION_BATCH + 999}.txt`, "b/zeta.d.ts"].map((file) =>
      join(path, file),
    );
    expect(await tool("cat", cached)).toBe(
      `f0.txt of revision 1\nf${INVALIDATION_BATCH + 999}.txt of revision 1\nexport declare const zeta: 1;\n`,
    );
    daemon.send("swap");
    await daemon.waitFor(/^swapped.*$/m);
    expect(await tool("cat", cached)).toBe(
      `f0.txt of revision 2\nf${INVALIDATION_BATCH + 999}.txt of revision 2\nexport declare const zeta: 2;\n`,
    );
  });

  test("a swap whose table the addon refuses changes nothing: the old revision goes on", async () => {
    const path = newMountpoint("swap-refused");
    const daemon = await startDaemon(path);
    expect(await tool("cat", [join(path, "README.md")])).toBe("hello from revision 1\n");
    daemon.send("swap-refused");
    expect(await daemon.waitFor(/^swap refused.*$/m)).toMatch(/longer than 1024 bytes/);
    expect(await tool("cat", [join(path, "README.md"), join(path, "b", "alpha.d.ts")])).toBe(
      "hello from revision 1\nexport declare const alpha: 1;\n",
    );
    expect((await tool("ls", ["-f", join(path, "b")])).split("\n").filter(Boolean)).toEqual([
      ".",
      "..",
      "zeta.d.ts",
      "alpha.d.ts",
      "mid",
    ]);
    // And a good swap after it still works whole.
    daemon.send("swap");
    await daemon.waitFor(/^swapped.*$/m);
    expect(await tool("cat", [join(path, "b", "new.d.ts")])).toBe("export declare const fresh: 2;\n");
    expect(errorCode(() => statSync(join(path, "b", "alpha.d.ts")))).toBe("ENOENT");
  });

  test("swaps while readers are busy, without errors or a stuck invalidation", async () => {
    const path = newMountpoint("swap-load");
    const daemon = await startDaemon(path);
    // Each reader passes over the tree until it has read revision 2, checking every README it reads is
    // one whole revision: the work is a few passes around the swap, however slow the machine is.
    const reader = `n=0; while :; do
      text=$(cat ${path}/README.md) && cat ${path}/link > /dev/null && ls -f ${path}/b > /dev/null && stat ${path}/b/zeta.d.ts > /dev/null || exit 1
      n=$((n + 1)); [ $n = 1 ] && echo started
      case "$text" in "hello from revision 1") ;; "hello from revision 2, which is longer") break ;; *) echo "torn: $text"; exit 1 ;; esac
    done; echo "saw revision 2"`;
    const readers = Array.from({ length: 4 }, () => pendingTool("sh", ["-c", reader]));
    // Swap only once every reader is mid-loop, so that the swap lands among their requests.
    expect(await until(() => readers.every((one) => one.stdout().startsWith("started\n")), HANG_GUARD_MS)).toBe(true);
    daemon.send("swap");
    await daemon.waitFor(/^swapped.*$/m);
    for (const one of readers) expect(await one.done).toMatchObject({ code: 0, stdout: "started\nsaw revision 2\n" });
    expect(await tool("cat", [join(path, "README.md")])).toBe("hello from revision 2, which is longer\n");
  });

  test.each(["SIGTERM", "SIGINT"] as const)("unmounts cleanly on %s, then dies of it", async (sent) => {
    const path = newMountpoint(sent.toLowerCase());
    const daemon = await startDaemon(path);
    expect(isMounted(path)).toBe(true);
    daemon.child.kill(sent);
    const { signal } = await daemon.exited;
    expect(signal).toBe(sent);
    expect(isMounted(path)).toBe(false);
    expect(readdirSync(path)).toEqual([]);
  });

  test("unmounts when the daemon dies of an uncaught error", async () => {
    const path = newMountpoint("crash");
    const daemon = await startDaemon(path);
    daemon.send("crash");
    const { code } = await daemon.exited;
    expect(code).not.toBe(0);
    expect(daemon.stderr()).toContain("deliberate crash");
    expect(isMounted(path)).toBe(false);
  });

  test("clears the dead mount left by kill -9 when mounting again", async () => {
    const path = newMountpoint("kill9");
    const first = await startDaemon(path);
    first.child.kill("SIGKILL");
    await first.exited;
    expect(errorCode(() => statSync(path))).toBe("ENOTCONN");
    const second = await startDaemon(path);
    expect(await tool("cat", [join(path, "README.md")])).toBe("hello from revision 1\n");
    second.child.kill("SIGTERM");
    await second.exited;
    expect(isMounted(path)).toBe(false);
  });

  test("with noOpen, serves files without open requests and shows the control file read-only", async () => {
    const path = newMountpoint("no-open");
    await startDaemon(path, { noOpen: true });
    expect(await tool("cat", [join(path, "README.md"), join(path, "b", "zeta.d.ts")])).toBe(
      "hello from revision 1\nexport declare const zeta: 1;\n",
    );
    expect((await toolBytes("cat", [join(path, "big.bin")])).equals(bigBytes())).toBe(true);
    expect((await tool("stat", ["-c", "%a", join(path, ".afi", "search")])).trim()).toBe("444");
    expect(errorCode(() => writeFileSync(join(path, ".afi", "search"), "{}"))).toBe("EROFS");
    expect(errorCode(() => writeFileSync(join(path, "README.md"), "x"))).toBe("EROFS");
  });

  test("answers everything about plain files, directories and symlinks from the node table, without a tree call", async () => {
    const path = newMountpoint("table");
    const daemon = await startDaemon(path);
    // Every stat, listing, lookup (also of a missing name), open, read and readlink the tools make.
    const script = `find '${path}' -ls > /dev/null; find '${path}' -type f ! -name broken.txt ! -name search -exec cat {} + > /dev/null; readlink '${path}/link'; stat '${path}/b/nope' 2> /dev/null; true`;
    expect(await tool("sh", ["-c", script])).toBe("b/zeta.d.ts\n");
    daemon.send("calls tools");
    expect(await daemon.waitFor(/^calls tools .*$/m)).toBe("calls tools 0");
  });

  test("with deferTable, as forage mount asks, the table built after mounting answers everything without a tree call", async () => {
    const path = newMountpoint("deferred");
    const daemon = await startDaemon(path, { deferTable: true });
    const script = `find '${path}' -ls > /dev/null; find '${path}' -type f ! -name broken.txt ! -name search -exec cat {} + > /dev/null; readlink '${path}/link'; stat '${path}/b/nope' 2> /dev/null; true`;
    expect(await tool("sh", ["-c", script])).toBe("b/zeta.d.ts\n");
    daemon.send("calls tools");
    expect(await daemon.waitFor(/^calls tools .*$/m)).toBe("calls tools 0");
  });

  test("with readOnly, mounts with the kernel ro flag: reads work and the kernel refuses every write", async () => {
    const path = newMountpoint("read-only");
    await startDaemon(path, { readOnly: true });
    const line = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .find((l) => l.split(" ")[4] === path);
    expect(line!.split(" ")[5]!.split(",")).toContain("ro");
    expect(await tool("cat", [join(path, "README.md"), join(path, "link")])).toBe(
      "hello from revision 1\nexport declare const zeta: 1;\n",
    );
    expect((await toolBytes("cat", [join(path, "big.bin")])).equals(bigBytes())).toBe(true);
    expect(errorCode(() => writeFileSync(join(path, "README.md"), "x"))).toBe("EROFS");
    expect(errorCode(() => writeFileSync(join(path, ".afi", "search"), "{}"))).toBe("EROFS");
  });

  test("answers EIO when a handler throws past the adapter, and keeps serving", async () => {
    const path = newMountpoint("throwing");
    const daemon = await startDaemon(path, { onErrorThrows: true });
    expect(errorCode(() => readFileSync(join(path, "broken.txt")))).toBe("EIO");
    expect(await tool("cat", [join(path, "README.md")])).toBe("hello from revision 1\n");
    expect(daemon.running()).toBe(true);
    expect(daemon.stderr()).toContain("a request handler threw and so did onError");
  });

  test("keeps working after the kernel forgets every inode", async () => {
    try {
      writeFileSync("/proc/sys/vm/drop_caches", "3");
    } catch {
      return; // not allowed here (no root or a read-only /proc/sys): nothing to check
    }
    expect((await tool("find", [mnt])).split("\n").filter(Boolean).length).toBe(13);
    expect(await tool("cat", [join(mnt, "b", "mid", "deep.json")])).toBe('{"deep":true}\n');
    expect((await tool("ls", ["-f", join(mnt, "b")])).split("\n").filter(Boolean)).toEqual([
      ".",
      "..",
      "zeta.d.ts",
      "alpha.d.ts",
      "mid",
    ]);
  });

  test("ends the daemon when unmounted from outside", async () => {
    const path = newMountpoint("external");
    const daemon = await startDaemon(path);
    execFileSync("fusermount3", ["-u", path]);
    expect(await daemon.waitFor(/^closed .*$/m)).toBe("closed external=true");
    expect((await daemon.exited).code).toBe(0);
    expect(isMounted(path)).toBe(false);
  });

  // docs/native.md, "How requests flow": the reader thread answers the node table while the JS
  // thread is busy; requests for JS wait for it, and an unmount or exit answers those still queued.
  test("answers the node table while the JS thread is busy; a request for JS waits for it", async () => {
    const path = newMountpoint("busy");
    const daemon = await startDaemon(path);
    const free = join(work, "busy-free");
    daemon.send(`block ${free}`);
    await daemon.waitFor(/^blocked$/m);
    const control = pendingTool("cat", [join(path, ".afi", "search")]); // its open goes to JS
    expect(await blockedInOpen(control.pid)).toBe(true);
    // Nothing of these is cached yet: every lookup, getattr, open, read and listing reaches the daemon.
    expect((await tool("stat", ["-c", "%s %F", join(path, "b", "mid", "deep.json")])).trim()).toBe("14 regular file");
    expect(await tool("cat", [join(path, "b", "zeta.d.ts"), join(path, "link")])).toBe(
      "export declare const zeta: 1;\nexport declare const zeta: 1;\n",
    );
    expect((await tool("ls", ["-f", join(path, "b")])).split("\n").filter(Boolean)).toHaveLength(5);
    expect(control.finished()).toBe(false);
    expect(daemon.output()).not.toContain("unblocked");
    writeFileSync(free, "");
    expect(await daemon.waitFor(/^unblocked .*$/m)).toBe("unblocked file");
    const { code, stdout } = await control.done;
    expect(code).toBe(0);
    expect(JSON.parse(stdout.split("\n")[0]!)).toMatchObject({ path: "/echo" });
  });

  test.each(["then-unmount", "then-exit"])(
    "%s with a request still queued for JS answers it EIO and leaves no mount",
    async (then) => {
      const path = newMountpoint(`queued-${then}`);
      const daemon = await startDaemon(path);
      const free = join(work, `queued-${then}-free`);
      daemon.send(`block ${free} ${then}`);
      await daemon.waitFor(/^blocked$/m);
      const control = pendingTool("cat", [join(path, ".afi", "search")]);
      expect(await blockedInOpen(control.pid)).toBe(true);
      writeFileSync(free, "");
      const { code, stderr } = await control.done;
      expect(code).not.toBe(0);
      expect(stderr).toMatch(
        /Input\/output error|Transport endpoint is not connected|Software caused connection abort/,
      );
      if (then === "then-unmount") await daemon.waitFor(/^closed external=false$/m);
      else expect((await daemon.exited).code).toBe(0);
      expect(await until(() => !isMounted(path))).toBe(true);
    },
  );

  test("the kernel ending the session ends the reader thread and closes the mount", async () => {
    const path = newMountpoint("external-thread");
    const daemon = await startDaemon(path, { stayOnExternal: true });
    const pid = daemon.child.pid!;
    expect(readerThreads(pid)).toBe(1);
    execFileSync("fusermount3", ["-u", path]);
    expect(await daemon.waitFor(/^closed .*$/m)).toBe("closed external=true");
    expect(await until(() => readerThreads(pid) === 0)).toBe(true);
    expect(daemon.running()).toBe(true);
    expect(isMounted(path)).toBe(false);
  });

  test("a process that exits with a live mount unmounts it without hanging; its own JS thread could use it", async () => {
    const path = newMountpoint("exit-live");
    // The addon alone: no JS exit hook, so the addon's own exit hooks unmount. statfsSync waits
    // on the mount from the JS thread, which the reader thread answers without it.
    const script = `const b = require(${JSON.stringify(addon)});
      b.mount(${JSON.stringify(path)}, "fsname=forage,subtype=forage", {}, {});
      process.stdout.write(String(require("node:fs").statfsSync(${JSON.stringify(path)}).bsize));
      process.exit(0);`;
    const { stdout } = await run(process.execPath, ["-e", script], { timeout: HANG_GUARD_MS });
    expect(stdout).toBe("4096");
    expect(isMounted(path)).toBe(false);
  });

  test("refuses a bad mountpoint with a clear error and leaves no mount", async () => {
    const { mountTree } = await import("../src/fuse/mount.js");
    const tree = {
      stamp: "x",
      stat: () => ({ kind: "directory" as const, size: 0 }),
      list: () => [],
      read: () => new Uint8Array(),
      readlink: () => "",
      openControl: () => {
        throw new Error("no");
      },
    };
    const missing = join(work, "does-not-exist");
    await expect(mountTree(tree, missing, { handleSignals: false })).rejects.toThrow(/does not exist/);
    const file = join(work, "a-file");
    writeFileSync(file, "x");
    await expect(mountTree(tree, file, { handleSignals: false })).rejects.toThrow(/not a directory/);
    const full = newMountpoint("full");
    writeFileSync(join(full, "something"), "x");
    await expect(mountTree(tree, full, { handleSignals: false })).rejects.toThrow(/not empty/);
    await expect(mountTree(tree, mnt, { handleSignals: false })).rejects.toThrow(/already mounted/);
    expect([missing, file, full].some(isMounted)).toBe(false);
  });

  test("refuses a malformed node table with a TypeError, drops its next table and keeps the one it serves", async () => {
    const path = newMountpoint("bad-table");
    // Mounted in this process, but never read from it: nothing here may block on the mount.
    const { binding, session, ended } = bareMount(path);
    try {
      const node = (fields: Partial<Record<string, unknown>> = {}) => ({
        inos: Float64Array.of(1, 2),
        parents: Float64Array.of(1, 1),
        modes: Uint32Array.of(0o040555, 0o100444),
        flags: Uint32Array.of(0, 0),
        firstChild: Uint32Array.of(1, 2),
        childCount: Uint32Array.of(1, 0),
        names: ["", "a.txt"],
        contents: [undefined, new TextEncoder().encode("a\n")],
        entryTimeout: 1,
        attrTimeout: 1,
        negativeTimeout: 1,
        ...fields,
      });
      const load = (fields: Partial<Record<string, unknown>>) => () => {
        const spec = node(fields) as unknown as NodeTableSpec;
        serveWhole(binding, session, spec);
      };
      expect(load({})).not.toThrow();
      // Whatever failed, no next table stays: the next serve has nothing to serve.
      expect(load({ inos: Float64Array.of(1, 1) })).toThrow(/share an inode number/);
      expect(() => binding.serveNextTable(session, node() as unknown as NodeTableSpec)).toThrow(/no next node table/);
      binding.startNextTable(session, node() as unknown as NodeTableSpec);
      expect(() => binding.serveNextTable(session, node() as unknown as NodeTableSpec)).toThrow(/not filled yet/);
      binding.dropNextTable(session);
      expect(() => binding.fillNextTable(session, node() as unknown as NodeTableSpec, 1)).toThrow(/no next node table/);
      expect(load({ modes: Uint32Array.of(0o040555) })).toThrow(TypeError); // wrong length
      expect(load({ inos: Float64Array.of(1, 1) })).toThrow(/share an inode number/);
      expect(load({ inos: Float64Array.of(1, 0.5) })).toThrow(/positive integers/);
      expect(load({ childCount: Uint32Array.of(5, 0) })).toThrow(/children must follow/);
      expect(load({ parents: Float64Array.of(1, 7) })).toThrow(/not in its parent's run/);
      expect(load({ names: ["", "x".repeat(300)] })).not.toThrow(); // FUSE takes names up to 1024 bytes
      expect(load({ names: ["", "x".repeat(1025)] })).toThrow(/longer than 1024 bytes/);
      expect(load({ names: ["", 42] })).toThrow(/must be strings/);
      expect(load({ contents: [undefined, "not bytes"] })).toThrow(/Uint8Arrays/);
      expect(load({ modes: Uint32Array.of(0o100444, 0o100444) })).toThrow(/root directory/);
      expect(load({ modes: Uint32Array.of(0o040555, 0o020666) })).toThrow(/directory, a regular file or a symlink/);
      const twins = {
        inos: Float64Array.of(1, 2, 3),
        parents: Float64Array.of(1, 1, 1),
        modes: Uint32Array.of(0o040555, 0o100444, 0o100444),
        flags: Uint32Array.of(0, 0, 0),
        firstChild: Uint32Array.of(1, 3, 3),
        childCount: Uint32Array.of(2, 0, 0),
        names: ["", "a", "a"],
        contents: [undefined, undefined, undefined],
      };
      expect(load(twins)).toThrow(/share a name/);
      expect(load({ ...twins, names: ["", "a", "b"] })).not.toThrow();
    } finally {
      binding.unmount(session, false);
      await ended;
    }
    // The good table was served until the unmount, and nothing stays mounted.
    expect(isMounted(path)).toBe(false);
  });

  test.each([
    { numbering: "dense", a: 2, d: 3, b: 4 },
    { numbering: "scattered", a: 2 ** 40, d: 7, b: 2 ** 52 },
  ])("finds table nodes by inode number when the numbers are $numbering", async ({ a, d, b }) => {
    const path = newMountpoint("numbering");
    // Served by this process's event loop; only child processes read the mount, asynchronously.
    const { binding, session, ended } = bareMount(path);
    try {
      const bytes = (text: string) => new TextEncoder().encode(text);
      const spec = {
        inos: Float64Array.of(1, a, d, b),
        parents: Float64Array.of(1, 1, 1, d),
        modes: Uint32Array.of(0o040555, 0o100444, 0o040555, 0o100444),
        flags: Uint32Array.of(0, 0, 0, 0),
        firstChild: Uint32Array.of(1, 4, 3, 4),
        childCount: Uint32Array.of(2, 0, 1, 0),
        names: ["", "a.txt", "d", "b.txt"],
        contents: [undefined, bytes("alpha\n"), undefined, bytes("beta\n")],
        entryTimeout: 0,
        attrTimeout: 0,
        negativeTimeout: 0,
      } as unknown as NodeTableSpec;
      serveWhole(binding, session, spec);
      const inode = async (name: string) => Number((await tool("stat", ["-c", "%i", join(path, name)])).trim());
      expect([await inode("a.txt"), await inode("d"), await inode("d/b.txt")]).toEqual([a, d, b]);
      expect(await tool("cat", [join(path, "a.txt"), join(path, "d", "b.txt")])).toBe("alpha\nbeta\n");
      expect(await tool("ls", ["-f", join(path, "d")])).toBe(".\n..\nb.txt\n");
      await expect(tool("stat", [join(path, "d", "a.txt")])).rejects.toThrow(/No such file/);
    } finally {
      binding.unmount(session, false);
      await ended;
    }
    expect(isMounted(path)).toBe(false);
  });

  test("exports the libfuse constants the adapter relies on", () => {
    const binding = createRequire(import.meta.url)(addon) as {
      constants: Record<string, number>;
      libfuseVersion: number;
    };
    expect(binding.constants.SET_ATTR_SIZE).toBe(8);
    expect(binding.libfuseVersion).toBeGreaterThanOrEqual(312);
  });
});

describe("the FUSE binding on a machine without it", () => {
  test("imports without loading the addon, and mounting says what to install", async () => {
    const saved = process.env.FORAGE_FUSE_ADDON;
    process.env.FORAGE_FUSE_ADDON = join(tmpdir(), "no-such-dir", "forage_fuse.node");
    vi.resetModules();
    try {
      const fuse = await import("../src/fuse/index.js");
      const tree = {
        stamp: "x",
        stat: () => ({ kind: "directory" as const, size: 0 }),
        list: () => [],
        read: () => new Uint8Array(),
        readlink: () => "",
        openControl: () => {
          throw new Error("no");
        },
      };
      const error = await fuse.mountTree(tree, tmpdir(), { handleSignals: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(fuse.FuseUnavailableError);
      expect((error as Error).message).toContain("apt-get install fuse3 libfuse3-dev");
      expect((error as Error).message).toContain("npm rebuild @fungi.computer/forage");
      expect(fuse.fuseUnavailableReason()).toContain("not built");
    } finally {
      if (saved === undefined) delete process.env.FORAGE_FUSE_ADDON;
      else process.env.FORAGE_FUSE_ADDON = saved;
      vi.resetModules();
    }
  });
});

/** A tool started in the background: its pid, whether it ended, and how. */
function pendingTool(command: string, args: string[]) {
  let ended = false;
  const child = execFile(command, args, { timeout: HANG_GUARD_MS });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((finish) =>
    child.on("close", (code) => {
      ended = true;
      finish({ code, stdout, stderr });
    }),
  );
  return { pid: child.pid!, finished: () => ended, stdout: () => stdout, done };
}

/** The openat system call's number, as /proc/<pid>/syscall shows it. */
const OPENAT = process.arch === "arm64" ? "56" : "257";

/** Waits until process `pid` sleeps in openat: its open request has reached the daemon. */
function blockedInOpen(pid: number): Promise<boolean> {
  return until(() => {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
      return state === "S" && readFileSync(`/proc/${pid}/syscall`, "utf8").split(" ")[0] === OPENAT;
    } catch {
      return false;
    }
  });
}

/** How many threads of process `pid` are the addon's FUSE readers (named forage-fuse). */
function readerThreads(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).filter((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim() === "forage-fuse";
    } catch {
      return false; // the thread ended while we looked
    }
  }).length;
}

/** The addon mounted at `path` with no JS handlers but onClose: what a test of the addon alone serves from. */
function bareMount(path: string): { binding: NativeBinding; session: NativeSession; ended: Promise<void> } {
  const binding = createRequire(import.meta.url)(addon) as NativeBinding;
  let closed!: () => void;
  const ended = new Promise<void>((done) => (closed = done));
  const session = binding.mount(path, "fsname=forage,subtype=forage", {}, {
    onClose: () => closed(),
  } as unknown as NativeHandlers);
  return { binding, session, ended };
}

/** Starts a next table, fills it a node at a time and serves it: what src/fuse/revision-swap.ts does. */
function serveWhole(binding: NativeBinding, session: NativeSession, spec: NodeTableSpec): void {
  binding.startNextTable(session, spec);
  while (!binding.fillNextTable(session, spec, 1));
  binding.serveNextTable(session, spec);
}
