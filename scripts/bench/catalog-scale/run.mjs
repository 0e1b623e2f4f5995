// Catalog scale: creation, list, search and describe at 1,000, 10,000 and 50,000 synthetic operations.
// Run from the project root after building: npx tsc -p tsconfig.build.json && node scripts/bench/catalog-scale/run.mjs
// Each size runs in a fresh child process (see measure.mjs), so peak RSS belongs to that size alone.
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { medianBy } from "../stats.mjs";

const sizes = (process.argv[2] ?? "1000,10000,50000").split(",").map(Number);
/** Creation is timed in this many fresh processes per size and the median reported, since a shared machine is noisy. */
const runs = Number(process.env.BENCH_RUNS ?? 3);
const measure = fileURLToPath(new URL("./measure.mjs", import.meta.url));

/** One measurement in a fresh process; --expose-gc lets it collect the host's schema-building garbage before timing. */
function child(size, mode) {
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", "--max-old-space-size=8192", measure, String(size), mode],
    { encoding: "utf8" },
  );
  return JSON.parse(output.trim().split("\n").pop());
}
const middle = (rows, key) => medianBy(rows, (row) => row[key]);

const results = sizes.map((size) => {
  const full = Array.from({ length: runs }, () => child(size, "full"));
  const projection = Array.from({ length: runs }, () => child(size, "projection-only"));
  const example = Array.from({ length: runs }, () => child(size, "example-like"));
  return {
    ...middle(full, "createMs"),
    projectionMs: middle(projection, "projectionMs").projectionMs,
    exampleCreateMs: middle(example, "exampleCreateMs").exampleCreateMs,
  };
});

const ms = (value, digits = 3) => value.toFixed(digits);
console.log(
  `Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}; median of ${runs} fresh processes per size.\n`,
);
const table = (header, rows) => {
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---:").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log("");
};
const count = (row) => row.size.toLocaleString("en-US");
table(
  [
    "Operations",
    "Create (ms)",
    "Create per op (µs)",
    "zod projection alone (ms)",
    "Forage's own per op (µs)",
    "Example-like create (ms)",
    "RSS before create (MB)",
    "Peak RSS (MB)",
  ],
  results.map((row) => [
    count(row),
    ms(row.createMs, 0),
    ms(row.perOpUs, 1),
    ms(row.projectionMs, 0),
    ms(((row.createMs - row.projectionMs) * 1_000) / row.size, 1),
    ms(row.exampleCreateMs, 0),
    ms(row.rssBeforeMb, 0),
    ms(row.peakRssMb, 0),
  ]),
);
table(
  [
    "Operations",
    "list page p50 (ms)",
    "list page in a namespace p50 (ms)",
    "search p50 (ms)",
    "search p99 (ms)",
    "search p99, each query's best of 3 (ms)",
    "describe operation p50 (ms)",
    "describe small namespace p50, first / cached (ms)",
  ],
  results.map((row) => [
    count(row),
    ms(row.listMedianMs),
    ms(row.listNamespaceMedianMs),
    ms(row.searchP50Ms),
    ms(row.searchP99Ms),
    ms(row.searchBestP99Ms),
    ms(row.describeOperationMedianMs, 4),
    `${ms(row.describeNamespaceFirstMedianMs)} / ${ms(row.describeNamespaceCachedMedianMs, 4)}`,
  ]),
);

const at10k = results.find((row) => row.size === 10_000);
if (at10k !== undefined) {
  const checks = [
    ["creation under 2 s", at10k.createMs < 2_000],
    ["search p50 under 1 ms", at10k.searchP50Ms < 1],
    ["list under 0.1 ms", at10k.listMedianMs < 0.1 && at10k.listNamespaceMedianMs < 0.1],
    ["describe under 0.1 ms", at10k.describeOperationMedianMs < 0.1 && at10k.describeNamespaceFirstMedianMs < 0.1],
  ];
  console.log(`Targets at 10,000: ${checks.map(([label, ok]) => `${label} ${ok ? "met" : "MISSED"}`).join("; ")}.`);
}
