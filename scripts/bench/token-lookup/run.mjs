// How long TokenTable.find takes for tokens that are right, nearly right, wrong from the first
// character, or of another length, in a table of 100 grants (docs/afi.md, "Tokens"): the lookup
// should take the same time whatever the presented token is. Batches of lookups are interleaved
// round-robin across the candidates, so drift in the machine's speed falls on all of them alike.
//
//   node scripts/bench/token-lookup/run.mjs        (after npx tsc -p tsconfig.build.json)
//
// Optional: BENCH_BATCHES (default 400) batches of BENCH_BATCH (default 500) lookups each.
import { TokenTable } from "../../../dist/afi/token-table.js";
import { formatRatio, median, percentile, timed } from "../stats.mjs";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 400);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);

const grants = Array.from({ length: 100 }, (_, index) => [
  `grant-${String(index).padStart(4, "0")}-0123456789abcdef`,
  index,
]);
const table = new TokenTable(grants);
const first = grants[0][0];
const last = grants[99][0];

const candidates = [
  ["the first grant's token", first],
  ["the last grant's token", last],
  ["the last token but its final character", `${last.slice(0, -1)}X`],
  ["wrong from the first character", `X${last.slice(1)}`],
  ["16 characters, none right", "XXXXXXXXXXXXXXXX"],
  ["4,096 characters", "X".repeat(4_096)],
  ["empty", ""],
];

const samples = candidates.map(() => []);
let sink = 0;
for (let batch = 0; batch < BATCHES; batch += 1)
  for (const [index, [, token]] of candidates.entries())
    samples[index].push(
      (timed(() => {
        for (let call = 0; call < BATCH; call += 1) sink += table.find(token) ?? 0;
      }) *
        1_000) /
        BATCH,
    );

const base = median(samples[0]);
console.log(
  `TokenTable.find over ${grants.length} grants: µs per lookup, ${BATCHES} batches of ${BATCH} (checksum ${sink})\n`,
);
console.log("| presented token | median µs | p99 µs | median vs the first grant's |");
console.log("| --- | ---: | ---: | ---: |");
for (const [index, [label]] of candidates.entries())
  console.log(
    `| ${label} | ${median(samples[index]).toFixed(2)} | ${percentile(samples[index], 99).toFixed(2)} | ${formatRatio(median(samples[index]), base)} |`,
  );
