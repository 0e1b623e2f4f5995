// The two engines under test, behind one interface: rank(query) → groups of tool ids, best first.
import MiniSearch from "minisearch";
import { z } from "zod";
// The core modules directly, not dist/index.js: the entry point also loads every other part of the
// package, and a half-built one elsewhere must not stop this benchmark.
import { createCatalog } from "../../../dist/catalog/create-catalog.js";
import { digestMatches } from "../../../dist/tree/ranked-search/digest-spread.js";
import { toolPaths } from "./tool-paths.mjs";

/** How deep both engines are read: Forage returns at most 50 results per search. */
export const DEPTH = 50;

/**
 * Forage over the tools: one operation per tool, the tool's description and
 * capability notes (the REST set's HTTP method and path), and its input
 * schema where the set has one (the REST set), else an empty one. A merged result (with peers) is one group: all its tools sit at
 * that rank, since Forage shows them as one answer.
 */
export function forageEngine(tools) {
  const { pathById, idByPath } = toolPaths(tools);
  const empty = z.object({});
  const catalog = createCatalog({
    revision: "metatool",
    operations: tools.map((tool) => ({
      path: pathById.get(tool.id),
      input: tool.input ?? empty,
      description: tool.description,
      capabilities: tool.capabilities ?? [],
    })),
  });
  const groups = (results) =>
    results.map((result) => [result.path, ...(result.peers ?? [])].map((path) => idByPath.get(path)));
  return {
    name: "Forage",
    rank(query) {
      return groups(catalog.search(query, { limit: DEPTH }).results);
    },
    /** What a mount's `.search/<query>/@index.txt` shows: the best four, spread over namespaces, the weak ones left out (digest-spread.ts). */
    digest(query) {
      return groups(digestMatches(catalog.search(query, { limit: DEPTH }).results, (result) => result.score));
    },
  };
}

/** The baseline: MiniSearch with default options over server name (if any), name, description and capability notes, searched with default options. */
export function miniSearchEngine(tools) {
  const index = new MiniSearch({ fields: ["server", "name", "description", "capabilities"] });
  index.addAll(
    tools.map((tool) => ({
      id: tool.id,
      server: tool.server ?? "",
      name: tool.name,
      description: tool.description,
      capabilities: (tool.capabilities ?? []).join("\n"),
    })),
  );
  return {
    name: "MiniSearch (BM25, defaults)",
    rank(query) {
      return index
        .search(query)
        .slice(0, DEPTH)
        .map((result) => [result.id]);
    },
  };
}
