// Finding every operation the catalog refuses on its own, on real specs (docs/catalog.md, "Every refusal in
// one pass"): before, the loader tried the refused source's operations alone, then each operation alone, then
// made the catalog again without the refused ones; now one createCatalogReport. Both start after the
// createCatalog that refused the whole definition, which they share, and both are timed in the same run,
// interleaved; the refused operations and the catalog's stamp must be equal. Run from the project root:
//   npm run build && node scripts/bench/catalog-report/run.mjs SPEC.json [SPEC.json ...]
// BENCH_RUNS (default 5) sets the rounds. Prints a markdown table for BENCHMARKS.md.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { createCatalog, createCatalogReport, isForageError } from "../../../dist/index.js";
import { openApiSource } from "../../../dist/sources/openapi-source.js";
import { formatMs, formatRatio, median, timed } from "../stats.mjs";

const specs = process.argv.slice(2);
if (specs.length === 0) {
  console.error("usage: node scripts/bench/catalog-report/run.mjs SPEC.json [SPEC.json ...]");
  process.exit(2);
}
const runs = Number(process.env.BENCH_RUNS ?? 5);

function refusal(operations) {
  try {
    createCatalog({ revision: "alone", operations });
    return undefined;
  } catch (error) {
    if (isForageError(error, "invalid_catalog")) return error.message;
    throw error;
  }
}

/** What the loader did before: the source alone, then each operation alone, then the catalog without the refused. */
function eachAlone(definition) {
  if (refusal(definition.operations) === undefined) throw new Error("the source alone is not refused");
  const refused = [];
  const kept = [];
  for (const [index, operation] of definition.operations.entries()) {
    const message = refusal([operation]);
    if (message === undefined) kept.push(operation);
    else refused.push({ index, message });
  }
  return { refused, stamp: createCatalog({ ...definition, operations: kept }).stamp() };
}

/** Now: one pass. */
function onePass(definition) {
  const { catalog, refused } = createCatalogReport(definition);
  return { refused: refused.map(({ index, error }) => ({ index, message: error.message })), stamp: catalog.stamp() };
}

console.log("| spec | operations | refused | each alone (before) | one pass (now) | now / before | equal |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const file of specs) {
  const namespace = "api";
  const { operations } = openApiSource(readFileSync(file, "utf8"), namespace, file);
  const definition = { revision: "r", operations: operations.map((o) => ({ ...o, path: `${namespace}.${o.path}` })) };
  if (refusal(definition.operations) === undefined) {
    console.log(`| ${basename(file)} | ${operations.length} | 0 | – | – | – | – |`);
    continue;
  }
  const before = [];
  const now = [];
  let results;
  for (let round = 0; round < runs; round += 1) {
    // Alternate which goes first, so neither always runs on a warmer heap.
    const order = round % 2 === 0 ? ["before", "now"] : ["now", "before"];
    const got = {};
    for (const which of order) {
      const ms = timed(() => {
        got[which] = which === "before" ? eachAlone(definition) : onePass(definition);
      });
      (which === "before" ? before : now).push(ms);
    }
    results = got;
  }
  const equal = JSON.stringify(results.before) === JSON.stringify(results.now);
  const [b, n] = [median(before), median(now)];
  console.log(
    `| ${basename(file)} | ${operations.length} | ${results.now.refused.length} | ${formatMs(b)} | ${formatMs(n)} | ${formatRatio(n, b)} | ${equal ? "yes" : "NO"} |`,
  );
}
