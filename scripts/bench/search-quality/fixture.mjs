// Loads the query sets vendored beside this script: MetaTool (metatool/, MIT, see its README.md), its
// Chinese and Japanese translations (multilingual/, see its README.md), the acronym cases (acronyms/) and
// REST requests (rest/) over Trello's public spec, vendored in test/fixtures/apis-guru/.
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
  const text = readFileSync(resolve(projectRoot, "test/fixtures/apis-guru/trello.com.json"), "utf8");
  const tools = openApiSource(text, "trello", "trello.com.json").operations.map((operation) => ({
    id: operation.path,
    name: operation.path,
    description: operation.description,
    capabilities: operation.capabilities,
    input: operation.input,
  }));
  const queries = readJsonLines("rest/queries.jsonl").map((query) => ({ ...query, split: "rest" }));
  return { name: "REST requests (Trello)", folder: "rest/", tools, queries };
}

/**
 * MCP-Bench's servers and requests, when built on this machine (mcp-bench/build.mjs; not vendored, see
 * mcp-bench/README.md): each tool is named `<server>.<tool>`, as a mount of several MCP servers names it.
 */
function mcpBenchSet() {
  if (!existsSync(resolve(here, "mcp-bench/data/queries.jsonl"))) {
    console.log("MCP-Bench: not built here (see scripts/bench/search-quality/mcp-bench/README.md); skipped.");
    return [];
  }
  return [
    {
      name: "MCP-Bench requests",
      folder: "mcp-bench/",
      // Forage's catalog refuses a description over its bound; both engines get the same text, cut there.
      tools: readJsonLines("mcp-bench/data/catalog.jsonl").map((tool) => ({
        ...tool,
        description: tool.description.slice(0, MAX_DESCRIPTION_LENGTH),
      })),
      queries: readJsonLines("mcp-bench/data/queries.jsonl"),
    },
  ];
}

/** Every set: `{ name, folder, tools: {id, name, server?, description, capabilities?}[], queries: {id, split, query, relevant}[] }`. */
export function loadSets() {
  return [
    {
      name: "MetaTool",
      folder: "metatool/",
      tools: readJsonLines("metatool/metatool.catalog.jsonl"),
      queries: readJsonLines("metatool/metatool.queries.jsonl"),
    },
    translatedSet("zh", "MetaTool, Chinese"),
    translatedSet("ja", "MetaTool, Japanese"),
    {
      name: "Acronym plurals",
      folder: "acronyms/",
      tools: readJsonLines("acronyms/catalog.jsonl"),
      queries: readJsonLines("acronyms/queries.jsonl").map((query) => ({ ...query, split: "acronyms" })),
    },
    restSet(),
    ...mcpBenchSet(),
  ];
}
