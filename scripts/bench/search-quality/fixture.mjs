// Loads the MetaTool tool-search set vendored beside this script (metatool/, MIT, see its README.md).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root: three levels above this script (scripts/bench/search-quality). */
export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The vendored MetaTool folder, resolved from this script, never from the cwd. */
export const fixtureDir = resolve(dirname(fileURLToPath(import.meta.url)), "metatool");

/** Parses a JSON Lines file into an array of records. */
function readJsonLines(file) {
  return readFileSync(resolve(fixtureDir, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** The tools ({ id, name, description }) and queries ({ id, split, query, relevant }). */
export function loadFixture() {
  return { tools: readJsonLines("metatool.catalog.jsonl"), queries: readJsonLines("metatool.queries.jsonl") };
}
