// One agent's prompt: the template of its condition from prompts.md, filled in with its size,
// catalog location, batch of tasks and answers file; and the shell its harness runs its commands
// with (prepare.mjs's shell.sh beside the catalog location, with the agent's tag). Used by
// prompt.mjs (one agent) and run-sheet.mjs (every agent of a run).

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const HEADINGS = { plain: "## Plain condition", mount: "## Mount condition" };
export const CONDITIONS = Object.keys(HEADINGS);
export const SIZES = ["500", "5000", "20000"];

/** The tasks of one batch, in the tasks file's order; an error when there is none. */
export function batchTasks(tasksFile, batch) {
  const tasks = JSON.parse(readFileSync(tasksFile, "utf8")).tasks.filter(
    (task) => String(task.batch) === String(batch),
  );
  if (tasks.length === 0) throw new Error(`no task of ${tasksFile} has batch ${batch}`);
  return tasks;
}

/** The filled-in prompt and the harness's shell command prefix of one agent. */
export function agentPrompt({ condition, size, batch, catalog, answers, tasks }) {
  const fills = {
    SIZE: size,
    CATALOG: resolve(catalog),
    TASKS: tasks.map((task) => `- ${task.id}: ${task.prompt}`).join("\n"),
    ANSWERS: resolve(answers),
  };
  const text = template(condition).replace(/\{(SIZE|CATALOG|TASKS|ANSWERS)\}/g, (_, key) => fills[key]);
  const tag = `${condition}-${size}-${batch}`;
  // The catalog location is <work-dir>/plain or <work-dir>/mnt; prepare.mjs wrote shell.sh in <work-dir>.
  const shell = `AGENT_SHELL_TAG=${tag} ${join(dirname(resolve(catalog)), "shell.sh")} -c COMMAND`;
  return { tag, text, shell };
}

/** The fenced block under the condition's heading in prompts.md. */
function template(condition) {
  const text = readFileSync(join(here, "prompts.md"), "utf8");
  const section = text.slice(text.indexOf(HEADINGS[condition]));
  const match = /```text\n([\s\S]*?)\n```/.exec(section);
  if (match === null) throw new Error(`prompts.md has no template under ${HEADINGS[condition]}`);
  return match[1];
}
