#!/usr/bin/env node
// Prints one agent's prompt: the template of its condition from prompts.md, filled in with
// its size, catalog location, batch of tasks and answers file; and, on stderr, the shell its
// harness must run its commands with (prepare.mjs's shell.sh and this agent's tag).
// run-sheet.mjs prints every agent's of a run at once.
//
// Usage: node scripts/bench/agent/prompt.mjs <plain|mount> <500|5000|20000> <batch> <catalog-location> <answers-file> --tasks FILE

import { parseArgs } from "node:util";
import { agentPrompt, batchTasks, CONDITIONS, SIZES } from "./agent-prompt.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tasks: { type: "string" } },
});
const [condition, size, batch, catalog, answers] = positionals;
if (
  positionals.length !== 5 ||
  values.tasks === undefined ||
  !CONDITIONS.includes(condition) ||
  !SIZES.includes(size)
) {
  console.error(
    "usage: prompt.mjs <plain|mount> <500|5000|20000> <batch> <catalog-location> <answers-file> --tasks FILE",
  );
  process.exit(2);
}
let tasks;
try {
  tasks = batchTasks(values.tasks, batch);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const prompt = agentPrompt({ condition, size, batch, catalog, answers, tasks });
console.log(prompt.text);
console.error(`harness: run this agent's commands as ${prompt.shell}`);
