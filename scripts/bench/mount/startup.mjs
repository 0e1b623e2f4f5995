#!/usr/bin/env node
// Start-up of `forage mount` on one source, this checkout against others, interleaved in one run
// (BENCHMARKS.md, "Real catalogs at scale"). For each daemon start it measures:
//   usable         from spawning the daemon to the first successful stat() of /README.md;
//   CPU to mount   the daemon's own CPU time when it mounted (its "mounted" trace line): on a
//                  machine shared with other work, steadier than wall time;
//   table in       to the daemon's "node table in" trace line (FORAGE_MOUNT_TRACE);
//   search ready   to its "search prepared" trace line, where the build writes one (else blank);
//   first query    once the daemon's start-up work is done (the table in and, where the build
//                  prepares search between requests, that too): reading
//                  .search/<query>/@index.txt, the first ranked query of the mount; then a second;
//   peak RSS       VmHWM of the daemon after the queries.
// Builds run in turn within each round, the order reversed every other round, so both see the
// same load. Medians and min–max; the ratio is of medians.
//
//   node scripts/bench/mount/startup.mjs <source> [other checkout ...]
//     <source>        what `forage mount` takes: a folder of tools/list files, a module, a spec
//     other checkout  a directory with a built dist/ (e.g. a git worktree of the base branch)
//   BENCH_REPS=5      daemon starts per build
//   BENCH_CPUS=0      pin every daemon (taskset -c)
//
// Needs /dev/fuse, fusermount3 and the addon; nothing is left mounted (cleanup.mjs).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { formatMs, formatRatio, max, median, min } from "../stats.mjs";
import { children, cleanUpOnExit, fuseMountpoints, workspace } from "./cleanup.mjs";
import { log, pinned, projectRoot, sleep } from "./config.mjs";
import { memoryOf, waitForExit } from "./processes.mjs";

const START_TIMEOUT_MS = 300_000;
const QUERIES = ["create an issue", "send a message to a channel"];

const [sourceArgument, ...others] = process.argv.slice(2);
if (sourceArgument === undefined) {
  process.stderr.write("usage: node scripts/bench/mount/startup.mjs <source> [other checkout ...]\n");
  process.exit(2);
}
const source = resolve(sourceArgument);
const reps = Number(process.env.BENCH_REPS ?? 5);
const builds = [projectRoot, ...others.map((path) => resolve(path))].map((root) => ({
  root,
  label: root === projectRoot ? "this checkout" : basename(root),
  samples: [],
}));

cleanUpOnExit();
workspace.workDir = mkdtempSync(join(tmpdir(), "forage-startup-"));

/** Throws if the daemon is gone or the start has taken too long. */
function checkAlive(child, output, what, start) {
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`daemon exited before ${what}: ${output()}`);
  if (performance.now() - start > START_TIMEOUT_MS) throw new Error(`no ${what} within ${START_TIMEOUT_MS} ms`);
}

/** Resolves to the ms since `start` once `test()` holds; rejects if the daemon goes or the time is up. */
async function waitFor(child, output, test, what, start) {
  for (;;) {
    if (test()) return performance.now() - start;
    checkAlive(child, output, what, start);
    await sleep(2);
  }
}

/** One daemon start of `build`: the figures above. */
async function sample(build, index) {
  const mountpoint = join(workspace.workDir, `mnt-${index}`);
  mkdirSync(mountpoint, { recursive: true });
  const cli = join(build.root, "dist/cli/main.js");
  const [command, args] = pinned("/bin/sh", [cli, "mount", source, mountpoint]);
  const env = { ...process.env, FORAGE_MOUNT_TRACE: "1", PATH: `${dirname(process.execPath)}:${process.env.PATH}` };
  const start = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
  children.add(child);
  fuseMountpoints.add(mountpoint);
  let text = "";
  child.stdout.on("data", (chunk) => (text += chunk));
  child.stderr.on("data", (chunk) => (text += chunk));
  const output = () => text;
  let usableMs;
  while (usableMs === undefined) {
    try {
      await stat(join(mountpoint, "README.md"));
      usableMs = performance.now() - start;
    } catch {
      checkAlive(child, output, "a usable mount", start);
      await sleep(1);
    }
  }
  await waitFor(child, output, () => /trace: mounted/.test(text), "the mounted trace line", start);
  const mountCpuMs = Number(/trace: mounted .*?\((\d+) ms of CPU\)/.exec(text)?.[1]);
  const tableInMs = await waitFor(child, output, () => /trace: node table in/.test(text), "the node table", start);
  // A build that prepares search says so once it has; one that does not builds it on the first query.
  const searchReadyMs = hasPreparation(build)
    ? await waitFor(child, output, () => /trace: search prepared/.test(text), "search prepared", start)
    : undefined;
  const queries = [];
  for (const query of QUERIES) {
    const began = performance.now();
    const page = await readFile(join(mountpoint, ".search", query, "@index.txt"), "utf8");
    queries.push(performance.now() - began);
    if (page.length === 0) throw new Error(`an empty answer to ${query}`);
  }
  const { hwmKb } = memoryOf(child.pid);
  child.kill("SIGTERM");
  if (!(await waitForExit(child, 10_000))) child.kill("SIGKILL");
  children.delete(child);
  return {
    usableMs,
    mountCpuMs,
    tableInMs,
    searchReadyMs,
    firstQueryMs: queries[0],
    secondQueryMs: queries[1],
    hwmMb: hwmKb / 1024,
  };
}

/** Whether a build's mount writes the "search prepared" trace line (it runs its tree's preparation). */
const preparation = new Map();
function hasPreparation(build) {
  if (!preparation.has(build.root)) {
    const chunks = join(build.root, "dist/chunks");
    preparation.set(
      build.root,
      readdirSync(chunks).some((name) => readFileSync(join(chunks, name), "utf8").includes("search prepared in")),
    );
  }
  return preparation.get(build.root);
}

log(`${source}: ${reps} starts per build, builds: ${builds.map((build) => build.label).join(", ")}`);
const loadBefore = loadavg()[0];
let index = 0;
for (let rep = 0; rep < reps; rep++) {
  const order = rep % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    const figures = await sample(build, index++);
    build.samples.push(figures);
    log(
      `${build.label} #${rep + 1}: usable ${formatMs(figures.usableMs)} ms (${formatMs(figures.mountCpuMs)} ms of CPU), table in ${formatMs(figures.tableInMs)} ms, ` +
        `search ${figures.searchReadyMs === undefined ? "on first query" : `ready ${formatMs(figures.searchReadyMs)} ms`}, ` +
        `first query ${formatMs(figures.firstQueryMs)} ms, second ${formatMs(figures.secondQueryMs)} ms, VmHWM ${figures.hwmMb.toFixed(0)} MB`,
    );
  }
}

const cell = (build, key) => {
  const values = build.samples.map((figures) => figures[key]).filter((value) => value !== undefined);
  if (values.length === 0) return "—";
  return `${formatMs(median(values))} (${formatMs(min(values))}–${formatMs(max(values))})`;
};
const columns = [
  ["usableMs", "mount to usable (ms)"],
  ["mountCpuMs", "CPU to mount (ms)"],
  ["tableInMs", "node table in (ms)"],
  ["searchReadyMs", "search prepared (ms)"],
  ["firstQueryMs", "first ranked query (ms)"],
  ["secondQueryMs", "second query (ms)"],
  ["hwmMb", "peak RSS, VmHWM (MB)"],
];
const lines = [
  `Source: ${source}; ${reps} starts per build, interleaved; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after.`,
  "",
  `| build | ${columns.map(([, title]) => title).join(" | ")} |`,
  `|---|${columns.map(() => "---:").join("|")}|`,
  ...builds.map((build) => `| ${build.label} | ${columns.map(([key]) => cell(build, key)).join(" | ")} |`),
];
if (builds.length > 1) {
  const [ours, ...rest] = builds;
  for (const other of rest) {
    const ratio = (key) => {
      const a = ours.samples.map((figures) => figures[key]);
      const b = other.samples.map((figures) => figures[key]);
      return formatRatio(median(a), median(b));
    };
    lines.push(
      "",
      `This checkout / ${other.label}: usable ${ratio("usableMs")}, CPU to mount ${ratio("mountCpuMs")}, table in ${ratio("tableInMs")}, first query ${ratio("firstQueryMs")}, peak RSS ${ratio("hwmMb")}.`,
    );
  }
}
process.stdout.write(`${lines.join("\n")}\n`);
