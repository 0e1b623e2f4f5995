// The mount benchmark's settings (from the environment and argv) and paths, shared by its modules.
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
export const projectRoot = resolve(here, "../../..");
export const cli = join(projectRoot, "dist/cli/main.js");
export const addon = join(projectRoot, "native/build/Release/forage_fuse.node");
export const cfsBinary = join(projectRoot, "scripts/bench/cfs/build/cfs");
export const tmpInProject = join(here, ".tmp");
export const statScript = join(here, "stat-files.pl");

/** Sizes of the scaled example (numbers) and real sources (any other entry: a path `forage mount` takes, such as a folder of tools/list files). */
export const sizes = (process.argv[2] ?? "1000,10000")
  .split(",")
  .map((entry) => (/^\d+$/.test(entry) ? Number(entry) : resolve(entry)));
/** A size's name in file names and logs: the number, or a real source's base name. */
export const sizeName = (entry) => (typeof entry === "number" ? String(entry) : basename(entry));
export const reps = Number(process.env.BENCH_REPS ?? 5);
export const systemNames = (process.env.BENCH_SYSTEMS ?? "tmpfs,cfs,cfs-ro,forage,forage-ro").split(",");
/** Optional CPU list (taskset -c) for every daemon and workload, e.g. "0": one CPU, no cross-CPU wakeups. */
export const pinnedCpus = process.env.BENCH_CPUS;
/** [command, args], run under taskset when BENCH_CPUS is set (taskset execs: the pid stays the command's). */
export const pinned = (command, args) =>
  pinnedCpus ? ["taskset", ["-c", pinnedCpus, command, ...args]] : [command, args];
/**
 * What a forage daemon must have done before a cold sample starts: "table" (its node table is in,
 * the default: search is then prepared between the workload's requests) or "search" (search
 * prepared too, so the workload has the daemon to itself).
 */
export const coldAfter = process.env.BENCH_COLD_AFTER ?? "table";
if (coldAfter !== "table" && coldAfter !== "search")
  throw new Error(`BENCH_COLD_AFTER is "table" or "search", not "${coldAfter}"`);
export const GREP_WORD = "email";
export const STAT_PASSES = 3;
export const MOUNT_TIMEOUT_MS = 60_000;

/** One progress line on stderr. */
export const log = (line) => process.stderr.write(`[bench/mount] ${line}\n`);
/** Resolves after ms. */
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
