#!/usr/bin/env node
// Reading a folder of real MCP tools/list files and creating its catalog, in fresh processes, this
// checkout against others in turn (BENCHMARKS.md, "Real catalogs at scale"). Each process reads
// every file, runs the MCP intake (which compiles each tool's schemas) and createCatalog (which
// projects them), then searches once; it reports the CPU time of each phase (process.cpuUsage:
// steadier than wall time on a shared machine), the wall time and the peak RSS.
//
//   node scripts/bench/catalog-scale/real-tools.mjs <folder> [other checkout ...]
//   BENCH_RUNS=3     processes per build, builds interleaved (the order reversed every other round)
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMs, formatRatio, max, median, min } from "../stats.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const projectRoot = resolve(here, "../../..");

/** The child: one build, one folder; prints its figures as JSON. */
async function child(root, folder) {
  const { readToolsList } = await import(join(root, "dist/mcp/index.js"));
  const { createCatalog } = await import(join(root, "dist/index.js"));
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const wallStart = performance.now();
  const start = cpu();
  const operations = [];
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const stem = basename(file, ".json").replace(/[^A-Za-z0-9_]/g, "_");
    const intake = readToolsList(JSON.parse(readFileSync(join(folder, file), "utf8")));
    for (const operation of intake.operations) operations.push({ ...operation, path: `${stem}.${operation.path}` });
  }
  const intakeMs = cpu() - start;
  const catalog = createCatalog({ revision: "bench", operations });
  const createMs = cpu() - start - intakeMs;
  const searchStart = cpu();
  catalog.search("create an issue");
  const firstSearchMs = cpu() - searchStart;
  const wallMs = performance.now() - wallStart;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ operations: catalog.size, intakeMs, createMs, firstSearchMs, wallMs, peakMb }));
}

if (process.argv[2] === "--child") {
  await child(process.argv[3], process.argv[4]);
} else {
  const [folderArgument, ...others] = process.argv.slice(2);
  if (folderArgument === undefined) {
    process.stderr.write("usage: node scripts/bench/catalog-scale/real-tools.mjs <folder> [other checkout ...]\n");
    process.exit(2);
  }
  const folder = resolve(folderArgument);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const builds = [projectRoot, ...others.map((path) => resolve(path))].map((root) => ({
    root,
    label: root === projectRoot ? "this checkout" : basename(root),
    samples: [],
  }));
  for (let run = 0; run < runs; run++) {
    for (const build of run % 2 === 0 ? builds : [...builds].reverse()) {
      const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", build.root, folder], {
        encoding: "utf8",
        maxBuffer: 1 << 20,
      });
      if (result.status !== 0) throw new Error(`${build.label} failed: ${result.stderr}`);
      const figures = JSON.parse(result.stdout);
      build.samples.push(figures);
      process.stderr.write(`[bench/real-tools] ${build.label} #${run + 1}: ${JSON.stringify(figures)}\n`);
    }
  }
  const cell = (build, key) => {
    const values = build.samples.map((figures) => figures[key]);
    return `${formatMs(median(values))} (${formatMs(min(values))}–${formatMs(max(values))})`;
  };
  const columns = [
    ["intakeMs", "intake CPU (ms)"],
    ["createMs", "createCatalog CPU (ms)"],
    ["firstSearchMs", "first search CPU (ms)"],
    ["wallMs", "wall (ms)"],
    ["peakMb", "peak RSS (MB)"],
  ];
  const lines = [
    `${folder}: ${builds[0].samples[0].operations} operations; ${runs} processes per build, interleaved.`,
    "",
    `| build | ${columns.map(([, title]) => title).join(" | ")} |`,
    `|---|${columns.map(() => "---:").join("|")}|`,
    ...builds.map((build) => `| ${build.label} | ${columns.map(([key]) => cell(build, key)).join(" | ")} |`),
  ];
  for (const other of builds.slice(1)) {
    const ratio = (key) =>
      formatRatio(
        median(builds[0].samples.map((figures) => figures[key])),
        median(other.samples.map((figures) => figures[key])),
      );
    lines.push(
      "",
      `This checkout / ${other.label}: intake ${ratio("intakeMs")}, createCatalog ${ratio("createMs")}, wall ${ratio("wallMs")}, peak RSS ${ratio("peakMb")}.`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
