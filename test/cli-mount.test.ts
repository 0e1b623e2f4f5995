// The forage command with real mounts: docs/cli.md, "Mount options", "Who can read a mount",
// "Daemon mode", "Unmount", "One mount per mountpoint", "Output to a closed pipe" and "Hints after
// mounting". Every case runs the built CLI as its own processes and reads the mount with ls and cat;
// none leaves a mount or a daemon behind.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { permitsUserAllowOther } from "../src/fuse/allow-other.js";
import {
  CLI,
  type Daemon,
  forceUnmount,
  freshMountpoint,
  isMounted,
  mountSkipReason,
  quote,
  removeMountpoint,
  sh,
  spawnDaemon,
  startDaemon,
  stopAllDaemons,
  until,
} from "./helpers/mount-daemon.js";

const skip = mountSkipReason();
if (skip !== undefined) console.log(`CLI mount tests skipped: ${skip}`);
const root = process.getuid?.() === 0;
if (skip === undefined && !root) console.log("CLI tests that read a mount as another user skipped: they need root");
const NOBODY = "setpriv --reuid=65534 --regid=65534 --clear-groups";
/** Tests that read the mount as another user, or mount tmpfs, run as root (as in CI). */
const asRoot = test.skipIf(!root);
const cli = `${quote(process.execPath)} ${quote(CLI)}`;

const mountpoints: string[] = [];
const backgroundPids: number[] = [];
function mountpoint(label: string): string {
  const path = freshMountpoint(label);
  mountpoints.push(path);
  return path;
}

const logFiles: string[] = [];

/**
 * Runs `forage mount --daemon ...` and remembers the daemon it started, to stop it whatever
 * happens, and its log, to remove it. It picks a --log-file beside the mountpoints unless told not to.
 */
function daemonize(args: string, { pickLog = true } = {}): ReturnType<typeof sh> {
  const log = join("/tmp", `forage-cli-test-${process.pid}-${logFiles.length}.log`);
  logFiles.push(log);
  const run = sh(`${cli} mount --daemon ${pickLog ? `--log-file ${log} ` : ""}${args}`);
  const pid = /as pid (\d+)/.exec(run.stdout)?.[1];
  if (pid !== undefined) backgroundPids.push(Number(pid));
  const printed = /log: (\S+)/.exec(run.stdout)?.[1];
  if (printed !== undefined) logFiles.push(printed);
  return run;
}

/** True while `pid` runs; a daemon's parent has exited, so once it ends it may linger as a zombie nobody reaps. */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

afterEach(async () => {
  await stopAllDaemons();
  for (const pid of backgroundPids.splice(0)) {
    if (alive(pid)) process.kill(pid, "SIGTERM");
    if (!(await until(() => !alive(pid), 5_000))) process.kill(pid, "SIGKILL");
  }
  for (const path of mountpoints) forceUnmount(path);
  for (const log of logFiles.splice(0)) rmSync(log, { force: true });
});
afterAll(() => {
  for (const path of mountpoints) removeMountpoint(path);
});

describe.skipIf(skip !== undefined)("mount options through -o", () => {
  asRoot("without allow_other only the user who mounted can read; with it, everyone can", async () => {
    const closed = mountpoint("private");
    await startDaemon(["--example"], closed);
    expect(sh(`cat ${quote(join(closed, "README.md"))}`).status).toBe(0);
    expect(sh(`${NOBODY} cat ${quote(join(closed, "README.md"))}`).stderr).toMatch(/Permission denied/);
    const open = mountpoint("allow-other");
    await startDaemon(["-o", "allow_other", "--example"], open);
    const read = sh(`${NOBODY} cat ${quote(join(open, "computers/local/files/read.d.ts"))}`);
    expect(read.status, read.stderr).toBe(0);
    expect(read.stdout).toContain("computers$local$files$read_Input");
    expect(sh(`${NOBODY} ls ${quote(join(open, "computers/local/files"))}`).stdout).toContain("read.json");
    // Files are 0444 and directories 0555: readable by all, writable by none.
    expect(sh(`stat -c %a ${quote(join(open, "README.md"))} ${quote(join(open, "computers"))}`).stdout).toBe(
      "444\n555\n",
    );
  });

  asRoot(
    "default_permissions lets the kernel refuse a write (EACCES) before the daemon refuses it (EROFS)",
    async () => {
      const plain = mountpoint("no-default-permissions");
      await startDaemon(["-o", "allow_other", "--example"], plain);
      expect(sh(`${NOBODY} sh -c 'echo x > ${join(plain, "README.md")}'`).stderr).toMatch(/Read-only file system/);
      const checked = mountpoint("default-permissions");
      await startDaemon(["-o", "allow_other,default_permissions", "--example"], checked);
      expect(sh(`${NOBODY} cat ${quote(join(checked, "README.md"))}`).status).toBe(0);
      expect(sh(`${NOBODY} sh -c 'echo x > ${join(checked, "README.md")}'`).stderr).toMatch(/Permission denied/);
    },
  );

  asRoot("a user other than root without user_allow_other in /etc/fuse.conf is told exactly that", () => {
    const conf = existsSync("/etc/fuse.conf") ? readFileSync("/etc/fuse.conf", "utf8") : "";
    if (permitsUserAllowOther(conf)) {
      console.log("skipped: /etc/fuse.conf has user_allow_other here, so the refusal cannot be seen");
      return;
    }
    if (sh(`${NOBODY} test -r ${quote(CLI)}`).status !== 0) {
      console.log(
        `skipped: user nobody cannot reach ${cli} (a directory above it is private), so it cannot run forage`,
      );
      return;
    }
    const mnt = mountpoint("nobody");
    chownSync(mnt, 65534, 65534);
    const run = sh(`${NOBODY} ${cli} mount -o allow_other --example ${quote(mnt)}`);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/allow_other needs a line "user_allow_other" in \/etc\/fuse\.conf/);
    expect(isMounted(mnt)).toBe(false);
  });

  // The one test of auto_unmount: through the CLI it covers both the -o option and the library's autoUnmount.
  test("auto_unmount: a daemon killed with SIGKILL leaves no dead mount", async () => {
    const mnt = mountpoint("auto-unmount");
    const daemon = await startDaemon(["-o", "auto_unmount", "--example"], mnt);
    expect(sh(`find ${quote(mnt)}`).status).toBe(0); // directories opened: the liveness probe must still work
    daemon.child.kill("SIGKILL");
    await daemon.exited;
    // fusermount3 notices the death and probes the mount itself, in processes of its own that a busy
    // machine can hold back for tens of seconds (seen at 30 s beside a full test run): the bound is
    // a hang guard within the test's own timeout, not a measure of how fast it should be.
    expect(await until(() => !isMounted(mnt), 100_000)).toBe(true);
    expect(sh(`ls ${quote(mnt)}`).status).toBe(0);
  });

  test("nonempty mounts over files, which the mount hides; without it the refusal names -o nonempty", async () => {
    const mnt = mountpoint("nonempty");
    writeFileSync(join(mnt, "mine.txt"), "mine");
    const refused = sh(`${cli} mount --example ${quote(mnt)}`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/not empty.*use -o nonempty/);
    await startDaemon(["-o", "nonempty", "--example"], mnt);
    const names = sh(`ls ${quote(mnt)}`).stdout;
    expect(names).toContain("README.md");
    expect(names).not.toContain("mine.txt");
  });

  test("-o debug (and -d) print libfuse's trace", async () => {
    const mnt = mountpoint("debug");
    const daemon = await startDaemon(["-o", "debug", "--example"], mnt);
    sh(`ls ${quote(mnt)}`);
    await daemon.waitFor(/unique: \d+/);
  });

  test("-o ro together with subtree= in one list", async () => {
    const mnt = mountpoint("ro-subtree");
    await startDaemon(["-o", "ro", "-o", "subtree=computers.local", "--example"], mnt);
    expect(sh(`ls ${quote(mnt)}`).stdout).toContain("files");
    expect(existsSync(join(mnt, ".afi/search"))).toBe(false);
  });
});

describe.skipIf(skip !== undefined)("the foreground mount and npm start", () => {
  test.each(["example", "with space's"])("--example prints three things to try and how to stop (%s)", async (label) => {
    const mnt = mountpoint(label);
    const daemon = await startDaemon(["--example"], mnt);
    const output = await daemon.waitFor(/stop: .*\n/);
    const text = daemon.output();
    expect(output).toContain(`forage unmount ${quote(mnt).replace(/^'(\/[\w/.-]+)'$/, "$1")}`);
    expect(text).toContain("Ctrl-C");
    const tries = text.split("\n").filter((line) => /^(try:)?\s+(ls|cat) /.test(line));
    expect(tries).toHaveLength(3);
    expect(tries[1]).toContain("README.md");
    expect(tries[2]).toContain(".search/");
    // Each suggestion works as printed.
    for (const line of tries) expect(sh(line.replace(/^try:/, "")).status, line).toBe(0);
  });

  // docs/cli.md, "Hints after mounting": any mount prints a sentence to brief an agent with: how to search it, and its README.
  test("any mount prints the agents' brief, with the mount's absolute path, a search that works as told, and its README", async () => {
    const mnt = mountpoint("agents brief");
    const daemon = await startDaemon([join(process.cwd(), "test/fixtures/sources/catalog.yaml")], mnt);
    await daemon.waitFor(/stop: .*\n/);
    const brief = /^agents: "(.*)"$/m.exec(daemon.output())?.[1];
    expect(brief).toBe(
      `The tool catalog is the Forage mount at ${mnt}: start with one call that reads ${mnt}/README.md and, for each need, ${mnt}/.search/<need, in an API's words>/@index.txt (its best tools, four at most).`,
    );
    const digest = readFileSync(join(mnt, ".search", "adjust stock", "@index.txt"), "utf8");
    expect(digest).toMatch(/^# search "adjust stock": .*\ninventory\.items\.adjust\(/);
    expect(readFileSync(join(mnt, "README.md"), "utf8")).toMatch(/^# Forage catalog\n/);
  });

  // docs/cli.md, "Hints after mounting": the suggestions are found in the mounted tree.
  test.each([
    ["subtree=computers", "local/files"],
    ["subtree=mail", "mail-"],
    [`bound=${join(process.cwd(), "test/fixtures/sources/bound.txt")}`, "bound-"],
  ])("with -o %s, each suggestion names a path the mount has", async (option, label) => {
    const mnt = mountpoint(label.replace("/", "-"));
    const daemon = await startDaemon(["-o", option, "--example"], mnt);
    await daemon.waitFor(/stop: .*\n/);
    const tries = daemon
      .output()
      .split("\n")
      .filter((line) => /^(try:)?\s+(ls|cat) /.test(line));
    expect(tries).toHaveLength(3);
    for (const line of tries) expect(sh(line.replace(/^try:/, "")).status, line).toBe(0);
    if (option === "subtree=computers") expect(tries[0]).toMatch(/\/local\/files$/);
  });

  test("package.json's start script runs the example mount in the foreground", () => {
    const start = JSON.parse(readFileSync("package.json", "utf8")).scripts.start as string;
    expect(start).toContain("mount --example ./mnt");
    expect(start).not.toContain("--daemon");
  });
});

describe.skipIf(skip !== undefined)("daemon mode", () => {
  test("--daemon returns once mounted, prints pid and log, and keeps serving until forage unmount", async () => {
    const mnt = mountpoint("daemon");
    const log = join(mnt, "..", `${mnt.split("/").pop()}.log`);
    const run = daemonize(`--log-file ${quote(log)} --example ${quote(mnt)}`, { pickLog: false });
    try {
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^forage: mounted 40 operations at /);
      expect(run.stdout).toContain(`log: ${log}`);
      const pid = Number(/as pid (\d+)/.exec(run.stdout)?.[1]);
      expect(alive(pid)).toBe(true);
      expect(sh(`cat ${quote(join(mnt, "README.md"))}`).stdout).toContain("Forage catalog");
      expect(readFileSync(log, "utf8")).toMatch(/forage: mounted 40 operations/);
      const unmount = sh(`${cli} unmount ${quote(mnt)}`);
      expect(unmount.status, unmount.stderr).toBe(0);
      expect(unmount.stdout).toContain(`unmounted ${mnt} (served by pid ${pid})`);
      expect(isMounted(mnt)).toBe(false);
      // The server lets go of the mountpoint's lock as it exits; the process itself may take a moment longer.
      expect(await until(() => !alive(pid))).toBe(true);
      expect(readFileSync(log, "utf8")).toMatch(/unmounted from outside/);
    } finally {
      rmSync(log, { force: true });
    }
  });

  // docs/cli.md, "Output to a closed pipe": `true` has gone before forage writes; `head -1` goes after one line.
  test.each(["head -1", "true"])("--daemon piped to %s exits 0 without a trace and keeps serving", (reader) => {
    const mnt = mountpoint("daemon-pipe");
    const log = join("/tmp", `forage-cli-test-${process.pid}-pipe.log`);
    logFiles.push(log);
    const run = sh(
      `${cli} mount --daemon --log-file ${log} --example ${quote(mnt)} | ${reader}; echo "exit \${PIPESTATUS[0]}"`,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(reader === "true" ? /^exit 0\n$/ : /^forage: mounted 40 operations at .*\nexit 0\n$/);
    expect(sh(`cat ${quote(join(mnt, "README.md"))}`).stdout).toContain("Forage catalog");
    expect(sh(`${cli} unmount ${quote(mnt)}`).status).toBe(0);
  });

  test("the default log lives in a private runtime directory, named after the mountpoint", () => {
    const mnt = mountpoint("daemon-log");
    const run = daemonize(`--example ${quote(mnt)}`, { pickLog: false });
    expect(run.status, run.stderr).toBe(0);
    const log = /log: (\S+)/.exec(run.stdout)?.[1] as string;
    const base = process.env.XDG_RUNTIME_DIR
      ? join(process.env.XDG_RUNTIME_DIR, "forage")
      : `/tmp/forage-${process.getuid?.()}`;
    expect(log.startsWith(`${base}/${mnt.split("/").pop()}-`)).toBe(true);
    expect(sh(`stat -c %a ${quote(base)}`).stdout.trim()).toBe("700");
    expect(readFileSync(log, "utf8")).toContain(`at ${mnt}`);
    expect(sh(`${cli} unmount ${quote(mnt)}`).status).toBe(0);
  });

  test.each([
    ["an unreadable source", "/nonexistent/ops.yaml", /cannot read source .*ENOENT/, 1],
    ["a usage mistake", "-o bogus --example", /unknown or incomplete mount option/, 2],
  ])("%s before the mount is ready reaches the caller with its exit code", (_what, args, message, code) => {
    const mnt = mountpoint("daemon-fails");
    const run = daemonize(`${args} ${quote(mnt)}`);
    expect(run.status).toBe(code);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(isMounted(mnt)).toBe(false);
  });
});

describe.skipIf(skip !== undefined)("forage unmount", () => {
  test("unmounts a foreground mount from another process, which then exits 0", async () => {
    const mnt = mountpoint("unmount");
    const daemon = await startDaemon(["--example"], mnt);
    const run = sh(`${cli} unmount ${quote(mnt)}`);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`(served by pid ${daemon.child.pid})`);
    expect((await daemon.exited).code).toBe(0);
    expect(isMounted(mnt)).toBe(false);
  });

  test("clears a dead mount (Transport endpoint is not connected)", async () => {
    const mnt = mountpoint("unmount-dead");
    const daemon = await startDaemon(["--example"], mnt);
    daemon.child.kill("SIGKILL");
    await daemon.exited;
    expect(sh(`ls ${quote(mnt)}`).stderr).toMatch(/Transport endpoint is not connected/);
    const run = sh(`${cli} unmount ${quote(mnt)}`);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/cleared the dead mount/);
    expect(isMounted(mnt)).toBe(false);
  });

  test("nothing mounted is exit 1", () => {
    const nothing = sh(`${cli} unmount ${quote(mountpoint("unmount-nothing"))}`);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toMatch(/nothing is mounted at/);
  });

  asRoot("a mount that is not forage's is exit 1 and stays mounted", () => {
    const mnt = mountpoint("unmount-tmpfs");
    expect(sh(`mount -t tmpfs tmpfs ${quote(mnt)}`).status).toBe(0);
    try {
      const other = sh(`${cli} unmount ${quote(mnt)}`);
      expect(other.status).toBe(1);
      expect(other.stderr).toMatch(/is a tmpfs mount, not forage's/);
      expect(isMounted(mnt)).toBe(true);
    } finally {
      sh(`umount ${quote(mnt)}`);
    }
  });
});

describe.skipIf(skip !== undefined)("one mount per mountpoint", () => {
  /** Starts `forage mount --example <mnt>` without waiting for it to mount. */
  const launch = (mnt: string): Daemon => spawnDaemon([CLI, "mount", "--example", mnt], mnt);

  test("two forage mounts started at the same moment: one serves, the other fails naming it", async () => {
    const mnt = mountpoint("race");
    const both = [launch(mnt), launch(mnt)];
    try {
      const loser = await Promise.race(both.map(async (run) => ({ run, code: (await run.exited).code })));
      const winner = both.find((run) => run !== loser.run) as (typeof both)[number];
      expect(loser.code).toBe(1);
      expect(loser.run.output()).toMatch(
        new RegExp(`mountpoint ${mnt} is (already mounted by forage \\(pid ${winner.child.pid}\\)|being mounted)`),
      );
      expect(await until(() => winner.output().includes("forage: mounted"))).toBe(true);
      const mounts = readFileSync("/proc/self/mountinfo", "utf8")
        .split("\n")
        .filter((line) => line.split(" ")[4] === mnt);
      expect(mounts).toHaveLength(1);
      // It unmounts, then dies of the signal as a process does that does not catch it.
      winner.child.kill("SIGTERM");
      expect((await winner.exited).signal).toBe("SIGTERM");
      // The lock goes with the process: the next mount succeeds.
      await startDaemon(["--example"], mnt);
    } finally {
      for (const run of both) run.child.kill("SIGKILL");
    }
  });

  test("a daemon holds the mountpoint too, and a second --daemon fails with exit 1", () => {
    const mnt = mountpoint("daemon-twice");
    const first = daemonize(`--example ${quote(mnt)}`);
    expect(first.status, first.stderr).toBe(0);
    const second = daemonize(`--example ${quote(mnt)}`);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/already mounted by forage \(pid \d+\); unmount it first: forage unmount/);
    expect(spawnSync(process.execPath, [CLI, "unmount", mnt]).status).toBe(0);
  });
});
