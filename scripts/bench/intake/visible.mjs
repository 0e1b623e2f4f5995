// Operations visible (with .d.ts and .json files) in the mount of real specs: before, only the operations
// the compiler validates had files; now the ones it refuses are shown from the source's own schemas, marked
// not validated (docs/mount.md, "Not validated operations"). Both counts come from the same run: the
// validated ones are the catalog's operations, the visible ones the .json files the tree actually holds.
// Run from the project root after building:
//   npm run build && node scripts/bench/intake/visible.mjs DIRECTORY [COUNT] [SEED]
// DIRECTORY holds OpenAPI specs (*.json, *.yaml); COUNT of them (default 60) are drawn with the seeded
// PRNG (default seed 18), each mounted alone under namespace "api". Prints a markdown snippet for BENCHMARKS.md.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createCatalog } from "../../../dist/index.js";
import { openApiSource } from "../../../dist/sources/openapi-source.js";
import { createCatalogTree } from "../../../dist/tree/catalog-tree.js";
import { walkTree } from "../../../dist/tree/walk-tree.js";

const [directory, countArgument = "60", seedArgument = "18"] = process.argv.slice(2);
if (directory === undefined) {
  console.error("usage: node scripts/bench/intake/visible.mjs DIRECTORY [COUNT] [SEED]");
  process.exit(2);
}

/** mulberry32: a small seeded PRNG, so the sample is the same on every machine. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample(files, count, seed) {
  const next = random(seed);
  const shuffled = [...files];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
  }
  return shuffled.slice(0, count);
}

/**
 * What one spec shows: declared, validated (in the catalog), visible (with files), and why the rest have none.
 * A spec beyond intake's bounds comes in parts, each its own namespace below "api" with its own SourceInfo.
 */
function measure(file) {
  const { operations, infos } = openApiSource(readFileSync(file, "utf8"), "api", file);
  const catalog = createCatalog({
    revision: "r",
    operations: operations.map((operation) => ({ ...operation, path: `api.${operation.path}` })),
  });
  const tree = createCatalogTree(catalog, { revision: "r", stamp: "s", providerVersion: "0", sources: infos });
  let visible = 0;
  for (const { path, entry } of walkTree(tree, "/api"))
    if (
      entry.kind !== "directory" &&
      entry.kind !== "symlink" &&
      path.endsWith(".json") &&
      !path.split("/").at(-1).startsWith("@")
    )
      visible += 1;
  const sum = (amount) => infos.reduce((total, info) => total + amount(info), 0);
  return {
    declared: sum((info) => info.declared),
    validated: operations.length,
    visible,
    hidden: infos.flatMap((info) => info.unsupported),
  };
}

/** The first clause of a reason, without names and pointers, so that like reasons count together. */
function reasonKind(reason) {
  return reason
    .replace(/"[^"]*"/g, '"…"')
    .replace(/#\/[^\s;,]*/g, "#/…")
    .split(";")[0];
}

const files = readdirSync(directory)
  .filter((name) => /\.(json|ya?ml)$/.test(name))
  .sort();
const chosen = sample(files, Number(countArgument), Number(seedArgument));
const totals = { specs: 0, refused: 0, declared: 0, validated: 0, visible: 0 };
const refusals = new Map();
const hiddenKinds = new Map();
for (const name of chosen) {
  try {
    const result = measure(join(directory, name));
    totals.specs += 1;
    totals.declared += result.declared;
    totals.validated += result.validated;
    totals.visible += result.visible;
    for (const { reason } of result.hidden)
      hiddenKinds.set(reasonKind(reason), (hiddenKinds.get(reasonKind(reason)) ?? 0) + 1);
  } catch (error) {
    totals.refused += 1;
    const kind = error?.code ?? "error";
    refusals.set(kind, (refusals.get(kind) ?? 0) + 1);
  }
}

const share = (part) => `${((100 * part) / totals.declared).toFixed(1)}%`;
console.log(
  `Sample: ${chosen.length} specs of ${files.length} (seed ${seedArgument}); ${totals.specs} accepted, ${totals.refused} refused whole (${[...refusals].map(([code, count]) => `${code} ${count}`).join(", ") || "none"}).\n`,
);
console.log("| operations of accepted specs | count | share |");
console.log("|---|---:|---:|");
console.log(`| declared | ${totals.declared} | 100% |`);
console.log(`| before: with files (validated, in the catalog) | ${totals.validated} | ${share(totals.validated)} |`);
console.log(`| now: with files (validated or not validated) | ${totals.visible} | ${share(totals.visible)} |`);
console.log(
  `| of which not validated | ${totals.visible - totals.validated} | ${share(totals.visible - totals.validated)} |`,
);
console.log(
  `| without files (@unsupported.txt) | ${totals.declared - totals.visible} | ${share(totals.declared - totals.visible)} |`,
);
console.log(`\nVisible now / before: ${(totals.visible / Math.max(1, totals.validated)).toFixed(2)}×.\n`);
if (hiddenKinds.size > 0) {
  console.log("Why the rest have no files:\n");
  for (const [kind, count] of [...hiddenKinds].sort((a, b) => b[1] - a[1])) console.log(`- ${count}: ${kind}`);
}
