// Search quality on MetaTool: Forage versus a plain BM25 baseline (MiniSearch, default options).
// Run from the project root after building: npx tsc -p tsconfig.build.json && node scripts/bench/search-quality/run.mjs
import { MAX_QUERY_LENGTH } from "../../../dist/catalog/bounds.js";
import { DEPTH, forageEngine, miniSearchEngine } from "./engines.mjs";
import { fixtureDir, loadFixture } from "./fixture.mjs";
import { firstRelevantRank, summarize } from "./metrics.mjs";

const { tools, queries } = loadFixture();
const engines = [forageEngine(tools), miniSearchEngine(tools)];

/**
 * Forage refuses queries over its bound; both engines get the same text, cut
 * at the bound, so the comparison stays like for like.
 */
const cut = (query) => (query.length <= MAX_QUERY_LENGTH ? query : query.slice(0, MAX_QUERY_LENGTH));
const truncated = queries.filter((query) => query.query.length > MAX_QUERY_LENGTH).length;

const splits = ["all", ...new Set(queries.map((query) => query.split))];
const rows = [];
for (const engine of engines) {
  const started = performance.now();
  const ranks = queries.map((query) => ({
    split: query.split,
    rank: firstRelevantRank(engine.rank(cut(query.query)), query.relevant),
  }));
  const perQueryMs = (performance.now() - started) / queries.length;
  for (const split of splits) {
    const chosen = ranks.filter((entry) => split === "all" || entry.split === split).map((entry) => entry.rank);
    rows.push({ engine: engine.name, split, perQueryMs, ...summarize(chosen) });
  }
}

const percent = (value) => (value * 100).toFixed(2);
console.log(
  `Fixture: ${fixtureDir} — ${tools.length} tools, ${queries.length} queries (${truncated} cut to ${MAX_QUERY_LENGTH} characters)`,
);
console.log(
  `Hit: any relevant tool in the top k. MRR: 1/rank of the first relevant tool within the top ${DEPTH}, else 0.\n`,
);
console.log("| Engine | Split | Queries | Recall@1 | Recall@5 | MRR | ms/query |");
console.log("|---|---|---:|---:|---:|---:|---:|");
for (const row of rows) {
  console.log(
    `| ${row.engine} | ${row.split} | ${row.count} | ${percent(row.recall1)}% | ${percent(row.recall5)}% | ${row.mrr.toFixed(4)} | ${row.perQueryMs.toFixed(3)} |`,
  );
}

const [forage, baseline] = [
  rows.find((row) => row.engine === engines[0].name && row.split === "all"),
  rows.find((row) => row.engine === engines[1].name && row.split === "all"),
];
const beats = forage.recall1 > baseline.recall1 && forage.recall5 > baseline.recall5 && forage.mrr > baseline.mrr;
console.log(`\nForage ${beats ? "beats" : "does NOT beat"} the baseline on Recall@1, Recall@5 and MRR.`);
process.exitCode = beats ? 0 : 1;
