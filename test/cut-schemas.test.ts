// docs/mount.md, "What a not-validated operation carries": an operation's schemas as projected are cut to
// MAX_UNVALIDATED_SCHEMA_BYTES breadth first, notes counted, each cut schema the one note naming where the
// whole is; schemas within the bound are left as they are. A unit test of src/sources/cut-schemas.ts alone.
import { describe, expect, test } from "vitest";
import type { JsonSchema } from "../src/json-value.js";
import { cutSchemas } from "../src/sources/cut-schemas.js";
import { MAX_UNVALIDATED_SCHEMA_BYTES, notCarriedSchema } from "../src/unvalidated-schema-bound.js";

const bytes = (schema: JsonSchema | undefined): number =>
  schema === undefined ? 0 : Buffer.byteLength(JSON.stringify(schema));

/** An object of `width` properties, each `depth` levels of the same below it; leaves carry `text`. */
function tree(width: number, depth: number, text: string): JsonSchema {
  if (depth === 0) return { type: "string", description: text };
  const properties = Object.fromEntries(
    Array.from({ length: width }, (_, index) => [`p${index}`, tree(width, depth - 1, text)]),
  );
  return { type: "object", properties, required: ["p0"] };
}

describe("cutSchemas", () => {
  test("schemas within the bound are returned as they are", () => {
    const input = tree(3, 3, "é".repeat(10));
    expect(cutSchemas({ input }, "GET /x")).toEqual({ input, cut: [] });
  });

  test("past the bound, both sides together fit it, the nearest schemas are kept and the farthest are notes", () => {
    const input = tree(6, 4, "a".repeat(200));
    const output = tree(6, 3, "b".repeat(200));
    expect(bytes(input) + bytes(output)).toBeGreaterThan(MAX_UNVALIDATED_SCHEMA_BYTES);
    const { input: cutInput, output: cutOutput, cut } = cutSchemas({ input, output }, "POST /things");
    expect(bytes(cutInput) + bytes(cutOutput)).toBeLessThanOrEqual(MAX_UNVALIDATED_SCHEMA_BYTES);
    // Near the roots nothing is cut: the first levels keep their keywords.
    expect(cutInput).toMatchObject({ type: "object", required: ["p0"], properties: { p0: { type: "object" } } });
    expect(cutOutput).toMatchObject({ type: "object", properties: { p5: { type: "object" } } });
    expect(cut.length).toBeGreaterThan(0);
    // Each cut one is the note naming its place in the operation's own schema.
    const [first] = cut;
    expect(first).toMatch(/^(input|output) #\/properties\/p\d+\/properties\/p\d+/);
    const pointer = (first as string)
      .slice((first as string).indexOf("#") + 1)
      .split("/")
      .slice(1);
    const side = (first as string).startsWith("input") ? cutInput : cutOutput;
    const at = pointer.reduce<unknown>((node, token) => (node as Record<string, unknown>)[token], side);
    expect(at).toEqual(notCarriedSchema(`POST /things (${first})`));
  });

  test("a leaf no larger than its note stays whole even past the bound", () => {
    const input = tree(40, 2, "c".repeat(60));
    const { input: cutInput } = cutSchemas({ input }, "GET /y");
    const leaves = Object.values((cutInput as { properties: Record<string, { properties?: object }> }).properties)
      .flatMap((child) => Object.values(child.properties ?? {}))
      .filter((leaf) => (leaf as { type?: string }).type === "string");
    expect(leaves.length).toBeGreaterThan(0);
    expect(bytes(cutInput)).toBeLessThanOrEqual(MAX_UNVALIDATED_SCHEMA_BYTES);
  });
});
