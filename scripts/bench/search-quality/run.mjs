// Search quality: Forage versus a plain BM25 baseline (MiniSearch, default options), on every set in loadSets().
// Run from the project root after building: npx tsc -p tsconfig.build.json && node scripts/bench/search-quality/run.mjs
import { MAX_QUERY_LENGTH } from "../../../dist/catalog/limits.js";
import { DEPTH, forageEngine, miniSearchEngine } from "./engines.mjs";
import { loadSets } from "./fixture.mjs";
import { firstRelevantRank, summarize } from "./metrics.mjs";

/** Forage's Recall@5 must lead the baseline's by this much on every set. */
const REQUIRED_RECALL5_LEAD = 0.1;

/**
 * Forage refuses queries over its bound; both engines get the same text, cut
 * at the bound, so the comparison stays like for like.
 */
const cut = (query) => (query.length <= MAX_QUERY_LENGTH ? query : query.slice(0, MAX_QUERY_LENGTH));

const rows = [];
const sets = loadSets();
for (const set of sets) {
  const truncated = set.queries.filter((query) => query.query.length > MAX_QUERY_LENGTH).length;
  console.log(
    `${set.name} (${set.folder}): ${set.tools.length} tools, ${set.queries.length} queries (${truncated} cut to ${MAX_QUERY_LENGTH} characters)`,
  );
  const splits = new Set(set.queries.map((query) => query.split));
  const shown = splits.size > 1 ? ["all", ...splits] : ["all"];
  for (const engine of [forageEngine(set.tools), miniSearchEngine(set.tools)]) {
    const started = performance.now();
    const ranks = set.queries.map((query) => ({
      split: query.split,
      rank: firstRelevantRank(engine.rank(cut(query.query)), query.relevant),
    }));
    const perQueryMs = (performance.now() - started) / set.queries.length;
    // The digest's hits, outside the timed loop: ms/query stays one search per query.
    const digests =
      engine.digest && set.queries.map((query) => firstRelevantRank(engine.digest(cut(query.query)), query.relevant));
    for (const split of shown) {
      const inSplit = (_entry, index) => split === "all" || ranks[index].split === split;
      const digest = digests && summarize(digests.filter(inSplit)).recall4;
      const chosen = ranks.filter(inSplit).map((entry) => entry.rank);
      rows.push({ set: set.name, engine: engine.name, split, perQueryMs, ...summarize(chosen), digest });
    }
  }
}

const percent = (value) => (value * 100).toFixed(2);
console.log(
  `\nHit: any relevant tool in the top k. MRR: 1/rank of the first relevant tool within the top ${DEPTH}, else 0.` +
    " Digest: a hit among the up to four a mount's query digest shows (the best, at most two per namespace while others match, after the second only those scored at least half the best's).\n",
);
console.log("| Set | Engine | Split | Queries | Recall@1 | Recall@4 | Digest | Recall@5 | MRR | ms/query |");
console.log("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const digest = row.digest === undefined ? "" : `${percent(row.digest)}%`;
  console.log(
    `| ${row.set} | ${row.engine} | ${row.split} | ${row.count} | ${percent(row.recall1)}% | ${percent(row.recall4)}% | ${digest} | ${percent(row.recall5)}% | ${row.mrr.toFixed(4)} | ${row.perQueryMs.toFixed(3)} |`,
  );
}

let met = true;
for (const set of sets) {
  const [forage, baseline] = rows.filter((row) => row.set === set.name && row.split === "all");
  const lead = forage.recall5 - baseline.recall5;
  const ok = lead >= REQUIRED_RECALL5_LEAD;
  met &&= ok;
  console.log(`${set.name}: Recall@5 lead ${percent(lead)} points (${ok ? "met" : "MISSED"}).`);
}
console.log(`\nForage's Recall@5 ${met ? "leads" : "does NOT lead"} the baseline by 10 points on every set.`);
process.exitCode = met ? 0 : 1;
