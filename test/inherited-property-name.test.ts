// src/json-schema/inherited-property-name.ts: the names sources refuse because describe could not show them
// (docs/sources.md: a tool or catalog-file property named like an Object.prototype member), where each is
// reported, and the depth past which a document is refused instead of walked.
import { describe, expect, test } from "vitest";
import { isForageError } from "../src/index.js";
import { inheritedPropertyName, MAX_WALKED_DEPTH } from "../src/json-schema/inherited-property-name.js";
import { catalogFileOperations } from "../src/sources/catalog-file.js";

describe("inheritedPropertyName", () => {
  test.each([
    ["a properties key", '{"properties": {"a": {}, "toString": {}}}', { name: "toString", at: "/properties/toString" }],
    ["a required entry", '{"required": ["a", "constructor"]}', { name: "constructor", at: "/required" }],
    [
      "inside an array",
      '{"anyOf": [{}, {"properties": {"valueOf": {}}}]}',
      { name: "valueOf", at: "/anyOf/1/properties/valueOf" },
    ],
    ["__proto__ anywhere", '{"x": {"y": {"__proto__": 1}}}', { name: "__proto__", at: "/x/y/__proto__" }],
    [
      "__proto__ as a property",
      '{"properties": {"__proto__": {}}}',
      { name: "__proto__", at: "/properties/__proto__" },
    ],
  ])("finds %s and says where", (_what, json, found) => {
    expect(inheritedPropertyName(JSON.parse(json), "")).toEqual(found);
  });

  test("the first in document order, under the caller's prefix; none in a schema without such names", () => {
    const schema = JSON.parse('{"required": ["hasOwnProperty"], "properties": {"toString": {}}}');
    expect(inheritedPropertyName(schema, "inputSchema")).toEqual({
      name: "hasOwnProperty",
      at: "inputSchema/required",
    });
    expect(inheritedPropertyName({ type: "object", properties: { name: { type: "string" } } }, "")).toBeUndefined();
  });

  test("a document nested deeper than the bound is refused with too_large, not walked out of stack", () => {
    const nested = (depth: number) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown;
    expect(inheritedPropertyName(nested(MAX_WALKED_DEPTH), "")).toBeUndefined();
    for (const depth of [MAX_WALKED_DEPTH + 1, 200_000]) {
      let refusal: unknown;
      try {
        inheritedPropertyName(nested(depth), "");
      } catch (error) {
        refusal = error;
      }
      expect(isForageError(refusal, "too_large") && refusal.details.limit).toBe(MAX_WALKED_DEPTH);
    }
  });

  test("a catalog file that deep is refused with too_large naming the file", () => {
    const input = JSON.parse(`{"type": "object", "x": ${"[".repeat(200_000)}${"]".repeat(200_000)}}`) as unknown;
    let refusal: unknown;
    try {
      catalogFileOperations({ operations: [{ path: "a.b", inputSchema: input }] }, "deep.json");
    } catch (error) {
      refusal = error;
    }
    expect(isForageError(refusal, "too_large") && refusal.message).toBe(
      `deep.json: the document is nested deeper than ${MAX_WALKED_DEPTH} levels`,
    );
  });
});
