// An operation the catalog refuses on its own (its description past the response bound) is still
// its source's operation: docs/mount.md, "Not validated operations" (shown from its schema, with the
// catalog's reason), and docs/catalog.md's bounds, which the catalog keeps exactly.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadCatalog } from "../src/sources/load-catalog.js";
import { parseSourceSpec } from "../src/sources/source-spec.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";

const directory = mkdtempSync(join(tmpdir(), "forage-oversized-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A spec with one small operation and one whose forty long parameter descriptions declare past 64 KiB. */
function spec(): string {
  const parameters = Array.from({ length: 40 }, (_, index) => ({
    name: `field${index}`,
    in: "query",
    description: `Field ${index}: ${"a long explanation ".repeat(100)}`,
    schema: { type: "string" },
  }));
  const ok = { responses: { "200": { description: "ok" } } };
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Wide", version: "1" },
    paths: {
      "/small": { get: { operationId: "small", summary: "A small one.", ...ok } },
      "/wide": { get: { operationId: "wide", summary: "A wide one.", parameters, ...ok } },
    },
  });
}

describe("an operation the catalog refuses alone", () => {
  test("stays out of the catalog and is shown not validated, with the catalog's reason", async () => {
    const file = join(directory, "wide.json");
    writeFileSync(file, spec());
    const { catalog, sources } = await loadCatalog([parseSourceSpec(file)]);
    expect(catalog.list({}).results.map(({ path }) => path)).toEqual(["wide.small"]);
    const [info] = sources;
    expect(info?.unvalidated?.map(({ segment, name }) => [segment, name])).toEqual([["wide", "GET /wide"]]);
    expect(info?.unvalidated?.[0]?.reason).toMatch(/^the catalog refuses it: .*over the response bound/);
    const tree = createCatalogTree(catalog, { revision: "r", stamp: "s", providerVersion: "0", sources });
    const json = JSON.parse(new TextDecoder().decode(tree.read("/wide/wide.json")));
    expect(json).toMatchObject({ path: "wide.wide", validated: false });
    expect(Object.keys(json.inputSchema.properties)).toHaveLength(40);
  });
});
