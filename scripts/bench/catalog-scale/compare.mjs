// Creation, index build and search latency of two builds in one process, in alternation, so both see the same
// machine load.
// Run from the project root: node scripts/bench/catalog-scale/compare.mjs <other checkout> [size]
// e.g. a copy of the base commit built in /tmp/base: node scripts/bench/catalog-scale/compare.mjs /tmp/base 10000
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { percentile, timed } from "../stats.mjs";
import { syntheticOperations } from "./operations.mjs";
import { syntheticQueries } from "./queries.mjs";

const [other, sizeArgument = "10000"] = process.argv.slice(2);
if (other === undefined) throw new Error("usage: compare.mjs <other checkout with a built dist/> [size]");
const size = Number(sizeArgument);
const builds = { other: resolve(other), this: resolve(".") };
const operations = syntheticOperations(size);
const creators = {};
for (const [name, root] of Object.entries(builds))
  creators[name] = (await import(pathToFileURL(`${root}/dist/catalog/create-catalog.js`).href)).createCatalog;
// Creation, then the first search, which builds the search index (catalog-core.ts builds it on first use):
// both builds in alternation, so both see the same load. The last round's catalogs are the ones searched below.
const rounds = Number(process.env.BENCH_BUILD_ROUNDS ?? 5);
const built = { other: { create: [], index: [] }, this: { create: [], index: [] } };
const catalogs = {};
for (let round = 0; round < rounds; round += 1) {
  for (const name of round % 2 === 0 ? ["other", "this"] : ["this", "other"]) {
    let catalog;
    built[name].create.push(timed(() => (catalog = creators[name]({ revision: "bench", operations }))));
    built[name].index.push(timed(() => catalog.search("warm")));
    catalogs[name] = catalog;
  }
}
for (const [name, { create, index }] of Object.entries(built))
  console.log(
    `${name}: create median ${percentile(create, 50).toFixed(0)} ms (${create.map((value) => value.toFixed(0)).join(", ")}), ` +
      `index build on first search median ${percentile(index, 50).toFixed(0)} ms (${index.map((value) => value.toFixed(0)).join(", ")})`,
  );
// The same queries as measure.mjs: its exact-path lookups are every 97th path in list order.
const paths = [];
for (let cursor = null; ; ) {
  const page = catalogs.this.list({ cursor });
  for (const result of page.results) paths.push(result.path);
  cursor = page.nextCursor;
  if (cursor === null) break;
}
const queries = syntheticQueries(
  500,
  paths.filter((_path, index) => index % 97 === 0),
);
for (const catalog of Object.values(catalogs)) for (const query of queries) catalog.search(query); // warm-up
const samples = { other: [], this: [] };
for (let round = 0; round < 10; round += 1) {
  for (const query of queries) {
    for (const name of round % 2 === 0 ? ["other", "this"] : ["this", "other"])
      samples[name].push(timed(() => catalogs[name].search(query)));
  }
}
for (const [name, list] of Object.entries(samples))
  console.log(
    `${name} (${builds[name]}), ${size.toLocaleString("en-US")} operations, ${list.length} searches: p50 ${percentile(list, 50).toFixed(3)} ms, p99 ${percentile(list, 99).toFixed(3)} ms`,
  );
