#!/usr/bin/env node
// Prints one agent's prompt: the template of its condition from prompts.md, filled in with
// its size, catalog location, batch of tasks from tasks.json and answers file; and, on stderr,
// the shell its harness must run its commands with (prepare.mjs's shell.sh and this agent's tag).
//
// Usage: node scripts/bench/agent/prompt.mjs <plain|mount> <500|5000|20000> <batch> <catalog-location> <answers-file> [--tasks FILE]

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const HEADINGS = { plain: "## Plain condition", mount: "## Mount condition" };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tasks: { type: "string", default: join(here, "tasks.json") } },
});
const [condition, size, batch, catalog, answers] = positionals;
if (positionals.length !== 5 || !(condition in HEADINGS) || !["500", "5000", "20000"].includes(size)) {
  console.error(
    "usage: prompt.mjs <plain|mount> <500|5000|20000> <batch> <catalog-location> <answers-file> [--tasks FILE]",
  );
  process.exit(2);
}
const tasks = JSON.parse(readFileSync(values.tasks, "utf8")).tasks.filter((task) => String(task.batch) === batch);
if (tasks.length === 0) {
  console.error(`no task has batch ${batch}`);
  process.exit(2);
}
const fills = {
  SIZE: size,
  CATALOG: resolve(catalog),
  TASKS: tasks.map((task) => `- ${task.id}: ${task.prompt}`).join("\n"),
  ANSWERS: resolve(answers),
};
console.log(template(condition).replace(/\{(SIZE|CATALOG|TASKS|ANSWERS)\}/g, (_, key) => fills[key]));
// The catalog location is <work-dir>/plain or <work-dir>/mnt; prepare.mjs wrote shell.sh in <work-dir>.
const shell = join(dirname(resolve(catalog)), "shell.sh");
console.error(
  `harness: run this agent's commands as AGENT_SHELL_TAG=${condition}-${size}-${batch} ${shell} -c COMMAND`,
);

/** The fenced block under the condition's heading in prompts.md. */
function template(name) {
  const text = readFileSync(join(here, "prompts.md"), "utf8");
  const section = text.slice(text.indexOf(HEADINGS[name]));
  const match = /```text\n([\s\S]*?)\n```/.exec(section);
  if (match === null) throw new Error(`prompts.md has no template under ${HEADINGS[name]}`);
  return match[1];
}
