// Builds the MCP-Bench development set on this machine from a local copy of Accenture/mcp-bench (Apache-2.0):
// the tools of its 28 MCP servers, read from each server's source as it declares them, and its tasks' requests
// written as a user would ("fuzzy_description"), each labelled with the tools its dependency analysis names.
// Nothing is vendored: the servers' sources carry their own licences. Usage:
//   node scripts/bench/search-quality/mcp-bench/build.mjs <git dir of Accenture/mcp-bench>
// Writes catalog.jsonl and queries.jsonl into data/ beside this script (git-ignored).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const gitDir = process.argv[2];
if (!gitDir) {
  console.error("usage: build.mjs <git dir of Accenture/mcp-bench>");
  process.exit(2);
}

const git = (...args) => execFileSync("git", ["--git-dir", gitDir, ...args], { maxBuffer: 1 << 28, encoding: "utf8" });
const show = (path) => {
  try {
    return git("show", `HEAD:${path}`);
  } catch {
    return ""; // a file the snapshot lists but does not hold
  }
};

/** The files that may declare tools: sources, outside tests, builds, websites and vendored packages. */
const sources = git("ls-tree", "-r", "--name-only", "HEAD", "mcp_servers")
  .split("\n")
  .filter(
    (path) =>
      /\.(py|ts|js)$/.test(path) && !/node_modules|\/tests?\/|test_|\.d\.ts$|\/dist\/|website|Bench\//.test(path),
  );

/** A string literal of Python or JavaScript, or several joined by `+` or adjacency; its text. */
const LITERAL =
  String.raw`(?:[rfbu]?"""[\s\S]*?"""|[rfbu]?'''[\s\S]*?'''|[rfbu]?"(?:[^"\\\n]|\\.)*"|[rfbu]?'(?:[^'\\\n]|\\.)*'|` +
  "`(?:[^`\\\\]|\\\\.)*`)";
const LITERALS = String.raw`${LITERAL}(?:\s*\+?\s*${LITERAL})*`;
function textOf(literals) {
  const parts = literals.match(new RegExp(LITERAL, "g")) ?? [];
  return parts
    .map((part) => part.replace(/^[rfbu]?("""|'''|"|'|`)/, "").replace(/("""|'''|"|'|`)$/, ""))
    .join("")
    .replace(/\\n/g, "\n")
    .replace(/\\(["'`])/g, "$1")
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n[\s]*/g, "\n")
    .trim();
}

/** Names bound to a string in a file (`NAME = "x"`, `GET_TIME = "get_time"`), to read `name=Tools.GET_TIME.value`. */
function constants(text) {
  const found = new Map();
  for (const match of text.matchAll(new RegExp(String.raw`\b(\w+)\s*(?::\s*\w+\s*)?=\s*(${LITERALS})`, "g"))) {
    found.set(match[1], textOf(match[2]));
  }
  return found;
}
const stringOf = (expression, names) => {
  const literal = expression.match(new RegExp(`^${LITERALS}`));
  if (literal) return textOf(literal[0]);
  const last = expression.match(/(\w+)(?:\.value)?\s*$/);
  return last ? names.get(last[1]) : undefined;
};

/** Every tool a file declares, in the shapes these servers use. */
function toolsIn(text) {
  const names = constants(text);
  const tools = [];
  // Python: @mcp.tool(...) over a function, its docstring the description unless the decorator gives one.
  for (const match of text.matchAll(/@\w+\.tool\(([^)]*)\)\s*\n(?:\s*@[^\n]*\n)*\s*(?:async\s+)?def\s+(\w+)\s*\(/g)) {
    const args = match[1];
    const rest = text.slice(match.index + match[0].length);
    const body = rest.slice(0, (rest.search(/\n\s*(?:@|def |async def |class )/) + 1 || rest.length + 1) - 1);
    const doc = body.match(/:\s*\n\s*(r?"""[\s\S]*?"""|r?'''[\s\S]*?''')/);
    const name = args.match(new RegExp(`name\\s*=\\s*(${LITERAL})`));
    const description = args.match(new RegExp(`description\\s*=\\s*(${LITERALS})`));
    tools.push({
      name: name ? textOf(name[1]) : match[2],
      description: description ? textOf(description[1]) : doc ? textOf(doc[1]) : "",
      decorated: true,
    });
  }
  // Python Tool(name=..., description=...) and JavaScript { name: ..., description: ... }.
  const pair = new RegExp(
    String.raw`\bname\s*[=:]\s*([^,\n]+?)\s*,\s*(?:#[^\n]*\n\s*)?description\s*[=:]\s*(${LITERALS}|[\w.]+)`,
    "g",
  );
  for (const match of text.matchAll(pair)) {
    const name = stringOf(match[1].trim(), names);
    const description = stringOf(match[2], names);
    if (name && description) tools.push({ name, description });
  }
  // JavaScript server.tool("name", "description", ...) and registerTool("name", { description: ... }).
  for (const match of text.matchAll(
    new RegExp(
      String.raw`\.(?:tool|registerTool)\(\s*(${LITERAL})\s*,\s*(?:\{\s*(?:title\s*:\s*${LITERAL}\s*,\s*)?description\s*:\s*)?(${LITERALS})`,
      "g",
    ),
  )) {
    tools.push({ name: textOf(match[1]), description: textOf(match[2]) });
  }
  // A class or module declaring one tool: `name = 'x'` / `NAME = "x"` and `description = ...` / `DESCRIPTION = ...`.
  const single = text.match(
    new RegExp(
      String.raw`\b(?:readonly\s+)?(?:name|NAME)\s*(?::\s*string\s*)?=\s*(${LITERAL})[\s\S]{0,200}?\b(?:readonly\s+)?(?:description|DESCRIPTION)\s*(?::\s*string\s*)?=\s*(${LITERALS})`,
    ),
  );
  if (single) tools.push({ name: textOf(single[1]), description: textOf(single[2]) });
  // A decorated Python function is a tool even without a docstring (its description is then empty, as its
  // server lists it); the other shapes match other code too, so they need a description that reads as one.
  return tools.filter(
    (tool) => /^[A-Za-z_][\w-]*$/.test(tool.name) && (tool.decorated || tool.description.length >= 10),
  );
}

/** The server each source folder is, by the task files' names for them (mcp_servers/commands.json). */
const commands = JSON.parse(show("mcp_servers/commands.json"));
const serverByFolder = new Map(
  Object.entries(commands).map(([server, { cwd }]) => [
    resolve("/mcp_servers", cwd.replace(/^\.\.\//, "")).slice(1),
    server,
  ]),
);
const serverOf = (path) => {
  let best;
  for (const [folder, server] of serverByFolder) {
    if (path.startsWith(`${folder}/`) || path.startsWith(`${folder.split("/").slice(0, 2).join("/")}/`)) {
      if (!best || folder.length > best.folder.length) best = { folder, server };
    }
  }
  return best?.server;
};

const catalog = new Map();
for (const path of sources) {
  const server = serverOf(path);
  if (!server) continue;
  for (const tool of toolsIn(show(path))) {
    const id = `${server}:${tool.name}`;
    const kept = catalog.get(id);
    if (!kept || kept.description.length < tool.description.length) {
      catalog.set(id, { id, server, name: tool.name, description: tool.description, source: path });
    }
  }
}

/**
 * Requests: the user's wording of each task; relevant = the tools of the task's servers whose names its
 * dependency analysis writes as a whole word ("maps_geocode → search_nearby", "SciComp:create_tensor").
 */
const queries = [];
let unlabelled = 0;
for (const file of ["single", "multi_2server", "multi_3server"]) {
  const tasks = JSON.parse(show(`tasks/mcpbench_tasks_${file}_runner_format.json`)).server_tasks;
  for (const group of tasks) {
    for (const task of group.tasks) {
      const servers = new Set(group.server_name.split("+"));
      const named = (name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(task.dependency_analysis ?? "");
      const relevant = [...catalog.values()]
        .filter((tool) => servers.has(tool.server) && named(tool.name))
        .map((tool) => tool.id);
      if (relevant.length === 0 || !task.fuzzy_description) {
        unlabelled += 1;
        continue;
      }
      queries.push({ id: task.task_id, split: file, query: task.fuzzy_description.trim(), relevant });
    }
  }
}

const out = resolve(here, "data");
mkdirSync(out, { recursive: true });
const jsonl = (rows) => `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;
writeFileSync(resolve(out, "catalog.jsonl"), jsonl([...catalog.values()]));
writeFileSync(resolve(out, "queries.jsonl"), jsonl(queries));
const servers = new Map();
for (const tool of catalog.values()) servers.set(tool.server, (servers.get(tool.server) ?? 0) + 1);
console.log(
  `${catalog.size} tools from ${servers.size} servers; ${queries.length} requests (${unlabelled} without a tool found)`,
);
for (const [server, count] of servers) console.log(`  ${server}: ${count}`);
