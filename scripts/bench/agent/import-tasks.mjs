#!/usr/bin/env node

// Imports the agent benchmark's tasks from a public annotated task set, MCPToolBench++
// (github.com/mcp-tool-bench/MCPToolBenchPP, pinned commit), instead of writing tasks to fit the
// catalog. Each of the set's tasks is a user query with its label: the MCP server and tool that
// answer it (`function_call_label`), and the tools/list of the servers the set offered with it
// (`tools`, `mcp_tools_dict`), and the tools it counts as equally good (`similar_tools`). The script
//   - maps each labelled server to a server of the base catalog by name (SERVER_ALIASES where the
//     set names the same package otherwise), and keeps a task only where every labelled tool is a
//     tool of that server (names compared as the scorer compares them);
//   - writes, for a labelled server the base catalog lacks, its tools/list from the set's own tool
//     schemas into the output catalog (the base catalog's files are copied there too), so that no
//     task is dropped for a missing server;
//   - picks the tasks deterministically: per labelled tool, the task whose uuid has the lowest
//     SHA-256; those picks ordered by that hash, categories taken in turn, the first --count;
//   - writes the tasks file (tasks.json's format, with each task's provenance) and batches them.
// The set states no licence at the pinned commit, so nothing of it is kept in the repository:
// the tasks file and the extended catalog are written outside it, by this script, on each machine.
//
// Usage: node scripts/bench/agent/import-tasks.mjs <base-catalog-dir> <out-catalog-dir> <out-tasks.json>
//        [--from GIT_DIR] [--cache DIR] [--count N] [--batch-size N]
// --from reads the set from a clone (or bare mirror) that has the pinned commit; without it, the set is
// cloned into --cache.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { segmentKey } from "./tool-names.mjs";

const SET = {
  set: "MCPToolBench++",
  repo: "https://github.com/mcp-tool-bench/MCPToolBenchPP",
  commit: "323725c417b43a02bea5a1421662e299dbadeb77",
  licence: "none stated in the repository at this commit (no LICENSE file, none in README.md)",
  // The set's task files at that commit (its map and pay files are not in it).
  files: [
    "data/browser/browser_0724_single_v3.json",
    "data/file_system/filesystem_0723_single.json",
    "data/search/search_0725_single_v2.json",
    "data/finance/finance_0724_single_v3.json",
  ],
};

/**
 * The set's server names that name a package the base catalog holds under another name. The set's
 * `playwright` is @executeautomation/playwright-mcp-server (its mcp/tools/browser/
 * executeautomation_mcp-playwright.json), the catalog's playwright_automation; `tavily-mcp` is tavily-mcp.
 */
const SERVER_ALIASES = { playwright: "playwright_automation", "tavily-mcp": "tavily" };

const MIN_TASKS = 16;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: "string" },
    cache: { type: "string", default: join(tmpdir(), "forage-agent-bench-tasks") },
    count: { type: "string", default: "24" },
    "batch-size": { type: "string", default: "8" },
  },
});
if (positionals.length !== 3) {
  console.error(
    "usage: import-tasks.mjs <base-catalog-dir> <out-catalog-dir> <out-tasks.json> [--from GIT_DIR] [--cache DIR] [--count N] [--batch-size N]",
  );
  process.exit(2);
}
const [baseDir, outDir, outTasks] = positionals.map((path) => resolve(path));
const count = Number(values.count);
const batchSize = Number(values["batch-size"]);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(batchSize) || batchSize < 1) {
  console.error("--count and --batch-size must be positive integers");
  process.exit(2);
}

const gitDir = values.from === undefined ? cloneSet(resolve(values.cache)) : resolve(values.from);
const base = readCatalog(baseDir);
const setTasks = SET.files.flatMap((file) => JSON.parse(show(gitDir, file)).map((task) => ({ ...task, file })));

const extension = new Map();
const kept = [];
const dropped = [];
for (const task of setTasks) {
  const needs = task.function_call_label.map((label) => need(task, label));
  if (needs.every((entry) => entry !== undefined)) kept.push({ task, needs });
  else dropped.push(task.uuid);
}
const picks = pick(kept);
// Issue 19 asks for at least this many tasks per catalog size.
if (picks.length < MIN_TASKS) fail(`only ${picks.length} tasks could be picked; the benchmark needs ${MIN_TASKS}`);

mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(baseDir).filter((name) => name.endsWith(".json")))
  copyFileSync(join(baseDir, file), join(outDir, file));
for (const [stem, tools] of extension) {
  writeFileSync(join(outDir, `${stem}.json`), `${JSON.stringify({ tools: [...tools.values()] }, null, 2)}\n`);
}
const baseManifest = join(dirname(baseDir), `${basename(baseDir)}.manifest.json`);
writeFileSync(
  join(dirname(outDir), `${basename(outDir)}.manifest.json`),
  `${JSON.stringify(
    {
      built: new Date().toISOString(),
      script: "scripts/bench/agent/import-tasks.mjs",
      base: baseDir,
      baseManifest: existsSync(baseManifest) ? JSON.parse(readFileSync(baseManifest, "utf8")) : null,
      extension: { from: SET, servers: [...extension].map(([stem, tools]) => ({ server: stem, tools: tools.size })) },
    },
    null,
    2,
  )}\n`,
);

const tasks = picks.map(({ task, needs }, index) => ({
  id: `mtb-${task.category}-${task.uuid.slice(0, 8)}`,
  batch: Math.floor(index / batchSize) + 1,
  prompt: task.query,
  needs,
  rationale: `The set's label: ${task.function_call_label.map((label) => `${label.mcp_server} ${label.name}`).join(", ")}.`,
  provenance: { set: SET.set, repo: SET.repo, commit: SET.commit, file: task.file, uuid: task.uuid },
}));
mkdirSync(dirname(outTasks), { recursive: true });
writeFileSync(
  outTasks,
  `${JSON.stringify(
    {
      about:
        "Tasks for the agent benchmark, imported by scripts/bench/agent/import-tasks.mjs from a public annotated task set " +
        '(README.md, "Tasks"). Each need is the set\'s labelled tool and the tools the set counts as equally good, as ' +
        "server::tool of the catalog; provenance names the set's task.",
      source: { ...SET, tasksInSet: setTasks.length, tasksUsable: kept.length, droppedForMissingTools: dropped.length },
      tasks,
    },
    null,
    2,
  )}\n`,
);
console.error(
  `${SET.set}@${SET.commit.slice(0, 7)}: ${setTasks.length} tasks, ${kept.length} with every labelled tool in the catalog, ` +
    `${tasks.length} picked in ${Math.ceil(tasks.length / batchSize)} batches; ` +
    `${extension.size} servers added from the set's schemas (${[...extension.keys()].join(", ") || "none"})`,
);

/**
 * The need of one label as an anyOf group of `server::tool`: the labelled tool and the tools the set
 * itself lists as equally good for it (`similar_tools`, each with its own server), each where the
 * catalog (or the extension) has it; undefined when the labelled tool is missing.
 */
function need(task, label) {
  const labelled = catalogTool(task, label.mcp_server, label.name);
  if (labelled === undefined) return undefined;
  const similar = (label.similar_tools ?? []).map((tool) =>
    typeof tool === "string"
      ? catalogTool(task, label.mcp_server, tool)
      : catalogTool(task, tool?.mcp_server ?? label.mcp_server, tool?.name),
  );
  return { anyOf: [...new Set([labelled, ...similar.filter((name) => name !== undefined)])] };
}

/** `server::tool` as the catalog spells it, for a tool the set names on one of its servers. */
function catalogTool(task, setServer, name) {
  if (typeof setServer !== "string" || typeof name !== "string") return undefined;
  const server = catalogServer(task, setServer);
  const tool = server?.tools.get(segmentKey(name));
  return tool === undefined ? undefined : `${server.stem}::${tool}`;
}

/** The catalog server a set server stands for; a server the base lacks joins the extension from the task's schemas. */
function catalogServer(task, setServer) {
  const alias = SERVER_ALIASES[setServer] ?? segmentKey(setServer);
  const known = base.get(alias);
  if (known !== undefined) return { stem: alias, tools: known };
  const stem = segmentKey(setServer);
  const tools = extension.get(stem) ?? new Map();
  // The task's `tools` are every offered server's, by name only: a name two servers share is left out.
  const offered = new Set(task.mcp_tools_dict?.[setServer] ?? []);
  const elsewhere = new Set(
    Object.entries(task.mcp_tools_dict ?? {}).flatMap(([other, names]) => (other === setServer ? [] : names)),
  );
  for (const tool of task.tools ?? []) {
    if (!offered.has(tool.name) || elsewhere.has(tool.name) || tools.has(tool.name)) continue;
    tools.set(tool.name, { name: tool.name, description: tool.description, inputSchema: tool.input_schema });
  }
  if (tools.size === 0) return undefined;
  extension.set(stem, tools);
  return { stem, tools: new Map([...tools.keys()].map((name) => [segmentKey(name), name])) };
}

/**
 * Per labelled tool set, the task with the lowest hash of its uuid; then those, by hash, one category at a
 * time in turn, so every category is represented and no task is chosen by hand.
 */
function pick(list) {
  const hash = (task) => createHash("sha256").update(task.uuid).digest("hex");
  const best = new Map();
  for (const entry of list) {
    const key = entry.needs.map((group) => group.anyOf[0]).join("+");
    const held = best.get(key);
    if (held === undefined || hash(entry.task) < hash(held.task)) best.set(key, entry);
  }
  const byCategory = new Map();
  for (const entry of [...best.values()].sort((a, b) => (hash(a.task) < hash(b.task) ? -1 : 1))) {
    byCategory.set(entry.task.category, [...(byCategory.get(entry.task.category) ?? []), entry]);
  }
  const queues = [...byCategory.keys()].sort().map((category) => byCategory.get(category));
  const picked = [];
  while (picked.length < count && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) if (queue.length > 0 && picked.length < count) picked.push(queue.shift());
  }
  return picked;
}

/** Each `<server>.json` of the catalog: its stem, and its tools by compared name. */
function readCatalog(dir) {
  const servers = new Map();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
    const tools = JSON.parse(readFileSync(join(dir, file), "utf8")).tools;
    servers.set(file.slice(0, -".json".length), new Map(tools.map((tool) => [segmentKey(tool.name), tool.name])));
  }
  return servers;
}

/** One file of the set at the pinned commit; a clone without that commit stops the run with a clear message. */
function show(dir, file) {
  try {
    return execFileSync("git", ["-C", dir, "show", `${SET.commit}:${file}`], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    fail(`${dir} has no ${file} at ${SET.commit}: ${String(error.stderr ?? error.message).trim()}`);
  }
}

/** A bare clone of the set in the cache, fetched once. */
function cloneSet(cache) {
  const dir = join(cache, "MCPToolBenchPP.git");
  if (existsSync(dir)) return dir;
  mkdirSync(cache, { recursive: true });
  try {
    execFileSync("git", ["clone", "--quiet", "--bare", SET.repo, dir], { stdio: ["ignore", "inherit", "pipe"] });
  } catch (error) {
    fail(`could not clone ${SET.repo} (${String(error.stderr ?? error.message).trim()}); pass --from a clone of it`);
  }
  return dir;
}

function fail(message) {
  console.error(`import-tasks: ${message}`);
  process.exit(1);
}
