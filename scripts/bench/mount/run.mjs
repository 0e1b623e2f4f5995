#!/usr/bin/env node
// Mount benchmark (docs/native.md, "The node table: most requests never reach JS", and BENCHMARKS.md).
//
// On the same tree, in the same run, it compares:
//   forage         `forage mount <source> <mnt>` (the CLI, default options: read-write, so the
//                  /.afi/search control file works, and open stays on);
//   forage ro      `forage mount -o ro <source> <mnt>`: the kernel's ro flag and no-open, no
//                  control file;
//   cfs            scripts/bench/cfs (plain C libfuse3, in memory, -s single-threaded) serving
//                  the files `forage export` wrote, with forage's default cache settings;
//   cfs ro         the same with `-o ro --no-open`, the settings of `forage mount -o ro`;
//   tmpfs          the files `forage export` wrote, on tmpfs.
// The source is the example catalog scaled to N operations (scaledExampleOperations).
//
// Workloads, each run as a separate shell process with the tree's root as cwd:
//   find      find . | wc -l
//   cat       find . -type f ! -path ./.afi/search -print0 | xargs -0 cat > /dev/null
//   grep -r   grep -r --exclude=search email . | wc -l
//   stat ×3   perl stat-files.pl <list> 3: stat() of every exported file, 3 passes, in one process
// The control file /.afi/search is left out of cat and grep (--exclude=search: no other file
// has that name). /.search is a virtual directory with an empty listing.
//
// Cold: a fresh mount (a new daemon process) for every sample. tmpfs cannot be made cold
// (its pages and dentries are the data): for it, "cold" drops the page, dentry and inode
// caches (sync; echo 3 > /proc/sys/vm/drop_caches) when permitted, then re-reads the tools
// and the daemons' code so that no disk read is timed. Warm: the same command immediately
// repeated on the same mount (2nd run); "3rd run" is one more repetition.
//
//   node scripts/bench/mount/run.mjs [sizes]          (default sizes: 1000,10000)
//   BENCH_REPS=5                                       cold mounts per workload, system and size
//   BENCH_SYSTEMS=tmpfs,cfs,cfs-ro,forage,forage-ro    which systems to run
//   BENCH_CPUS=0                                       pin every daemon and workload (taskset -c)
//
// Needs Linux, /dev/fuse, fusermount3, perl, a built dist/ and addon (node scripts/bootstrap.mjs)
// and, as root, a tmpfs mount (otherwise /dev/shm is used). Builds scripts/bench/cfs when missing.
// Progress goes to stderr, the markdown report to stdout, the raw figures to
// scripts/bench/mount/.tmp/results-<sizes>[-cpu<list>].json. No mount is left behind: every mount is
// removed with fusermount3 -u -z (tmpfs with umount -l) on exit, on errors and on SIGINT/SIGTERM.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, release, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMs, formatRatio, max, median, min } from "../stats.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const projectRoot = resolve(here, "../../..");
const cli = join(projectRoot, "dist/cli/main.js");
const addon = join(projectRoot, "native/build/Release/forage_fuse.node");
const cfsBinary = join(projectRoot, "scripts/bench/cfs/build/cfs");
const tmpInProject = join(here, ".tmp");
const statScript = join(here, "stat-files.pl");

const sizes = (process.argv[2] ?? "1000,10000").split(",").map(Number);
const reps = Number(process.env.BENCH_REPS ?? 5);
const systemNames = (process.env.BENCH_SYSTEMS ?? "tmpfs,cfs,cfs-ro,forage,forage-ro").split(",");
/** Optional CPU list (taskset -c) for every daemon and workload, e.g. "0": one CPU, no cross-CPU wakeups. */
const pinnedCpus = process.env.BENCH_CPUS;
const pinned = (command, args) => (pinnedCpus ? ["taskset", ["-c", pinnedCpus, command, ...args]] : [command, args]);
const GREP_WORD = "email";
const STAT_PASSES = 3;
const MOUNT_TIMEOUT_MS = 60_000;

const log = (line) => process.stderr.write(`[bench/mount] ${line}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// ---- Cleanup: no mount may outlive this process ---------------------------------------------

const children = new Set();
const fuseMountpoints = new Set();
let tmpfsMount;
let workDir;

function mountedPaths() {
  return readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[1])
    .filter(Boolean);
}
const isMounted = (path) => mountedPaths().includes(path);

function cleanupSync() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  for (const path of fuseMountpoints)
    if (isMounted(path)) spawnSync("fusermount3", ["-u", "-z", path], { stdio: "ignore" });
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
  if (tmpfsMount && isMounted(tmpfsMount)) spawnSync("umount", ["-l", tmpfsMount], { stdio: "ignore" });
  tmpfsMount = undefined;
  if (workDir && !mountedPaths().some((path) => path.startsWith(`${workDir}/`)))
    rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}
process.on("exit", cleanupSync);
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
]) {
  process.on(signal, () => {
    log(`${signal}: unmounting and exiting`);
    cleanupSync();
    process.exit(code);
  });
}

// ---- Preflight ---------------------------------------------------------------------------------

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

async function preflight() {
  const missing = [];
  if (process.platform !== "linux") missing.push("Linux");
  if (!existsSync("/dev/fuse")) missing.push("/dev/fuse");
  for (const tool of ["fusermount3", "perl", "find", "xargs", "grep", "md5sum", ...(pinnedCpus ? ["taskset"] : [])])
    if (!onPath(tool)) missing.push(tool);
  if (!existsSync(cli)) missing.push(`${cli} (run node scripts/bootstrap.mjs)`);
  // Another build may be replacing the addon right now: give it a moment.
  for (let waited = 0; !existsSync(addon) && waited < 30_000; waited += 500) await sleep(500);
  if (!existsSync(addon)) missing.push(`${addon} (run node scripts/bootstrap.mjs)`);
  if (missing.length > 0) throw new Error(`cannot run: missing ${missing.join(", ")}`);
  if (!existsSync(cfsBinary)) {
    log("building scripts/bench/cfs");
    const built = spawnSync(join(projectRoot, "scripts/bench/cfs/build.sh"), {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (built.status !== 0) throw new Error("scripts/bench/cfs/build.sh failed");
  }
}

// ---- Processes ---------------------------------------------------------------------------------

/** Runs a shell command with cwd; resolves to { ms, stdout }. Any stderr output is a failure. */
function runTimed(command, cwd) {
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    let exitAt = 0;
    const start = performance.now();
    const child = spawn(...pinned("sh", ["-c", command]), { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", () => (exitAt = performance.now()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 || stderr !== "")
        reject(new Error(`\`${command}\` in ${cwd} failed (exit ${code}): ${stderr.slice(0, 500)}`));
      else resolvePromise({ ms: exitAt - start, stdout: stdout.trim() });
    });
  });
}

function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
}

// ---- Systems -----------------------------------------------------------------------------------

const SYSTEMS = {
  tmpfs: { label: "tmpfs" },
  cfs: { label: "C (cfs -s)", command: (size) => [cfsBinary, [size.tree, mountpointOf("cfs"), "-f", "-s"]] },
  // The kernel ro flag stops the kernel from invalidating atime after each readdir and read (so a
  // repeated run sends no GETATTR); no-open keeps open and release away from the daemon.
  "cfs-ro": {
    label: "C ro (cfs -s -o ro --no-open)",
    command: (size) => [cfsBinary, [size.tree, mountpointOf("cfs-ro"), "--no-open", "-f", "-s", "-o", "ro"]],
  },
  forage: {
    label: "forage",
    command: (size) => [process.execPath, [cli, "mount", size.source, mountpointOf("forage")]],
  },
  "forage-ro": {
    label: "forage -o ro",
    command: (size) => [process.execPath, [cli, "mount", "-o", "ro", size.source, mountpointOf("forage-ro")]],
  },
};
const mountpointOf = (system) => join(workDir, `mnt-${system}`);

/**
 * Starts a daemon (startOnce). Others may rebuild the addon or dist/ while this runs (the addon
 * is missing for a moment then): such a failed start is retried once the files are back, and the
 * report says that the build changed.
 */
async function startDaemon(system, size) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(system, size);
    } catch (error) {
      const transient = /not built|ERR_MODULE_NOT_FOUND|Cannot find module|SyntaxError/.test(String(error));
      if (!transient || attempt === 5) throw error;
      log(
        `${system} failed to start (attempt ${attempt}), probably a concurrent rebuild; retrying: ${String(error).split("\n")[0]}`,
      );
      for (let waited = 0; !existsSync(addon) && waited < 60_000; waited += 500) await sleep(500);
      await sleep(3_000);
    }
  }
}

/** Starts a daemon and waits until a known file stats; returns { child, root, usableMs, output() }. */
async function startOnce(system, size) {
  const mountpoint = mountpointOf(system);
  if (isMounted(mountpoint)) throw new Error(`${mountpoint} is already mounted`);
  const [command, args] = pinned(...SYSTEMS[system].command(size)); // taskset execs: the pid stays the daemon's
  const probe = join(mountpoint, "README.md");
  const start = performance.now();
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  fuseMountpoints.add(mountpoint);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      children.delete(child);
      throw new Error(`${system} exited before mounting: ${output}`);
    }
    try {
      await stat(probe);
      break;
    } catch {
      // not mounted yet
    }
    if (performance.now() - start > MOUNT_TIMEOUT_MS)
      throw new Error(`${system} did not mount within ${MOUNT_TIMEOUT_MS} ms: ${output}`);
    await sleep(1);
  }
  return { system, child, root: mountpoint, usableMs: performance.now() - start, output: () => output };
}

async function stopDaemon(daemon) {
  const { child, root } = daemon;
  child.kill("SIGTERM");
  if (!(await waitForExit(child, 5_000))) {
    log(`${daemon.system} did not exit on SIGTERM; forcing`);
    spawnSync("fusermount3", ["-u", "-z", root], { stdio: "ignore" });
    child.kill("SIGKILL");
    await waitForExit(child, 5_000);
  }
  if (isMounted(root)) spawnSync("fusermount3", ["-u", "-z", root], { stdio: "ignore" });
  children.delete(child);
  if (isMounted(root)) throw new Error(`${root} is still mounted`);
}

let dropCachesPermitted = true;
/** Makes tmpfs as cold as it gets: drops the page, dentry and inode caches, then re-reads tools and code. */
function coolDown() {
  if (dropCachesPermitted) {
    spawnSync("sync");
    try {
      writeFileSync("/proc/sys/vm/drop_caches", "3");
    } catch {
      dropCachesPermitted = false;
      log("cannot write /proc/sys/vm/drop_caches: tmpfs 'cold' runs are not cold");
    }
  }
  // Page the tools and the daemons' code back in, so that no timed run (and no time-to-mount) reads the disk.
  spawnSync(
    "sh",
    [
      "-c",
      "find --version; xargs --version; cat --version; grep --version; wc --version; md5sum --version; perl -e 1; sort --version",
    ],
    { stdio: "ignore" },
  );
  spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(join(projectRoot, "dist/index.js"))}); await import(${JSON.stringify(join(projectRoot, "dist/cli/mount-command.js"))});`,
    ],
    { stdio: "ignore" },
  );
  spawnSync("cat", [addon, cfsBinary], { stdio: "ignore" });
}

// ---- Workloads ---------------------------------------------------------------------------------

function workloadsFor(size) {
  return [
    { name: "find", command: "find . | wc -l" },
    { name: "cat", command: "find . -type f ! -path ./.afi/search -print0 | xargs -0 cat > /dev/null" },
    { name: "grep -r", command: `grep -r --exclude=search ${GREP_WORD} . | wc -l` },
    { name: `stat ×${STAT_PASSES}`, command: `perl ${statScript} ${size.fileList} ${STAT_PASSES}` },
  ];
}

/** What a workload's output must be on `system`, given tmpfs's: the mount has /.search (and, read-write, /.afi/search) on top. */
function expectedOutput(system, workload, tmpfsOutput) {
  if (workload.name === "find" && system === "forage") return String(Number(tmpfsOutput) + 2);
  if (workload.name === "find" && system === "forage-ro") return String(Number(tmpfsOutput) + 1);
  return tmpfsOutput;
}

// ---- Formatting --------------------------------------------------------------------------------

const mb = (kb) => (kb / 1024).toFixed(0);

/** When the addon and dist/ were last built: compared before and after the run. */
function buildIdentity() {
  return [addon, join(projectRoot, "dist/.build-stamp")]
    .map((path) => {
      try {
        return statSync(path).mtimeMs;
      } catch {
        return 0;
      }
    })
    .join(",");
}

/** CPU time counters of the whole machine (all tenants), from /proc/stat. */
function cpuTimes() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const values = fields.map(Number);
  const idle = values[3] + values[4];
  return { idle, total: values.reduce((a, b) => a + b, 0) };
}

// ---- The run -----------------------------------------------------------------------------------

async function prepareSize(operations, tmpfsRoot) {
  mkdirSync(tmpInProject, { recursive: true });
  const source = join(tmpInProject, `source-${operations}.mjs`);
  writeFileSync(
    source,
    `// Written by scripts/bench/mount/run.mjs: the example catalog scaled to ${operations} operations.\n` +
      `import { scaledExampleOperations } from "../../../../dist/index.js";\n` +
      `export const operations = scaledExampleOperations(${operations});\n`,
  );
  const tree = join(tmpfsRoot, `tree-${operations}`);
  rmSync(tree, { recursive: true, force: true });
  const exported = await runTimed(
    `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} export ${JSON.stringify(source)} ${JSON.stringify(tree)}`,
    projectRoot,
  );
  const fileList = join(workDir, `files-${operations}`);
  const files = spawnSync("find", [".", "-type", "f", "-print0"], { cwd: tree, maxBuffer: 1 << 30 }).stdout;
  writeFileSync(fileList, files);
  const count = (type) =>
    Number(spawnSync("sh", ["-c", `find . -type ${type} | wc -l`], { cwd: tree, encoding: "utf8" }).stdout.trim());
  const bytes = Number(
    spawnSync("sh", ["-c", "find . -type f -printf '%s\\n' | awk '{ s += $1 } END { print s }'"], {
      cwd: tree,
      encoding: "utf8",
    }).stdout.trim(),
  );
  const size = {
    operations,
    source,
    tree,
    fileList,
    files: count("f"),
    directories: count("d"),
    bytes,
    exportMs: exported.ms,
  };
  log(
    `${operations} operations: exported ${size.files} files, ${size.directories} directories, ${(bytes / 1e6).toFixed(1)} MB in ${formatMs(exported.ms)} ms`,
  );
  return size;
}

async function benchSize(size) {
  const workloads = workloadsFor(size);
  const samples = {};
  const usable = {};
  const outputs = {};
  for (const system of systemNames) {
    samples[system] = Object.fromEntries(workloads.map((w) => [w.name, { cold: [], warm: [], third: [] }]));
    usable[system] = [];
    outputs[system] = Object.fromEntries(workloads.map((w) => [w.name, new Set()]));
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const [index, workload] of workloads.entries()) {
      // Rotate the order so that no system always runs right after another.
      const shift = (rep + index) % systemNames.length;
      const order = [...systemNames.slice(shift), ...systemNames.slice(0, shift)];
      for (const system of order) {
        let daemon;
        let root = size.tree;
        if (system === "tmpfs") coolDown();
        else {
          daemon = await startDaemon(system, size);
          usable[system].push(daemon.usableMs);
          root = daemon.root;
        }
        try {
          const runs = [];
          for (let run = 0; run < 3; run++) runs.push(await runTimed(workload.command, root));
          const bucket = samples[system][workload.name];
          bucket.cold.push(runs[0].ms);
          bucket.warm.push(runs[1].ms);
          bucket.third.push(runs[2].ms);
          for (const run of runs) outputs[system][workload.name].add(run.stdout);
        } finally {
          if (daemon) await stopDaemon(daemon);
        }
      }
      log(
        `${size.operations} ops, rep ${rep + 1}/${reps}, ${workload.name}: ${systemNames.map((s) => `${s} ${formatMs(samples[s][workload.name].cold.at(-1))}/${formatMs(samples[s][workload.name].warm.at(-1))} ms`).join(", ")}`,
      );
    }
  }
  const mismatches = [];
  if (outputs.tmpfs) {
    for (const workload of workloads) {
      const reference = [...outputs.tmpfs[workload.name]];
      if (reference.length !== 1)
        mismatches.push(`tmpfs gave several outputs for ${workload.name}: ${reference.join(" | ")}`);
      for (const system of systemNames) {
        const got = [...outputs[system][workload.name]];
        const want = expectedOutput(system, workload, reference[0]);
        if (got.length !== 1 || got[0] !== want)
          mismatches.push(`${system} ${workload.name}: output ${got.join(" | ")}, expected ${want}`);
      }
    }
  }
  return { workloads: workloads.map((w) => ({ name: w.name, command: w.command })), samples, usable, mismatches };
}

/** One more mount per FUSE system: RSS idle and after every workload (cold, then warm), and a content check. */
async function memoryAndContent(size) {
  // README.md and .afi/manifest.json say what each transport offers (a mount has ranked search and,
  // read-write, the control file; the export has neither), so they differ by design: every other
  // file must be byte-identical to what `forage export` wrote.
  const checksum =
    "find . -type f ! -path ./.afi/search ! -path ./README.md ! -path ./.afi/manifest.json -print0 | LC_ALL=C sort -z | xargs -0 cat | md5sum; find . -type f ! -path ./.afi/search | LC_ALL=C sort | md5sum";
  const reference = (await runTimed(checksum, size.tree)).stdout;
  const result = {};
  for (const system of systemNames.filter((s) => s !== "tmpfs")) {
    const daemon = await startDaemon(system, size);
    try {
      await sleep(200);
      const idle = memoryOf(daemon.child.pid);
      for (const workload of workloadsFor(size)) {
        await runTimed(workload.command, daemon.root);
        await runTimed(workload.command, daemon.root);
      }
      const after = memoryOf(daemon.child.pid);
      const content = (await runTimed(checksum, daemon.root)).stdout;
      result[system] = { idle, after, sameContent: content === reference };
      log(
        `${size.operations} ops, ${system}: RSS idle ${mb(idle.rssKb)} MB, after workloads ${mb(after.rssKb)} MB (peak ${mb(after.hwmKb)} MB); content ${content === reference ? "identical to the export" : "DIFFERS from the export"}`,
      );
    } finally {
      await stopDaemon(daemon);
    }
  }
  return result;
}

function report(environment, results) {
  const lines = [];
  const out = (line = "") => lines.push(line);
  const has = (system) => systemNames.includes(system);
  out(`Run: \`${environment.command}\` (${environment.date}).`);
  out(
    `Machine: ${environment.cpu}, ${environment.cpus} CPUs, Linux ${environment.kernel}, Node ${process.version}; load average ${environment.loadBefore} before, ${environment.loadAfter} after; ` +
      `the machine's CPUs were ${environment.machineBusyPercent.toFixed(0)}% busy over the run (/proc/stat, this run included). ` +
      `${pinnedCpus ? `Every daemon and workload pinned to CPU ${pinnedCpus} (taskset -c). ` : "No CPU pinning. "}` +
      `${reps} cold mount${reps === 1 ? "" : "s"} per workload, system and size; medians. tmpfs "cold": ${dropCachesPermitted ? "caches dropped before each run (echo 3 > /proc/sys/vm/drop_caches)" : "drop_caches not permitted, so not cold"}.`,
  );
  if (environment.buildChanged)
    out("**The addon or dist/ was rebuilt (by someone else) during this run**: the figures may mix two builds.");
  for (const { size, bench, memory } of results) {
    const m = (system, workload, phase) => (has(system) ? median(bench.samples[system][workload][phase]) : undefined);
    out();
    out(
      `#### ${size.operations.toLocaleString("en-US")} operations: ${size.files.toLocaleString("en-US")} files, ${size.directories.toLocaleString("en-US")} directories, ${(size.bytes / 1e6).toFixed(1)} MB`,
    );
    out();
    const shown = ["tmpfs", "cfs", "cfs-ro", "forage", "forage-ro"].filter(has);
    const ratio = (phase, name, a, b) => formatRatio(m(a, name, phase), m(b, name, phase));
    const target = (phase, name, a, b, limit) => {
      const [x, y] = [m(a, name, phase), m(b, name, phase)];
      return x === undefined || y === undefined ? "–" : `${formatRatio(x, y)} ${x / y <= limit ? "✓" : "✗"}`;
    };
    const tables = [
      [
        "cold",
        "Cold (fresh mount; ms, median):",
        [
          ["forage / C (target ≤ 1.15×)", (name) => target("cold", name, "forage", "cfs", 1.15)],
          ["forage ro / C ro (target ≤ 1.15×)", (name) => target("cold", name, "forage-ro", "cfs-ro", 1.15)],
          ["forage / tmpfs", (name) => ratio("cold", name, "forage", "tmpfs")],
          ["C / tmpfs", (name) => ratio("cold", name, "cfs", "tmpfs")],
        ],
      ],
      ...[
        ["warm", "Warm (the same command immediately repeated, on the same mount: 2nd run; ms, median):"],
        ["third", "3rd run (repeated once more; ms, median):"],
      ].map(([phase, title]) => [
        phase,
        title,
        [
          ["forage / tmpfs (target ≤ 1.25×)", (name) => target(phase, name, "forage", "tmpfs", 1.25)],
          ["forage ro / tmpfs (target ≤ 1.25×)", (name) => target(phase, name, "forage-ro", "tmpfs", 1.25)],
          ["forage / C", (name) => ratio(phase, name, "forage", "cfs")],
          ["C / tmpfs", (name) => ratio(phase, name, "cfs", "tmpfs")],
          ["C ro / tmpfs", (name) => ratio(phase, name, "cfs-ro", "tmpfs")],
        ],
      ]),
    ];
    for (const [phase, title, ratios] of tables) {
      if (phase !== "cold") out();
      out(title);
      out();
      out(
        `| workload | ${shown.map((system) => SYSTEMS[system].label).join(" | ")} | ${ratios.map(([label]) => label).join(" | ")} |`,
      );
      out(`|---|${[...shown, ...ratios].map(() => "---:").join("|")}|`);
      for (const { name } of bench.workloads) {
        out(
          `| ${name} | ${shown.map((system) => formatMs(m(system, name, phase))).join(" | ")} | ${ratios.map(([, cell]) => cell(name)).join(" | ")} |`,
        );
      }
    }
    out();
    out(
      "Time from daemon start to the first successful stat of /README.md (ms; median, min–max over every cold mount), and daemon memory " +
        "(VmRSS idle, VmRSS and VmHWM after every workload ran cold then warm on one mount):",
    );
    out();
    out(
      "| daemon | mount to usable | samples | RSS idle (MB) | RSS after workloads (MB) | peak RSS, VmHWM (MB) | content = export |",
    );
    out("|---|---:|---:|---:|---:|---:|---|");
    for (const system of systemNames.filter((s) => s !== "tmpfs")) {
      const times = bench.usable[system];
      const mem = memory[system];
      out(
        `| ${SYSTEMS[system].label} | ${formatMs(median(times))} (${formatMs(min(times))}–${formatMs(max(times))}) | ${times.length} | ${mb(mem.idle.rssKb)} | ${mb(mem.after.rssKb)} | ${mb(mem.after.hwmKb)} | ${mem.sameContent ? "yes" : "NO"} |`,
      );
    }
    out();
    const spreads = [];
    for (const system of shown)
      for (const { name } of bench.workloads)
        for (const phase of ["cold", "warm", "third"]) {
          const values = bench.samples[system][name][phase];
          spreads.push({
            spread: max(values) / min(values),
            where: `${SYSTEMS[system].label}, ${name}, ${phase === "third" ? "3rd run" : phase}`,
          });
        }
    spreads.sort((a, b) => a.spread - b.spread);
    const worst = spreads.at(-1);
    out(
      `Noise: max/min of the ${reps} samples behind a cell is ${median(spreads.map((s) => s.spread)).toFixed(2)} for the median cell, ${worst.spread.toFixed(2)} at worst (${worst.where}). \`forage export\` of this tree to tmpfs took ${formatMs(size.exportMs)} ms.`,
    );
    if (bench.mismatches.length > 0) {
      out();
      out(`Output mismatches: ${bench.mismatches.join("; ")}`);
    }
  }
  out();
  out("Workloads (run by `sh -c` in the tree's root):");
  out();
  for (const workload of results[0].bench.workloads) {
    const command = workload.command
      .replace(statScript, "scripts/bench/mount/stat-files.pl")
      .replace(/\S*\/files-\d+/, "<list of the exported files>");
    out(`- ${workload.name}: \`${command}\``);
  }
  return lines.join("\n");
}

async function main() {
  await preflight();
  for (const system of systemNames)
    if (!SYSTEMS[system]) throw new Error(`unknown system ${system}; known: ${Object.keys(SYSTEMS).join(", ")}`);
  workDir = mkdtempSync(join(tmpdir(), "forage-bench-mount-"));
  for (const system of Object.keys(SYSTEMS)) mkdirSync(mountpointOf(system));
  let tmpfsRoot = join(workDir, "tmpfs");
  mkdirSync(tmpfsRoot);
  if (
    process.getuid?.() === 0 &&
    spawnSync("mount", ["-t", "tmpfs", "-o", "size=2g,mode=0755", "forage-bench", tmpfsRoot], { stdio: "ignore" })
      .status === 0
  ) {
    tmpfsMount = tmpfsRoot;
    log(`tmpfs mounted at ${tmpfsRoot}`);
  } else {
    tmpfsRoot = mkdtempSync("/dev/shm/forage-bench-mount-");
    log(`not root or mount failed: using ${tmpfsRoot} on /dev/shm`);
    process.on("exit", () => rmSync(tmpfsRoot, { recursive: true, force: true }));
  }
  const environment = {
    command: [
      process.env.BENCH_REPS ? `BENCH_REPS=${reps}` : "",
      process.env.BENCH_SYSTEMS ? `BENCH_SYSTEMS=${systemNames.join(",")}` : "",
      pinnedCpus ? `BENCH_CPUS=${pinnedCpus}` : "",
      `node scripts/bench/mount/run.mjs${process.argv[2] ? ` ${process.argv[2]}` : ""}`,
    ]
      .filter(Boolean)
      .join(" "),
    date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    cpu: cpus()[0]?.model.trim() ?? "unknown CPU",
    cpus: availableParallelism(),
    kernel: release(),
    loadBefore: loadavg()
      .map((value) => value.toFixed(1))
      .join(" "),
    pinnedCpus: pinnedCpus ?? null,
  };
  const cpuBefore = cpuTimes();
  const buildBefore = buildIdentity();
  const started = performance.now();
  const results = [];
  for (const operations of sizes) {
    const size = await prepareSize(operations, tmpfsRoot);
    const bench = await benchSize(size);
    const memory = await memoryAndContent(size);
    results.push({ size, bench, memory });
    rmSync(size.tree, { recursive: true, force: true });
  }
  environment.loadAfter = loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
  const cpuAfter = cpuTimes();
  environment.buildChanged = buildIdentity() !== buildBefore;
  environment.machineBusyPercent = 100 * (1 - (cpuAfter.idle - cpuBefore.idle) / (cpuAfter.total - cpuBefore.total));
  environment.totalSeconds = (performance.now() - started) / 1000;
  writeFileSync(
    join(tmpInProject, `results-${sizes.join("-")}${pinnedCpus ? `-cpu${pinnedCpus}` : ""}.json`),
    JSON.stringify({ environment, reps, systems: systemNames, results }, null, 2),
  );
  process.stdout.write(`${report(environment, results)}\n`);
  log(`done in ${environment.totalSeconds.toFixed(0)} s`);
}

try {
  await main();
} catch (error) {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  cleanupSync();
}
