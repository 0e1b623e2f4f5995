// OpenAPI intake over a corpus of real specs: which are accepted whole, split (docs/intake.md, "Splitting
// a large spec") or refused, and how many operations each declares, describes and leaves out; then
// `forage export` of the three largest specs, time and peak RSS, next to swagger-parser's `dereference`
// of the same file in the same run. See scripts/bench/README.md for how to get the corpus.
// Run from the project root after `npm run build`:
//   node scripts/bench/intake/corpus.mjs <corpus directory> [more spec files...] [--table FILE]
// BENCH_RUNS (default 3) sets the runs per side for the three largest; BENCH_DIST another dist/ to
// measure (one without splitOpenApi counts only what intake accepts whole).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { basename, join, resolve } from "node:path";
import { formatMs, formatRatio, max, median, min } from "../stats.mjs";

const root = new URL("../../../", import.meta.url).pathname;
const dist = resolve(process.env.BENCH_DIST ?? join(root, "dist"));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const { normalizeOpenApi, splitOpenApi, unexpandedOperations } = await import(join(dist, "openapi/index.js"));

const args = process.argv.slice(2);
const tableAt = args.indexOf("--table");
const tableFile = tableAt === -1 ? undefined : args.splice(tableAt, 2)[1];
if (args.length === 0) {
  console.error("usage: node scripts/bench/intake/corpus.mjs <corpus directory> [more spec files...] [--table FILE]");
  process.exit(2);
}
const files = args.flatMap((arg) =>
  statSync(arg).isDirectory()
    ? readdirSync(arg)
        .filter((name) => /\.(json|ya?ml)$/.test(name))
        .sort()
        .map((name) => join(arg, name))
    : [resolve(arg)],
);

/** One spec through intake (and the splitter, when the dist has it): outcome and operation counts. */
function measure(file) {
  const text = readFileSync(file, "utf8");
  const bytes = Buffer.byteLength(text);
  const started = performance.now();
  const row = {
    file,
    bytes,
    outcome: "accepted",
    declared: 0,
    described: 0,
    leftOut: 0,
    notValidated: 0,
    parts: 1,
    lost: 0,
  };
  try {
    const split = splitOpenApi === undefined ? undefined : splitOpenApi(text);
    const parts = split?.parts ?? [{ text, leftOut: [], operations: undefined }];
    if (split?.split) row.outcome = "split";
    row.parts = parts.length;
    for (const part of parts) {
      const normalized = normalizeOpenApi(part.text);
      row.described += normalized.operations.length;
      row.leftOut += normalized.unsupported.length + part.leftOut.length;
      // Left out but shown from the source's own schemas, marked not validated (docs/mount.md), when the dist can.
      const taken = [...normalized.operations, ...normalized.unsupported].map(({ name }) => name);
      const unexpanded = unexpandedOperations === undefined ? [] : unexpandedOperations(part, taken);
      row.notValidated += [...normalized.unsupported, ...unexpanded].filter(({ sourceSchema }) => sourceSchema).length;
    }
    row.declared = split?.declared ?? row.described + row.leftOut;
    row.lost = row.declared - row.described - row.leftOut;
  } catch (error) {
    row.outcome = `refused (${error.code ?? "error"}): ${String(error.message).split("\n")[0].slice(0, 100)}`;
  }
  row.ms = performance.now() - started;
  return row;
}

const rows = files.map(measure);
const accepted = rows.filter((row) => row.outcome === "accepted");
const split = rows.filter((row) => row.outcome === "split");
const refused = rows.filter((row) => row.outcome.startsWith("refused"));
const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);

console.log(
  `Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}; dist: ${dist}\n`,
);
console.log(`| Specs | Count | Operations declared | validated | left out | of which not validated | lost |`);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const [label, list] of [
  ["accepted whole", accepted],
  ["split", split],
  ["refused", refused],
  ["all", rows],
])
  console.log(
    `| ${label} | ${list.length} | ${sum(list, "declared")} | ${sum(list, "described")} | ${sum(list, "leftOut")} | ${sum(list, "notValidated")} | ${sum(list, "lost")} |`,
  );
const declared = sum(rows, "declared");
console.log(
  `\nOf ${declared} operations in specs read (accepted or split): ${share(sum(rows, "described"), declared)} validated, ${share(sum(rows, "described") + sum(rows, "notValidated"), declared)} visible (with files: validated or not validated), ${share(sum(rows, "described") + sum(rows, "leftOut"), declared)} accounted for (with files or listed as left out).\n`,
);
console.log("Split specs:\n");
console.log(
  "| Spec | Size | Parts | Declared | Validated | Not validated | Unsupported | Lost | Split + intake (ms) |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of split)
  console.log(
    `| ${basename(row.file)} | ${mib(row.bytes)} | ${row.parts} | ${row.declared} | ${row.described} | ${row.notValidated} | ${row.leftOut - row.notValidated} | ${row.lost} | ${formatMs(row.ms)} |`,
  );
console.log("\nRefused specs:\n");
console.log("| Spec | Size | Why |");
console.log("|---|---:|---|");
for (const row of refused)
  console.log(`| ${basename(row.file)} | ${mib(row.bytes)} | ${row.outcome.replaceAll("|", "\\|")} |`);
if (tableFile !== undefined) {
  const lines = ["spec\tbytes\toutcome\tparts\tdeclared\tdescribed\tleft_out\tlost\tms"];
  for (const row of rows)
    lines.push(
      [
        basename(row.file),
        row.bytes,
        row.outcome,
        row.parts,
        row.declared,
        row.described,
        row.leftOut,
        row.lost,
        row.ms.toFixed(0),
      ].join("\t"),
    );
  writeFileSync(tableFile, `${lines.join("\n")}\n`);
  console.log(`\nPer-spec table: ${tableFile}`);
}

// The three largest specs: forage export as a user runs it, next to swagger-parser's dereference, alternating.
const largest = [...rows].sort((left, right) => right.bytes - left.bytes).slice(0, 3);
console.log(`\nThe three largest specs, median of ${runs} alternating runs each (/usr/bin/time -v):\n`);
console.log(
  "| Spec | Size | forage export (s) | peak RSS (MB) | swagger-parser dereference (s) | peak RSS (MB) | time ratio |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const row of largest) {
  const exports = [];
  const derefs = [];
  for (let run = 0; run < runs; run += 1) {
    exports.push(exportRun(row.file));
    derefs.push(dereferenceRun(row.file));
  }
  const seconds = (list) => median(list.map(({ seconds }) => seconds));
  const rss = (list) => max(list.map(({ rssMb }) => rssMb));
  const failed = exports.find(({ status }) => status !== 0);
  console.log(
    `| ${basename(row.file)} | ${mib(row.bytes)} | ${seconds(exports).toFixed(1)}${failed ? ` (exit ${failed.status})` : ""} | ${rss(exports).toFixed(0)} | ${seconds(derefs).toFixed(1)} | ${rss(derefs).toFixed(0)} | ${formatRatio(seconds(exports), seconds(derefs))} |`,
  );
  console.log(
    `<!-- ${basename(row.file)}: export ${exports.map(({ seconds }) => seconds.toFixed(1)).join(", ")} s (min ${min(exports.map(({ seconds }) => seconds)).toFixed(1)}); ${exports[0]?.summary ?? ""} -->`,
  );
}

function exportRun(file) {
  const directory = mkdtempSync("/tmp/forage-bench-split-");
  rmSync(directory, { recursive: true });
  const name = basename(file)
    .replace(/\.(json|ya?ml)$/, "")
    .replace(/[^A-Za-z0-9_]/g, "_");
  try {
    return timedProcess([
      join(dist, "cli/main.js"),
      "export",
      `${/^[A-Za-z_]/.test(name) ? name : `api_${name}`}=${file}`,
      directory,
    ]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function dereferenceRun(file) {
  const script = `import SwaggerParser from "@apidevtools/swagger-parser"; import { readFileSync } from "node:fs";
    await SwaggerParser.dereference(JSON.parse(readFileSync(${JSON.stringify(file)}, "utf8")));`;
  return timedProcess(["--input-type=module", "-e", script]);
}

/** Wall time and peak RSS of one Node process, from GNU time's verbose report. */
function timedProcess(nodeArgs) {
  const result = spawnSync("/usr/bin/time", ["-v", process.execPath, ...nodeArgs], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = result.stderr;
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(report);
  const seconds = wall === null ? Number.NaN : Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1] ?? Number.NaN);
  const exitStatus = Number(/Exit status: (\d+)/.exec(report)?.[1] ?? result.status);
  return { seconds, rssMb: rssKb / 1024, status: exitStatus, summary: result.stdout.trim().split("\n").at(-1) ?? "" };
}

function share(part, whole) {
  return whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`;
}

function mib(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;
}
