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
// The source is the example catalog scaled to N operations (scaledExampleOperations), or a real
// source given as a path instead of a number (a folder of MCP tools/list files), measured without reloads.
//
// Workloads, each run as a separate shell process with the tree's root as cwd:
//   find      find . | wc -l
//   cat       find . -type f ! -path ./.afi/search -print0 | xargs -0 cat > /dev/null
//   grep -r   grep -r --exclude=search email . | wc -l
//   stat ×3   perl stat-files.pl <list> 3: stat() of every exported file, 3 passes, in one process
// The control file /.afi/search is left out of cat and grep (--exclude=search: no other file
// has that name). /.search is a virtual directory with an empty listing.
//
// Time to usable: from the daemon's start to the first stat() of /README.md that succeeds.
// forage serves at once and renders its node table between requests; a cold sample starts once
// the table is in (the daemon's FORAGE_MOUNT_TRACE line), which is reported too. Reloads: see
// reload.mjs.
//
// Cold: a fresh mount (a new daemon process) for every sample. tmpfs cannot be made cold
// (its pages and dentries are the data): for it, "cold" drops the page, dentry and inode
// caches (sync; echo 3 > /proc/sys/vm/drop_caches) when permitted, then re-reads the tools
// and the daemons' code so that no disk read is timed. Warm: the same command immediately
// repeated on the same mount (2nd run); "3rd run" is one more repetition.
//
//   node scripts/bench/mount/run.mjs [sizes]          (default sizes: 1000,10000; a path is a real source)
//   BENCH_REPS=5                                       cold mounts per workload, system and size
//   BENCH_SYSTEMS=tmpfs,cfs,cfs-ro,forage,forage-ro    which systems to run
//   BENCH_CPUS=0                                       pin every daemon and workload (taskset -c)
//   BENCH_COLD_AFTER=table                             a cold forage sample starts once the node table
//                                                      is in ("table") or search is prepared too ("search")
//
// Needs Linux, /dev/fuse, fusermount3, perl, a built dist/ and addon (node scripts/bootstrap.mjs)
// and, as root, a tmpfs mount (otherwise /dev/shm is used). Builds scripts/bench/cfs when missing.
// Progress goes to stderr, the markdown report to stdout, the raw figures to
// scripts/bench/mount/.tmp/results-<sizes>[-cpu<list>].json. No mount is left behind: every mount is
// removed with fusermount3 -u -z (tmpfs with umount -l) on exit, on errors and on SIGINT/SIGTERM.
//
// Modules: config.mjs (settings, paths), cleanup.mjs (nothing outlives the run), processes.mjs
// (timed commands, memory), systems.mjs (what each system runs; start, stop, cool down),
// workloads.mjs (the tree and the workloads), sampling.mjs (cold/warm samples, memory and
// content), reload.mjs (--watch reloads: their event-loop stalls), report.mjs (the markdown);
// this file runs them in order.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, release, tmpdir } from "node:os";
import { join } from "node:path";
import { cleanUpOnExit, cleanupSync, mountpointOf, workspace } from "./cleanup.mjs";
import {
  addon,
  coldAfter,
  log,
  pinnedCpus,
  projectRoot,
  reps,
  sizeName,
  sizes,
  systemNames,
  tmpInProject,
} from "./config.mjs";
import { reloadStalls } from "./reload.mjs";
import { report } from "./report.mjs";
import { benchSize, memoryAndContent } from "./sampling.mjs";
import { preflight, SYSTEMS } from "./systems.mjs";
import { prepareSize } from "./workloads.mjs";

cleanUpOnExit();

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

async function main() {
  await preflight();
  for (const system of systemNames)
    if (!SYSTEMS[system]) throw new Error(`unknown system ${system}; known: ${Object.keys(SYSTEMS).join(", ")}`);
  workspace.workDir = mkdtempSync(join(tmpdir(), "forage-bench-mount-"));
  for (const system of Object.keys(SYSTEMS)) mkdirSync(mountpointOf(system));
  let tmpfsRoot = join(workspace.workDir, "tmpfs");
  mkdirSync(tmpfsRoot);
  if (
    process.getuid?.() === 0 &&
    spawnSync("mount", ["-t", "tmpfs", "-o", "size=2g,mode=0755", "forage-bench", tmpfsRoot], { stdio: "ignore" })
      .status === 0
  ) {
    workspace.tmpfsMount = tmpfsRoot;
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
      process.env.BENCH_COLD_AFTER ? `BENCH_COLD_AFTER=${coldAfter}` : "",
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
  for (const entry of sizes) {
    const size = await prepareSize(entry, tmpfsRoot);
    const bench = await benchSize(size);
    const memory = await memoryAndContent(size);
    // Reloads rewrite a module of the scaled example; a real source is measured without them.
    const reload = systemNames.includes("forage") && size.real === undefined ? await reloadStalls(size) : undefined;
    results.push({ size, bench, memory, reload });
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
    join(tmpInProject, `results-${sizes.map(sizeName).join("-")}${pinnedCpus ? `-cpu${pinnedCpus}` : ""}.json`),
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
