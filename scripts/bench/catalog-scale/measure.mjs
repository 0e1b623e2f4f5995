// Measures one catalog size in this process and prints one JSON line. run.mjs starts one child per size,
// so peak RSS (process.resourceUsage().maxRSS) belongs to that size alone.
// The core modules directly, not dist/index.js: the entry point also loads every other part of the
// package, and a half-built one elsewhere must not stop this benchmark.
import { createCatalog } from "../../../dist/catalog/create-catalog.js";
import { scaledExampleOperations } from "../../../dist/example/example-catalog.js";
import { median, percentile, timed } from "../stats.mjs";
import { syntheticOperations } from "./operations.mjs";
import { syntheticQueries } from "./queries.mjs";

const size = Number(process.argv[2]);
/** "full" (everything below), "projection-only" (the validators' own cost) or "example-like" (the example catalog repeated). */
const mode = process.argv[3] ?? "full";
// The example-like catalog repeats the example operations under tenant namespaces, sharing their validator objects.
const operations = mode === "example-like" ? scaledExampleOperations(size) : syntheticOperations(size);
// Building the zod schemas is the host's cost, not Forage's: collect its garbage before timing.
globalThis.gc?.();
const rssBeforeMb = process.memoryUsage().rss / 1_048_576;

if (mode === "projection-only") {
  // The floor under creation: what the validators' own Standard JSON Schema projection costs.
  const ms = timed(() => {
    for (const operation of operations) {
      operation.input["~standard"].jsonSchema.input({ target: "draft-2020-12" });
      operation.output?.["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    }
  });
  console.log(JSON.stringify({ size, projectionMs: ms }));
  process.exit(0);
}

if (mode === "example-like") {
  console.log(JSON.stringify({ size, exampleCreateMs: timed(() => createCatalog({ revision: "bench", operations })) }));
  process.exit(0);
}

let catalog;
const createMs = timed(() => {
  catalog = createCatalog({ revision: "bench", operations });
});
const peakRssMb = process.resourceUsage().maxRSS / 1_024;

/** Every path in list order, by following cursors. */
const paths = [];
for (let cursor = null; ; ) {
  const page = catalog.list({ cursor });
  for (const result of page.results) paths.push(result.path);
  cursor = page.nextCursor;
  if (cursor === null) break;
}

/** Times every page of a full listing, following cursors. */
function listPages(namespace) {
  const samples = [];
  let cursor = null;
  do {
    let page;
    samples.push(timed(() => (page = catalog.list({ cursor, namespace }))));
    cursor = page.nextCursor;
  } while (cursor !== null && samples.length < 2_000);
  return samples;
}
listPages(undefined); // warm-up
const listAll = listPages(undefined);
const namespaces = [...new Set(paths.map((path) => path.split(".").slice(0, 2).join(".")))];
const listNamespace = namespaces.flatMap((namespace) => listPages(namespace));

const queries = syntheticQueries(
  500,
  paths.filter((_path, index) => index % 97 === 0),
);
for (const query of queries) catalog.search(query); // warm-up
/** Rounds over the queries, after the warm-up. */
const ROUNDS = 3;
const search = [];
let hits = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  for (const query of queries) {
    search.push(timed(() => (hits += catalog.search(query).results.length)));
  }
}
// Each query's fastest of its rounds: a query's own work, without the pauses a shared machine puts
// into some samples (on this VM, 4 ms stalls with no garbage collection in them set the p99 of
// `search` above; BENCHMARKS.md, "Search latency at 10,000 operations").
const searchBest = queries.map((_query, index) =>
  Math.min(...Array.from({ length: ROUNDS }, (_, round) => search[round * queries.length + index])),
);

const describeOperation = paths
  .filter((_path, index) => index % 7 === 0)
  .slice(0, 2_000)
  .map((path) => timed(() => catalog.describe(path)));
// Small namespaces (2 to 20 operations, e.g. "billing.v1.invoices"), described uncached, then cached.
const leafParents = [...new Set(paths.map((path) => path.split(".").slice(0, -1).join(".")))].filter((namespace) =>
  namespace.includes("."),
);
const small = leafParents
  .filter((namespace) => {
    const { total } = catalog.list({ namespace, limit: 1 });
    return total >= 2 && total <= 20;
  })
  .slice(0, 500);
const describeNamespaceFirst = small.map((namespace) => timed(() => catalog.describe(namespace)));
const describeNamespaceCached = small.map((namespace) => timed(() => catalog.describe(namespace)));
const namespaceSizes = small.map((namespace) => catalog.describe(namespace).operations.length);

console.log(
  JSON.stringify({
    size,
    createMs,
    perOpUs: (createMs * 1_000) / size,
    rssBeforeMb,
    peakRssMb,
    listMedianMs: median(listAll),
    listNamespaceMedianMs: median(listNamespace),
    searchP50Ms: percentile(search, 50),
    searchP99Ms: percentile(search, 99),
    searchBestP99Ms: percentile(searchBest, 99),
    searchQueries: queries.length,
    meanResults: hits / search.length,
    describeOperationMedianMs: median(describeOperation),
    describeNamespaceFirstMedianMs: median(describeNamespaceFirst),
    describeNamespaceCachedMedianMs: median(describeNamespaceCached),
    namespaceMedianOps: median(namespaceSizes),
  }),
);
