// docs/catalog.md, "Operations and catalogs": creation is written once, as steps that yield after
// every 8 operations they prepare, each chunk they stamp and every 256 operations they index by path;
// run in slices (a mount's reload) they make the same catalog, and fail the same way, as createCatalog.
import { describe, expect, test } from "vitest";
import { createCatalogSteps } from "../src/catalog/create-catalog.js";
import {
  type Catalog,
  type CatalogDefinition,
  createCatalog,
  type Summary,
  scaledExampleOperations,
} from "../src/index.js";
import { runInSlices } from "../src/slices.js";
import { variedOperations } from "./fixtures/varied-catalog.js";

/** What a caller can observe of a catalog: revision, size, stamp, every list page and every description. */
function observed(catalog: Catalog) {
  const results: Summary[] = [];
  for (let cursor: string | null | undefined; cursor !== null; ) {
    const page = catalog.list({ limit: 50, cursor });
    results.push(...page.results);
    cursor = page.nextCursor;
  }
  return {
    revision: catalog.revision,
    size: catalog.size,
    stamp: catalog.stamp(),
    results,
    descriptions: results.map((summary) => {
      const { typescript, ...rest } = catalog.describe(summary.path) as { typescript?: string };
      return { ...rest, typescript };
    }),
  };
}

/** The error createCatalog throws for a definition, as { name, code, message }. */
function failureOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    const { name, message, code } = error as Error & { code?: string };
    return { name, message, code };
  }
  throw new Error("expected a failure");
}

describe("createCatalogSteps in slices", () => {
  test.each([
    ["the varied catalog", { revision: "v", operations: variedOperations }],
    ["the example scaled to 300 operations", { revision: "s", operations: scaledExampleOperations(300) }],
    ["one operation", { revision: "one", operations: variedOperations.slice(0, 1) }],
  ])("%s: the same catalog as createCatalog", async (_name, definition: CatalogDefinition) => {
    const sliced = await runInSlices(createCatalogSteps(definition));
    expect(observed(sliced)).toEqual(observed(createCatalog(definition)));
  });

  test.each([
    ["a duplicate path", { revision: "d", operations: [variedOperations[0], variedOperations[0]] }],
    ["no operations array", { revision: "n", operations: "none" }],
    ["an empty revision", { revision: "", operations: variedOperations }],
  ])("%s: the same error as createCatalog", async (_name, definition) => {
    const expected = failureOf(() => createCatalog(definition as CatalogDefinition));
    const sliced = await runInSlices(createCatalogSteps(definition as CatalogDefinition)).then(
      () => "no failure",
      (error: Error & { code?: string }) => ({ name: error.name, message: error.message, code: error.code }),
    );
    expect(sliced).toEqual(expected);
  });

  test("yields after every 8 operations it prepares and every 256 it indexes by path", () => {
    const operations = scaledExampleOperations(1024);
    const work = createCatalogSteps({ revision: "y", operations });
    let yields = 0;
    while (!work.next().done) yields++;
    expect(yields).toBeGreaterThanOrEqual(operations.length / 8 + operations.length / 256);
  });
});
