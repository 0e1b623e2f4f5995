// Loads the query sets vendored beside this script: MetaTool (metatool/, MIT, see its README.md), its
// Chinese and Japanese translations (multilingual/, see its README.md), the acronym cases (acronyms/) and
// REST requests (rest/) over Trello's public spec, vendored in test/fixtures/apis-guru/, alone and among four
// other APIs; and MCP-Bench's servers and requests when built on this machine (mcp-bench/README.md).
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_DESCRIPTION_LENGTH } from "../../../dist/catalog/limits.js";
import { openApiSource } from "../../../dist/sources/openapi-source.js";

/** The project root: three levels above this script (scripts/bench/search-quality). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

const here = dirname(fileURLToPath(import.meta.url));

/** Parses a JSON Lines file (relative to this script's folder) into an array of records. */
function readJsonLines(file) {
  return readFileSync(resolve(here, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** One translated set: the translated tools keep MetaTool's id and name, with the description in `lang`. */
function translatedSet(lang, label) {
  const names = new Map(readJsonLines("metatool/metatool.catalog.jsonl").map((tool) => [tool.id, tool.name]));
  const tools = readJsonLines("multilingual/catalog.jsonl").map((tool) => ({
    id: tool.id,
    name: names.get(tool.id),
    description: tool[lang],
  }));
  const queries = readJsonLines("multilingual/queries.jsonl")
    .filter((query) => query.lang === lang)
    .map((query) => ({ ...query, split: lang }));
  return { name: label, folder: "multilingual/", tools, queries };
}

/**
 * Trello's operations as `forage mount` reads them from the spec (src/cli/openapi-source.ts): named by
 * operationId, with the capability note naming the HTTP method and path, and the input schema (Forage
 * searches its field names and descriptions; the baseline does not).
 */
function restSet() {
  return {
    name: "REST requests (Trello)",
    folder: "rest/",
    tools: apiTools("trello.com.json"),
    queries: readJsonLines("rest/queries.jsonl").map((query) => ({ ...query, split: "rest" })),
  };
}

/** One vendored spec's operations (test/fixtures/apis-guru/), each a tool of `server` when given (`server.path`). */
function apiTools(file, server) {
  const text = readFileSync(resolve(projectRoot, "test/fixtures/apis-guru", file), "utf8");
  return openApiSource(text, file.split(".")[0], file).operations.map((operation) => ({
    id: server === undefined ? operation.path : `${server}.${operation.path}`,
    name: operation.path,
    ...(server === undefined ? {} : { server }),
    description: operation.description,
    capabilities: operation.capabilities,
    input: operation.input,
  }));
}

/**
 * The same requests over a mount of five APIs, each under its own name (`trello.addCards`,
 * `traccar.getDevices`): the other four are distractors, so a rule that weighs a namespace must
 * not pull a request away from the API that answers it.
 */
function restAmongApisSet() {
  const specs = [
    "trello.com.json",
    "anchore.io.json",
    "microcks.local.json",
    "powerdns.local.json",
    "traccar.org.json",
  ];
  const tools = specs.flatMap((file) => apiTools(file, file.split(".")[0]));
  const queries = readJsonLines("rest/queries.jsonl").map((query) => ({
    ...query,
    split: "rest",
    relevant: query.relevant.map((id) => `trello.${id}`),
  }));
  return { name: "REST requests (Trello among 5 APIs)", folder: "rest/", tools, queries };
}

/**
 * MCP-Bench's servers and requests, when built on this machine (mcp-bench/build.mjs; not vendored, see
 * mcp-bench/README.md): each tool is named `<server>.<tool>`, as a mount of several MCP servers names it.
 */
function mcpBenchSet(metaTool) {
  if (!existsSync(resolve(here, "mcp-bench/data/queries.jsonl"))) {
    console.log("MCP-Bench: not built here (see scripts/bench/search-quality/mcp-bench/README.md); skipped.");
    return [];
  }
  const mcpBench = {
    name: "MCP-Bench requests",
    folder: "mcp-bench/",
    // Forage's catalog refuses a description over its bound; both engines get the same text, cut there.
    tools: readJsonLines("mcp-bench/data/catalog.jsonl").map((tool) => ({
      ...tool,
      description: tool.description.slice(0, MAX_DESCRIPTION_LENGTH),
    })),
    queries: readJsonLines("mcp-bench/data/queries.jsonl"),
  };
  // Servers of very different sizes in one mount: MCP-Bench's 28 (1 to 53 tools) and MetaTool's 199 tools, each
  // its own one-tool server; both sets' queries. A rule that weighs a namespace by its size shows here.
  const mixed = {
    name: "MCP-Bench and MetaTool servers together",
    folder: "mcp-bench/ + metatool/",
    tools: [...mcpBench.tools, ...metaTool.tools.map((tool) => ({ ...tool, server: tool.name }))],
    queries: [
      ...mcpBench.queries.map((query) => ({ ...query, split: "mcp-bench" })),
      ...metaTool.queries.map((query) => ({ ...query, split: "metatool" })),
    ],
  };
  return [mcpBench, mixed];
}

/** Every set: `{ name, folder, tools: {id, name, server?, description, capabilities?}[], queries: {id, split, query, relevant}[] }`. */
export function loadSets() {
  const metaTool = {
    name: "MetaTool",
    folder: "metatool/",
    tools: readJsonLines("metatool/metatool.catalog.jsonl"),
    queries: readJsonLines("metatool/metatool.queries.jsonl"),
  };
  return [
    metaTool,
    translatedSet("zh", "MetaTool, Chinese"),
    translatedSet("ja", "MetaTool, Japanese"),
    {
      name: "Acronym plurals",
      folder: "acronyms/",
      tools: readJsonLines("acronyms/catalog.jsonl"),
      queries: readJsonLines("acronyms/queries.jsonl").map((query) => ({ ...query, split: "acronyms" })),
    },
    restSet(),
    restAmongApisSet(),
    ...mcpBenchSet(metaTool),
  ];
}
