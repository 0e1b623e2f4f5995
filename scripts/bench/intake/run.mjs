// OpenAPI intake: normalizeOpenApi next to @apidevtools/swagger-parser's validate, on the largest
// spec within intake's bounds found in a devDependency, plus the time intake takes to refuse hostile specs.
// Run from the project root after building: npx tsc -p tsconfig.build.json && node scripts/bench/intake/run.mjs
// Prints a markdown snippet for BENCHMARKS.md. BENCH_RUNS sets the measured runs per side (default 15).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { parse as parseYaml } from "yaml";
import { normalizeOpenApi } from "../../../dist/openapi/index.js";
import { formatMs, formatRatio, max, median, min, timedAsync } from "../stats.mjs";
import { hostileSpecs } from "./hostile-specs.mjs";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const root = new URL("../../../", import.meta.url).pathname;

/** Every .json/.yaml file under `directory`. */
function specFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const full = join(directory, name);
    if (statSync(full).isDirectory()) return specFiles(full);
    return /\.(json|ya?ml)$/.test(name) ? [full] : [];
  });
}

/** The largest spec (in bytes) that normalizeOpenApi accepts, among the devDependencies' examples. */
function largestWithinBounds() {
  const candidates = [
    ...specFiles(join(root, "node_modules/@readme/oas-examples/3.0")),
    ...specFiles(join(root, "node_modules/@readme/oas-examples/3.1")),
    ...specFiles(join(root, "node_modules/@scalar/galaxy/dist")),
  ].sort((left, right) => statSync(right).size - statSync(left).size);
  for (const file of candidates) {
    try {
      normalizeOpenApi(readFileSync(file, "utf8"));
      return file;
    } catch {
      // Refused: over a bound, or not a spec intake reads. Try the next largest.
    }
  }
  throw new Error("no spec within bounds");
}

const file = largestWithinBounds();
const text = readFileSync(file, "utf8");
const parseText = file.endsWith(".json") ? (source) => JSON.parse(source) : (source) => parseYaml(source);
const intake = () => normalizeOpenApi(text);
// swagger-parser takes the parsed document (it mutates it), so each run parses the same text first: both start from text.
const swagger = async () => {
  try {
    await SwaggerParser.validate(parseText(text));
  } catch {
    // An invalid verdict is still a verdict; its time counts the same.
  }
};
let swaggerVerdict = "valid";
await SwaggerParser.validate(parseText(text)).catch((error) => {
  swaggerVerdict = `invalid: ${String(error.message).split("\n")[0]}`;
});

for (let warm = 0; warm < 3; warm += 1) {
  intake();
  await swagger();
}
const intakeMs = [];
const swaggerMs = [];
for (let run = 0; run < runs; run += 1) {
  // Alternating keeps drift (thermal, GC, other load) from favouring one side.
  intakeMs.push(await timedAsync(intake));
  swaggerMs.push(await timedAsync(swagger));
}
const result = intake();

const hostile = [];
for (const { label, build } of hostileSpecs()) {
  const hostileText = build();
  let outcome = "accepted";
  const samples = [];
  for (let run = 0; run < 5; run += 1) {
    samples.push(
      await timedAsync(() => {
        try {
          normalizeOpenApi(hostileText);
        } catch (error) {
          outcome = `${error.code}: ${String(error.message).split("\n")[0].slice(0, 90)}`;
        }
      }),
    );
  }
  hostile.push({ label, bytes: Buffer.byteLength(hostileText), ms: median(samples), outcome });
}

const relative = file.slice(root.length);
console.log(
  `Node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}; median of ${runs} alternating runs after 3 warm-ups, one process.\n`,
);
console.log(
  `Largest spec within intake's bounds in a devDependency: \`${relative}\` (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB; ${result.operations.length} operations supported, ${result.unsupported.length} unsupported; swagger-parser: ${swaggerVerdict}).\n`,
);
console.log("| Step | Median (ms) | Min (ms) | Max (ms) |");
console.log("|---|---:|---:|---:|");
console.log(
  `| \`normalizeOpenApi\` (parse, bounds, budget, resolve, compile) | ${formatMs(median(intakeMs))} | ${formatMs(min(intakeMs))} | ${formatMs(max(intakeMs))} |`,
);
console.log(
  `| swagger-parser \`validate\` (parse, resolve, validate) | ${formatMs(median(swaggerMs))} | ${formatMs(min(swaggerMs))} | ${formatMs(max(swaggerMs))} |`,
);
console.log(
  `\nRatio normalizeOpenApi / swagger-parser validate: ${formatRatio(median(intakeMs), median(swaggerMs))}.\n`,
);
console.log(
  "Hostile and worst-case specs, median of 5 (refusals happen before reference resolution or compilation):\n",
);
console.log("| Spec | Size | Median (ms) | Outcome |");
console.log("|---|---:|---:|---|");
for (const row of hostile)
  console.log(
    `| ${row.label} | ${(row.bytes / 1024).toFixed(1)} KiB | ${formatMs(row.ms)} | ${row.outcome.replaceAll("|", "\\|")} |`,
  );
