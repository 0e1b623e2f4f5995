#!/usr/bin/env node
// Scores agent answers against tasks.json: per size and condition, mean recall of the needed
// tools, mean precision of the answered tools, the share of tasks fully solved, and the median
// and mean shell calls; then whether the mount met the target (higher recall, or 100%, and fewer
// calls than the plain files) at each size. README.md, "Scoring", says what each figure means.
//
// Usage: node scripts/bench/agent/score.mjs <tasks.json> <answers.jsonl> [--json]
// An answer line: {"task","condition":"plain"|"mount","size":"500"|"5000","tools":[...],"shellCalls":N}

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { median } from "../stats.mjs";
import { toolKey } from "./tool-names.mjs";

const CONDITIONS = ["plain", "mount"];

const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: "boolean" } } });
if (positionals.length !== 2) {
  console.error("usage: score.mjs <tasks.json> <answers.jsonl> [--json]");
  process.exit(2);
}
const tasks = new Map(JSON.parse(readFileSync(positionals[0], "utf8")).tasks.map((task) => [task.id, task]));
const { answers, problems } = readAnswers(positionals[1]);
const scored = answers.map((answer) => ({ ...answer, ...scoreAnswer(tasks.get(answer.task), answer.tools) }));
const rows = summarize(scored);
const verdicts = targets(rows);

if (values.json) {
  console.log(JSON.stringify({ rows, verdicts, problems, answers: scored }, null, 2));
} else {
  console.log(table(rows));
  console.log("");
  for (const verdict of verdicts) console.log(verdict.line);
  for (const problem of problems) console.log(`skipped: ${problem}`);
}

/** One answer per line; lines that are not a usable answer are reported, not scored. */
function readAnswers(path) {
  const answers = [];
  const problems = [];
  for (const [index, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line.trim() === "") continue;
    const where = `${path}:${index + 1}`;
    let answer;
    try {
      answer = JSON.parse(line);
    } catch {
      problems.push(`${where}: not JSON`);
      continue;
    }
    const problem = answerProblem(answer);
    if (problem === undefined) answers.push({ ...answer, size: String(answer.size) });
    else problems.push(`${where}: ${problem}`);
  }
  return { answers, problems };
}

function answerProblem(answer) {
  if (answer === null || typeof answer !== "object") return "not an object";
  if (!tasks.has(answer.task)) return `unknown task ${JSON.stringify(answer.task)}`;
  if (!CONDITIONS.includes(answer.condition)) return `condition must be one of ${CONDITIONS.join(", ")}`;
  if (!["500", "5000"].includes(String(answer.size))) return "size must be 500 or 5000";
  if (!Array.isArray(answer.tools)) return "tools must be an array";
  if (!Number.isFinite(answer.shellCalls) || answer.shellCalls < 0) return "shellCalls must be a number ≥ 0";
  return undefined;
}

/** Recall over the task's needs (each an anyOf group), precision over the distinct tools answered. */
function scoreAnswer(task, tools) {
  const groups = task.needs.map((need) => new Set(need.anyOf.map(toolKey)));
  const answered = [...new Set(tools.map(toolKey).filter((key) => key !== undefined))];
  const unreadable = tools.length - tools.map(toolKey).filter((key) => key !== undefined).length;
  const found = groups.filter((group) => answered.some((key) => group.has(key))).length;
  const correct = answered.filter((key) => groups.some((group) => group.has(key))).length;
  const total = answered.length + unreadable;
  return {
    recall: found / groups.length,
    precision: total === 0 ? 0 : correct / total,
    solved: found === groups.length,
  };
}

function summarize(list) {
  const rows = [];
  const sizes = [...new Set(list.map((answer) => answer.size))].sort((a, b) => Number(a) - Number(b));
  for (const size of sizes) {
    for (const condition of CONDITIONS) {
      const group = list.filter((answer) => answer.size === size && answer.condition === condition);
      if (group.length === 0) continue;
      const calls = group.map((answer) => answer.shellCalls);
      rows.push({
        size,
        condition,
        answers: group.length,
        tasks: new Set(group.map((answer) => answer.task)).size,
        recall: mean(group.map((answer) => answer.recall)),
        precision: mean(group.map((answer) => answer.precision)),
        solved: mean(group.map((answer) => (answer.solved ? 1 : 0))),
        medianCalls: median(calls),
        meanCalls: mean(calls),
      });
    }
  }
  return rows;
}

/** The target: at each size, the mount has a higher mean recall (or 100%) and a lower mean of shell calls. */
function targets(rows) {
  const sizes = [...new Set(rows.map((row) => row.size))];
  return sizes.map((size) => {
    const plain = rows.find((row) => row.size === size && row.condition === "plain");
    const mount = rows.find((row) => row.size === size && row.condition === "mount");
    if (plain === undefined || mount === undefined) {
      return { size, met: false, line: `size ${size}: needs answers in both conditions` };
    }
    const met = (mount.recall > plain.recall || mount.recall === 1) && mount.meanCalls < plain.meanCalls;
    const recall = `recall ${pct(mount.recall)} vs ${pct(plain.recall)}`;
    const calls = `mean calls ${mount.meanCalls.toFixed(1)} vs ${plain.meanCalls.toFixed(1)}`;
    return { size, met, line: `size ${size}: mount vs plain: ${recall}, ${calls}: target ${met ? "met" : "NOT met"}` };
  });
}

function table(list) {
  const head = "| size | condition | answers | tasks | recall | precision | solved | median calls | mean calls |";
  const rule = "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |";
  const body = list.map(
    (row) =>
      `| ${row.size} | ${row.condition} | ${row.answers} | ${row.tasks} | ${pct(row.recall)} | ${pct(row.precision)} | ${pct(row.solved)} | ${row.medianCalls} | ${row.meanCalls.toFixed(1)} |`,
  );
  return [head, rule, ...body].join("\n");
}

function mean(numbers) {
  return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
}

function pct(value) {
  return `${(value * 100).toFixed(0)}%`;
}
