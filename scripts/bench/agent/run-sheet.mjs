#!/usr/bin/env node
// Prints the run sheet of the agent benchmark: for each size and batch, the plain agent and the
// mount agent to start together, each with its tag, the shell its harness must run its commands
// with, its answers file and its whole filled-in prompt (README.md, "Protocol"). The work
// folders are <runs-root>/<size>, laid out by prepare.mjs; answers go to
// <runs-root>/<size>/answers-<condition>-<batch>.jsonl.
//
// Usage: node scripts/bench/agent/run-sheet.mjs <runs-root> [--tasks FILE] [--sizes 500,5000,20000]

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { agentPrompt, batchTasks, CONDITIONS, SIZES } from "./agent-prompt.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tasks: { type: "string" }, sizes: { type: "string", default: SIZES.join(",") } },
});
const sizes = values.sizes.split(",");
if (positionals.length !== 1 || values.tasks === undefined || !sizes.every((size) => SIZES.includes(size))) {
  console.error("usage: run-sheet.mjs <runs-root> --tasks FILE [--sizes 500,5000,20000]");
  process.exit(2);
}
const root = resolve(positionals[0]);
const batches = [...new Set(JSON.parse(readFileSync(values.tasks, "utf8")).tasks.map((task) => task.batch))];
let agents = 0;
for (const size of sizes) {
  const work = join(root, size);
  if (!existsSync(join(work, "shell.sh"))) {
    console.error(`${work} is not laid out: run prepare.mjs <catalog> ${work} first`);
    process.exit(1);
  }
  console.log(`# size ${size}: start ${work}/mount.sh in the background first; run ${work}/unmount.sh after\n`);
  for (const batch of batches) {
    console.log(`## size ${size}, batch ${batch}: start these ${CONDITIONS.length} agents together\n`);
    for (const condition of CONDITIONS) {
      const catalog = join(work, condition === "plain" ? "plain" : "mnt");
      const answers = join(work, `answers-${condition}-${batch}.jsonl`);
      const prompt = agentPrompt({ condition, size, batch, catalog, answers, tasks: batchTasks(values.tasks, batch) });
      console.log(`### agent ${prompt.tag}\nshell: ${prompt.shell}\nanswers: ${answers}\n\n${prompt.text}\n`);
      agents += 1;
    }
  }
}
console.error(`${agents} agents: ${batches.length} batches × ${CONDITIONS.length} conditions × ${sizes.length} sizes`);
