#!/usr/bin/env node
// Measures what an agent pays to read the mount's surface, for one catalog folder of MCP tools/list
// files, with this checkout's dist/ and a baseline build's dist/ in the same run: the README's bytes,
// the root's first look (`ls` and README), the longest index line, the largest index page, the
// total of every index page, and the bytes of each query's `.search/<q>/@index.txt` digest (median
// and largest). It builds the tree the mount serves, in memory (no FUSE): the bytes are the same.
// For scale, it also prints what the plain folder costs: every tool's name (`jq -r '.tools[].name'`
// over every file) and every file whole.
//
// Usage: node scripts/bench/agent/surface.mjs <catalog-dir> --baseline <other-checkout>/dist [--json]
// (docs/mount.md states the bounds; BENCHMARKS.md has the figures and how the baseline was built.)

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median } from "../stats.mjs";

/** Needs an agent could bring, in an API's words; the same for both builds. */
const QUERIES = [
  "send email",
  "create issue",
  "search the web",
  "read file",
  "list files in a directory",
  "query database",
  "create payment",
  "send slack message",
  "get weather forecast",
  "upload file",
  "create pull request",
  "search papers",
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { baseline: { type: "string" }, json: { type: "boolean" } },
});
if (positionals.length !== 1 || values.baseline === undefined) {
  console.error("usage: surface.mjs <catalog-dir> --baseline <dist-dir> [--json]");
  process.exit(2);
}
const catalogDir = resolve(positionals[0]);
const builds = { baseline: resolve(values.baseline), this: resolve(import.meta.dirname, "../../../dist") };
const figures = {};
for (const [name, dist] of Object.entries(builds)) figures[name] = await measure(dist);

const plain = plainFolder(catalogDir);

if (values.json)
  console.log(JSON.stringify({ catalog: catalogDir, builds, queries: QUERIES, figures, plain }, null, 2));
else {
  console.log(table(figures));
  console.log(`\nplain folder: every tool name ${plain.namesBytes} bytes, every file ${plain.folderBytes} bytes`);
}

/** What the plain condition's folder holds: the bytes of every tool's name (one a line), and of every file. */
function plainFolder(dir) {
  let namesBytes = 0;
  let folderBytes = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
    const text = readFileSync(join(dir, file));
    folderBytes += text.length;
    for (const tool of JSON.parse(text.toString("utf8")).tools) namesBytes += Buffer.byteLength(`${tool.name}\n`);
  }
  return { namesBytes, folderBytes };
}

/** Builds the mount's tree with the dist at `dist` and measures its surface. */
async function measure(dist) {
  // Builds before the sources layer kept parseSourceSpec in the CLI.
  const specModule = existsSync(join(dist, "sources/source-spec.js"))
    ? "sources/source-spec.js"
    : "cli/catalog-source.js";
  const { parseSourceSpec } = await import(pathToFileURL(join(dist, specModule)).href);
  const { loadRevision } = await import(pathToFileURL(join(dist, "cli/catalog-tree-source.js")).href);
  const quiet = process.stderr.write;
  // Loading a source that leaves tools out says so on stderr; a measurement does not need it.
  process.stderr.write = () => true;
  const { tree, operationCount } = await loadRevision({ sources: [parseSourceSpec(catalogDir)], example: false });
  process.stderr.write = quiet;
  const read = (path) => Buffer.from(tree.read(path));
  const readme = read("/README.md").length;
  const rootNames = tree.list("/").map((entry) => entry.name);
  const pages = indexPages(tree, "/").map((path) => read(path).toString("utf8"));
  const lines = pages.flatMap((page) => page.split("\n").filter((line) => line !== ""));
  const digests = QUERIES.map((query) => read(`/.search/${query}/@index.txt`).length);
  return {
    operations: operationCount,
    readmeBytes: readme,
    firstLookBytes: readme + Buffer.byteLength(`${rootNames.join("\n")}\n`),
    rootIndexBytes: read("/@index.txt").length,
    maxIndexLine: Math.max(...lines.map((line) => line.length)),
    linesOver240: lines.filter((line) => line.length > 240).length,
    maxIndexPageBytes: Math.max(...pages.map((page) => Buffer.byteLength(page))),
    allIndexBytes: pages.reduce((sum, page) => sum + Buffer.byteLength(page), 0),
    medianDigestBytes: median(digests),
    maxDigestBytes: Math.max(...digests),
  };
}

/** Every index page under `directory`, the root's included, in listing order. */
function indexPages(tree, directory) {
  const found = [];
  for (const entry of tree.list(directory)) {
    const path = directory === "/" ? `/${entry.name}` : `${directory}/${entry.name}`;
    if (entry.kind === "file" && /^@index(\.\d+)?\.txt$/.test(entry.name)) found.push(path);
    else if (entry.kind === "directory" && !entry.name.startsWith(".")) found.push(...indexPages(tree, path));
  }
  return found;
}

function table({ baseline, this: after }) {
  const rows = Object.keys(after).map((key) => {
    const ratio = baseline[key] === 0 ? "" : `${(after[key] / baseline[key]).toFixed(2)}×`;
    return `| ${key} | ${baseline[key]} | ${after[key]} | ${ratio} |`;
  });
  return ["| figure | baseline | this build | this / baseline |", "| --- | ---: | ---: | ---: |", ...rows].join("\n");
}
