// docs/catalog.md, "Search prepared beforehand": what the first search needs is built as steps
// before any query, for a catalog and for a narrowed view; a search that comes halfway finishes
// it, and every answer is the one a catalog searched directly gives. docs/native.md, "Serving before
// the table is built": a tree's preparation ends by answering a query it keeps nothing of.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, test, vi } from "vitest";
import { CatalogView, searchPreparation } from "../src/catalog/catalog-view.js";
import { type Catalog, createCatalog, createForage, type Forage, scaledExampleOperations } from "../src/index.js";
import { runInSlices } from "../src/slices.js";
import { openApiSource } from "../src/sources/openapi-source.js";
import { type CatalogTreeOptions, createCatalogTree } from "../src/tree/catalog-tree.js";
import { WARMING_QUERY } from "../src/tree/ranked-search/query-directories.js";
import type { VirtualTree } from "../src/tree/virtual-tree.js";

const QUERIES = ["read a file", "send an email", "weather forecast", "merge pull request", "kill", "calend", "zzz"];

/** A catalog whose operations repeat, so equivalent operations merge into results with peers. */
function fresh(): Catalog {
  return createCatalog({ revision: "r1", operations: scaledExampleOperations(300) });
}

const answers = (forage: Forage) => QUERIES.map((query) => forage.search(query, { limit: 20 }));

const treeOf = (catalog: Catalog, options: Partial<CatalogTreeOptions> = {}) =>
  createCatalogTree(catalog, { revision: catalog.revision, stamp: catalog.stamp(), providerVersion: "0", ...options });

async function prepare(tree: VirtualTree): Promise<void> {
  if (tree.preparationSteps === undefined) throw new Error("a catalog tree has preparation steps");
  await runInSlices(tree.preparationSteps());
}

const text = (tree: VirtualTree, path: string) => new TextDecoder().decode(tree.read(path));
const queryFiles = (tree: VirtualTree) =>
  QUERIES.flatMap((query) => ["@index.txt", "results.json"].map((file) => text(tree, `/.search/${query}/${file}`)));

describe("search prepared before any query", () => {
  test("a catalog's steps build it without a query, and searches answer as on a catalog never prepared", async () => {
    const catalog = fresh();
    const preparation = searchPreparation(catalog);
    expect(preparation.ready()).toBe(false);
    await runInSlices(preparation.steps);
    expect(preparation.ready()).toBe(true);
    expect(answers(catalog)).toEqual(answers(fresh()));
    expect(answers(catalog)[0]?.results[0]?.peers?.length).toBeGreaterThan(0);
  });

  test("a search that comes halfway finishes the work, and the steps then find nothing left", () => {
    const catalog = fresh();
    const preparation = searchPreparation(catalog);
    for (let step = 0; step < 5; step += 1) expect(preparation.steps.next().done).toBe(false);
    expect(preparation.ready()).toBe(false);
    expect(answers(catalog)).toEqual(answers(fresh()));
    expect(preparation.ready()).toBe(true);
    expect(preparation.steps.next().done).toBe(true);
  });

  test("a narrowed view prepares its own index, over its bound operations only", async () => {
    const catalog = fresh();
    const bound = ["tenant0001.**", "tenant0002.mail.**"];
    const view = createForage(catalog, { bound });
    const preparation = searchPreparation(view);
    await runInSlices(preparation.steps);
    expect(preparation.ready()).toBe(true);
    expect(searchPreparation(catalog).ready()).toBe(false);
    expect(answers(view)).toEqual(answers(createForage(fresh(), { bound })));
  });

  test("a catalog tree's preparation prepares its catalog's search", async () => {
    const catalog = fresh();
    const tree = createCatalogTree(catalog, {
      revision: catalog.revision,
      stamp: catalog.stamp(),
      providerVersion: "0",
    });
    if (tree.preparationSteps === undefined) throw new Error("a catalog tree has preparation steps");
    await runInSlices(tree.preparationSteps());
    expect(searchPreparation(catalog).ready()).toBe(true);
  });

  test("a catalog tree's preparation asks the catalog one query and keeps nothing of it", async () => {
    // A catalog is frozen: the search of the view behind every catalog is watched instead.
    const search = vi.spyOn(CatalogView.prototype, "search");
    const asked = () => search.mock.calls.map(([query]) => query);
    try {
      const prepared = treeOf(fresh());
      await prepare(prepared);
      expect(asked()).toEqual([WARMING_QUERY]);
      text(prepared, `/.search/${WARMING_QUERY}/results.json`);
      expect(asked()).toEqual([WARMING_QUERY, WARMING_QUERY]);
      expect(queryFiles(prepared)).toEqual(queryFiles(treeOf(fresh())));
    } finally {
      search.mockRestore();
    }
  });

  test("a subtree of a source whose every operation is not validated prepares, and its queries find them", async () => {
    const galaxy = readFileSync(createRequire(import.meta.url).resolve("@scalar/galaxy/latest.json"), "utf8");
    const { operations, infos } = openApiSource(galaxy, "galaxy", "galaxy.json");
    expect(operations).toEqual([]);
    const catalog = createCatalog({ revision: "r", operations: [] });
    const tree = treeOf(catalog, { subtree: "galaxy", sources: infos });
    await prepare(tree);
    expect(text(tree, "/.search/planets/@index.txt")).toContain("[not validated] galaxy.");
  });

  test("a Forage made elsewhere has nothing to prepare", () => {
    const preparation = searchPreparation({ ...fresh() });
    expect(preparation.ready()).toBe(true);
    expect(preparation.steps.next().done).toBe(true);
  });
});
