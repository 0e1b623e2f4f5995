// An operation the catalog refuses on its own (its description past the response bound) is still
// its source's operation: docs/mount.md, "Not validated operations" (shown from its schema, with the
// catalog's reason) and "What a not-validated operation carries" (its schemas cut to
// MAX_UNVALIDATED_SCHEMA_BYTES, each cut one the note naming where the whole is); docs/catalog.md's
// bounds, which the catalog keeps exactly, and "Every refusal in one pass", which finds them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { MAX_DESCRIPTION_RESPONSE } from "../src/index.js";
import { loadCatalog } from "../src/sources/load-catalog.js";
import { parseSourceSpec } from "../src/sources/source-spec.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";
import { MAX_UNVALIDATED_SCHEMA_BYTES, notCarriedSchema } from "../src/unvalidated-schema-bound.js";
import { sh } from "./helpers/mount-daemon.js";
import { scratchDirectories } from "./helpers/scratch.js";

const cli = `'${process.execPath}' '${join(process.cwd(), "dist/cli/main.js")}'`;
const tsc = `'${process.execPath}' '${join(process.cwd(), "node_modules/typescript/bin/tsc")}'`;
const directory = scratchDirectories("forage-oversized");

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

/** The bytes the bound counts: the schemas' JSON text without white space. */
function schemaBytes(described: { inputSchema: unknown; outputSchema?: unknown }): number {
  const sides = [described.inputSchema, described.outputSchema].filter((schema) => schema !== undefined);
  return sides.reduce<number>((sum, schema) => sum + Buffer.byteLength(JSON.stringify(schema)), 0);
}

/** Every subschema of `schema` that is a note, by the pointer it names. */
function notes(schema: unknown, found: string[] = []): string[] {
  if (typeof schema !== "object" || schema === null) return found;
  const { description } = schema as { description?: unknown };
  if (typeof description === "string" && description.startsWith("not carried: ")) found.push(description);
  for (const value of Object.values(schema)) notes(value, found);
  return found;
}

describe("an operation the catalog refuses alone", () => {
  test("stays out of the catalog and is shown not validated, with the catalog's reason, cut to the bound", async () => {
    const file = join(directory(), "wide.json");
    writeFileSync(file, spec());
    const { catalog, sources } = await loadCatalog([parseSourceSpec(file)]);
    expect(catalog.list({}).results.map(({ path }) => path)).toEqual(["wide.small"]);
    const [info] = sources;
    expect(info?.unvalidated?.map(({ segment, name }) => [segment, name])).toEqual([["wide", "GET /wide"]]);
    expect(info?.unvalidated?.[0]?.reason).toMatch(
      /^the catalog refuses it: .*over the response bound.*; past the first 65536 bytes of JSON of its schemas, \d+ schemas are carried as any value \(input #\/properties\/field\d+/,
    );
    const tree = createCatalogTree(catalog, { revision: "r", stamp: "s", providerVersion: "0", sources });
    const json = JSON.parse(new TextDecoder().decode(tree.read("/wide/wide.json")));
    expect(json).toMatchObject({ path: "wide.wide", validated: false });
    // Every field is still there; the ones past the bound are the note, naming where the whole is.
    const fields = Object.entries(json.inputSchema.properties as Record<string, unknown>);
    expect(fields).toHaveLength(40);
    const cut = fields.filter(([name, schema]) =>
      expect.objectContaining(notCarriedSchema(`GET /wide (input #/properties/${name})`)).asymmetricMatch(schema),
    );
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(40);
    expect(schemaBytes(json)).toBeLessThanOrEqual(MAX_UNVALIDATED_SCHEMA_BYTES);
  });

  test("a real spec (bunq's API, trimmed): its refused operations' files are cut to the bound, say so, and tsc accepts them", () => {
    const out = join(directory(), "tree");
    const result = sh(`${cli} export bunq='test/fixtures/apis-guru/bunq.com.json' '${out}'`);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exported 1 operation and 2 not validated as/);
    expect(JSON.parse(readFileSync(join(out, "bunq/CREATE_Installation.json"), "utf8")).validated).toBe(true);
    const refused = [
      ["READ_User", "GET /user/{itemId}"],
      ["CREATE_SessionServer", "POST /session-server"],
    ];
    for (const [name, operation] of refused) {
      const base = join(out, `bunq/${name}`);
      const described = JSON.parse(readFileSync(`${base}.json`, "utf8"));
      expect(described.validated).toBe(false);
      expect(described.reason).toMatch(
        /^the catalog refuses it: .*its description is \d+ characters, over the response bound .*; past the first 65536 bytes of JSON of its schemas, \d+ schemas are carried as any value \(output #\//,
      );
      expect(schemaBytes(described)).toBeLessThanOrEqual(MAX_UNVALIDATED_SCHEMA_BYTES);
      const cut = notes(described.outputSchema);
      expect(cut.length).toBeGreaterThan(0);
      for (const note of cut) expect(note).toContain(`the whole is the source's own schema at ${operation} (output #/`);
      const declaration = readFileSync(`${base}.d.ts`, "utf8");
      expect(declaration).toMatch(/^\/\/ \[not validated\]/);
      expect(declaration).toContain("past the first 65536 bytes of JSON of its schemas");
      expect(declaration).toContain("not carried: ");
      // Uncut, each declared about 90,000 characters; cut, it fits what one description may hold.
      expect(declaration.length).toBeLessThan(MAX_DESCRIPTION_RESPONSE);
    }
    const checked = sh(`${tsc} -p '${out}'`);
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.status).toBe(0);
  });
});
