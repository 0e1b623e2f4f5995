// Loads the query sets vendored beside this script: MetaTool (metatool/, MIT, see its README.md), its
// Chinese and Japanese translations (multilingual/, see its README.md), the acronym cases (acronyms/) and
// REST requests (rest/) over Trello's public spec, vendored in test/fixtures/apis-guru/.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
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

/** Every set: `{ name, folder, tools: {id, name, description, capabilities?}[], queries: {id, split, query, relevant}[] }`. */
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
  ];
}
