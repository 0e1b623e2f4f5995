// docs/intake.md, "The compiler", and src/json-schema/README.md ("Projection", "Checked when compiled, built
// when first used", "Shared validators"): jsonSchemaToZod accepts exactly what a schema accepts or refuses it
// by keyword and pointer, checked against the vendored JSON-Schema-Test-Suite.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { normalizeProjection } from "../src/describe/projection-normal-form.js";
import { type ForageError, isForageError } from "../src/forage-error.js";
import { type JsonSchema, type JsonSchemaDialect, jsonSchemaToZod } from "../src/json-schema/index.js";
import { handOverParsed, passOnHandOver } from "../src/json-schema/json-document.js";
import { isNormalFormProjection } from "../src/json-schema/normal-form-projections.js";

const SUITE = join(import.meta.dirname, "fixtures/json-schema-test-suite/tests");

const DRAFTS: ReadonlyArray<readonly [string, JsonSchemaDialect]> = [
  ["draft4", "draft-04"],
  ["draft7", "draft-07"],
  ["draft2020-12", "draft-2020-12"],
];

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

interface SuiteTally {
  accepted: number;
  refused: number;
  instances: number;
  wrong: string[];
  failures: string[];
}

function runSuiteFiles(directory: string, dialect: JsonSchemaDialect): SuiteTally {
  const tally: SuiteTally = { accepted: 0, refused: 0, instances: 0, wrong: [], failures: [] };
  const files = readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .sort();
  for (const file of files) {
    const groups = JSON.parse(readFileSync(join(directory, file), "utf8")) as SuiteGroup[];
    for (const group of groups) runGroup(`${file}: ${group.description}`, group, dialect, tally);
  }
  return tally;
}

function runGroup(label: string, group: SuiteGroup, dialect: JsonSchemaDialect, tally: SuiteTally): void {
  let validator: z.ZodType;
  try {
    validator = jsonSchemaToZod(group.schema, { dialect });
  } catch (error) {
    if (isForageError(error, "unsupported")) tally.refused += 1;
    else tally.failures.push(`${label}: ${String(error)}`);
    return;
  }
  tally.accepted += 1;
  try {
    // Every accepted schema must stay projectable through zod's JSON Schema output.
    z.toJSONSchema(validator, { io: "input" });
  } catch (error) {
    tally.failures.push(`${label}: projection threw ${String(error)}`);
  }
  const again = compiledProjection(label, validator, tally);
  for (const test of group.tests) {
    tally.instances += 1;
    let verdict: boolean;
    try {
      verdict = validator.safeParse(test.data).success;
    } catch (error) {
      tally.failures.push(`${label} / ${test.description}: threw ${String(error)}`);
      continue;
    }
    if (verdict !== test.valid) tally.wrong.push(`${label} / ${test.description}: expected ${test.valid}`);
    if (again !== undefined && again.safeParse(test.data).success !== test.valid)
      tally.wrong.push(`${label} / ${test.description}: its projection compiled again, expected ${test.valid}`);
  }
}

/** The validator's draft 2020-12 Standard JSON Schema projection. */
function projectionOf(validator: z.ZodType): unknown {
  const standard = validator["~standard"] as unknown as {
    jsonSchema: { input(options: { target: string }): unknown };
  };
  return standard.jsonSchema.input({ target: "draft-2020-12" });
}

// src/json-schema/README.md, "Projection": the projection accepts what the validator accepts, so
// compiled again (as draft 2020-12) it agrees with the suite too, and projects as itself.
function compiledProjection(label: string, validator: z.ZodType, tally: SuiteTally): z.ZodType | undefined {
  const projected = projectionOf(validator);
  let again: z.ZodType;
  try {
    again = jsonSchemaToZod(projected, { dialect: "draft-2020-12" });
  } catch (error) {
    tally.failures.push(`${label}: its projection ${JSON.stringify(projected)} does not compile: ${String(error)}`);
    return undefined;
  }
  if (JSON.stringify(projectionOf(again)) !== JSON.stringify(projected))
    tally.failures.push(`${label}: its projection ${JSON.stringify(projected)} compiled again projects otherwise`);
  // A projection marked as in normal form is one that describe's normal form leaves as it is.
  if (isNormalFormProjection(projected) && normalizeProjection(projected as JsonSchema) !== projected)
    tally.failures.push(`${label}: its projection ${JSON.stringify(projected)} is marked but not in normal form`);
  return again;
}

describe("JSON-Schema-Test-Suite", () => {
  for (const [folder, dialect] of DRAFTS) {
    test(`${folder}: every accepted group agrees with the suite on every instance`, () => {
      const tally = runSuiteFiles(join(SUITE, folder), dialect);
      console.log(
        `[json-schema-test-suite] ${folder}: accepted groups ${tally.accepted}, refused groups ${tally.refused}, ` +
          `instances checked ${tally.instances}, wrong ${tally.wrong.length}`,
      );
      expect(tally.failures).toEqual([]);
      expect(tally.wrong).toEqual([]);
      expect(tally.accepted).toBeGreaterThan(0);
    });

    test(`${folder}/optional: reported separately`, () => {
      const tally = runSuiteFiles(join(SUITE, folder, "optional"), dialect);
      console.log(
        `[json-schema-test-suite] ${folder}/optional: accepted groups ${tally.accepted}, refused groups ${tally.refused}, ` +
          `instances checked ${tally.instances}, wrong ${tally.wrong.length}` +
          (tally.wrong.length > 0 ? `\n  ${tally.wrong.join("\n  ")}` : ""),
      );
      expect(tally.failures).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------------------
// Laws of the compiler
// ---------------------------------------------------------------------------

function accepts(schema: unknown, data: unknown, dialect?: JsonSchemaDialect): boolean {
  return jsonSchemaToZod(schema, dialect === undefined ? {} : { dialect }).safeParse(data).success;
}

function refusal(
  schema: unknown,
  dialect?: JsonSchemaDialect,
): { code: string; message: string; details: Record<string, unknown> } {
  try {
    jsonSchemaToZod(schema, dialect === undefined ? {} : { dialect });
  } catch (error) {
    if (isForageError(error)) return { code: error.code, message: error.message, details: { ...error.details } };
    throw error;
  }
  throw new Error("expected the schema to be refused");
}

describe("refusals", () => {
  test("name the keyword and its JSON pointer, in the message and in details", () => {
    const refused = refusal({ type: "object", properties: { "a/b": { type: "string", pattern: "^x" } } });
    expect(refused.code).toBe("unsupported");
    expect(refused.message).toContain('"pattern"');
    expect(refused.message).toContain("#/properties/a~1b/pattern");
    expect(refused.details).toMatchObject({ keyword: "pattern", pointer: "/properties/a~1b/pattern" });
  });

  test("refuse every format value, even annotation-only ones", () => {
    for (const format of ["date-time", "email", "uuid", "int64", "made-up"]) {
      expect(refusal({ type: "string", format })).toMatchObject({
        code: "unsupported",
        details: { keyword: "format" },
      });
    }
  });

  test.each([
    ["pattern", { pattern: "a" }],
    ["patternProperties", { patternProperties: { a: {} } }],
    ["not", { not: { type: "string" } }],
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword under test
    ["if", { if: {}, then: {} }],
    ["dependentRequired", { dependentRequired: { a: ["b"] } }],
    ["dependentSchemas", { dependentSchemas: { a: {} } }],
    ["propertyNames", { propertyNames: { maxLength: 3 } }],
    ["contains", { contains: {} }],
    ["minContains", { minContains: 1 }],
    ["unevaluatedProperties", { unevaluatedProperties: false }],
    ["unevaluatedItems", { unevaluatedItems: false }],
    ["$dynamicRef", { $dynamicRef: "#x" }],
    ["$anchor", { $anchor: "x" }],
    ["$recursiveRef", { $recursiveRef: "#" }],
    ["contentEncoding", { contentEncoding: "base64" }],
    ["contentMediaType", { contentMediaType: "application/json" }],
  ])("refuse %s", (keyword, schema) => {
    expect(refusal({ items: schema })).toMatchObject({
      code: "unsupported",
      details: { keyword, pointer: `/items/${keyword}` },
    });
  });

  test("refuse draft-7 dependencies and keywords from other drafts", () => {
    expect(refusal({ dependencies: { a: ["b"] } }, "draft-07").details).toMatchObject({ keyword: "dependencies" });
    expect(refusal({ const: 1 }, "draft-04").details).toMatchObject({ keyword: "const" });
    expect(refusal({ prefixItems: [{}] }, "draft-07").details).toMatchObject({ keyword: "prefixItems" });
    expect(refusal({ additionalItems: false }, "draft-2020-12").details).toMatchObject({ keyword: "additionalItems" });
  });

  test("refuse unknown keywords", () => {
    const refused = refusal({ type: "object", properties: { a: { type: "string", maxLenght: 3 } } });
    expect(refused).toMatchObject({
      code: "unsupported",
      details: { keyword: "maxLenght", pointer: "/properties/a/maxLenght" },
    });
    expect(refused.message).toContain("unknown keyword");
  });

  test("refuse remote, anchor and recursive references", () => {
    expect(refusal({ $ref: "https://example.com/schema.json" }).details).toMatchObject({
      keyword: "$ref",
      pointer: "/$ref",
    });
    expect(refusal({ $ref: "other.json#/a" }).details).toMatchObject({ keyword: "$ref" });
    expect(refusal({ $defs: { a: { type: "string" } }, $ref: "#a" }).details).toMatchObject({ keyword: "$ref" });
    const recursive = refusal({
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    });
    expect(recursive).toMatchObject({
      code: "unsupported",
      details: { keyword: "$ref", pointer: "/$defs/node/properties/next/$ref" },
    });
    expect(recursive.message).toContain("recursive");
    expect(refusal({ allOf: [{ $ref: "#" }] }).code).toBe("unsupported");
  });

  test("refuse $id and $schema below the root", () => {
    expect(refusal({ properties: { a: { $id: "http://x/a", type: "string" } } }).details).toMatchObject({
      keyword: "$id",
      pointer: "/properties/a/$id",
    });
    expect(
      accepts({ $id: "http://example.com/root.json", $defs: { s: { type: "string" } }, $ref: "#/$defs/s" }, "x"),
    ).toBe(true);
  });

  test("report malformed schemas as invalid_argument", () => {
    expect(refusal({ type: "strin" }).code).toBe("invalid_argument");
    expect(refusal({ minLength: -1 }).code).toBe("invalid_argument");
    expect(refusal({ multipleOf: 0 }).code).toBe("invalid_argument");
    expect(refusal({ required: "a" }).code).toBe("invalid_argument");
    expect(refusal({ $ref: "#/$defs/missing" }).code).toBe("invalid_argument");
    expect(refusal({ description: () => "x" }).code).toBe("invalid_argument");
    expect(refusal({ maximum: Number.NaN }).code).toBe("invalid_argument");
    expect(refusal(new Date()).code).toBe("invalid_argument");
  });
});

describe("projection in normal form", () => {
  test("is marked when compiled without OpenAPI's extensions, and describe's normal form leaves it as it is", () => {
    const schema = {
      type: "object",
      properties: { tags: { type: "array", items: { enum: ["a", "b"] }, uniqueItems: true }, n: { maximum: 3 } },
      required: ["tags"],
      additionalProperties: false,
      description: "written after type, projected before it",
    };
    const projected = projectionOf(jsonSchemaToZod(schema));
    expect(isNormalFormProjection(projected)).toBe(true);
    expect(normalizeProjection(projected as JsonSchema)).toBe(projected);
  });

  test("is not marked under an OpenAPI dialect, whose example the normal form merges into examples", () => {
    const projected = projectionOf(jsonSchemaToZod({ type: "string", example: "x" }, { dialect: "openapi-3.0" }));
    expect(isNormalFormProjection(projected)).toBe(false);
    expect(normalizeProjection(projected as JsonSchema)).toEqual({ type: "string", examples: ["x"] });
  });
});

// src/json-schema/README.md, "A parsed document handed over".
describe("a parsed document handed over", () => {
  /** A tools/list-like document as a reader parses it, handed over, and the schema in it passed on. */
  function handedOver(text: string): {
    root: { tools: { inputSchema: Record<string, unknown> }[] };
    schema: Record<string, unknown>;
  } {
    const root = JSON.parse(text);
    handOverParsed(root);
    const schema = passOnHandOver(root, root.tools[0].inputSchema);
    return { root, schema };
  }

  test("is compiled as it is, frozen in place, to the validator its text gives", () => {
    const text = JSON.stringify({
      tools: [
        { inputSchema: { type: "object", properties: { unit: { enum: ["handed-over-c", "f"], default: "f" } } } },
      ],
    });
    const { schema } = handedOver(text);
    const validator = jsonSchemaToZod(schema);
    const unit = (schema.properties as Record<string, Record<string, unknown>>).unit as Record<string, unknown>;
    expect([Object.isFrozen(schema), Object.isFrozen(unit), Object.isFrozen(unit.enum)]).toEqual([true, true, true]);
    // The projection shares the document's own values: no second copy was parsed.
    const projected = projectionOf(validator) as { properties: { unit: { enum: unknown } } };
    expect(projected.properties.unit.enum).toBe(unit.enum);
    // The same text, not handed over, gives the same validator; both judge alike.
    expect(jsonSchemaToZod(JSON.parse(JSON.stringify(schema)))).toBe(validator);
    expect([validator.safeParse({ unit: "f" }).success, validator.safeParse({ unit: "k" }).success]).toEqual([
      true,
      false,
    ]);
  });

  test("is passed on from a handed-over root only: any other input is copied, and left as it was", () => {
    const root = JSON.parse('{"tools":[{"inputSchema":{"type":"object","description":"not handed over"}}]}');
    const schema = passOnHandOver(root, root.tools[0].inputSchema);
    jsonSchemaToZod(schema);
    expect(Object.isFrozen(schema)).toBe(false);
  });

  test("holding a number JSON.parse read as infinite, is refused as malformed, never compiled as null", () => {
    const { schema } = handedOver('{"tools":[{"inputSchema":{"properties":{"n":{"const":1e400}}}}]}');
    expect(refusal(schema)).toMatchObject({
      code: "invalid_argument",
      details: { pointer: "/properties/n/const" },
    });
  });

  test("past a bound, is refused with the same error and pointer as the same schema not handed over", () => {
    const deep = (leaf: string): string => {
      let schema: unknown = { type: "string", description: leaf };
      for (let index = 0; index < 70; index += 1) schema = { items: schema };
      return JSON.stringify({ tools: [{ inputSchema: schema }] });
    };
    const { schema } = handedOver(deep("handed over"));
    const plain = JSON.parse(deep("not handed over")).tools[0].inputSchema;
    expect(refusal(schema)).toEqual(refusal(plain));
    expect(refusal(schema)).toMatchObject({ code: "too_large", message: expect.stringContaining("nested too deeply") });
  });
});

describe("dialects", () => {
  test("accept nullable only in the OpenAPI 3.0 dialect", () => {
    const schema = { type: "string", nullable: true, maxLength: 2 };
    expect(accepts(schema, null, "openapi-3.0")).toBe(true);
    expect(accepts(schema, "ab", "openapi-3.0")).toBe(true);
    expect(accepts(schema, "abc", "openapi-3.0")).toBe(false);
    expect(accepts({ type: "string" }, null, "openapi-3.0")).toBe(false);
    for (const dialect of ["openapi-3.1", "draft-2020-12", "draft-07"] as const) {
      expect(refusal(schema, dialect)).toMatchObject({ code: "unsupported", details: { keyword: "nullable" } });
    }
    expect(accepts({ type: ["string", "null"] }, null, "openapi-3.1")).toBe(true);
  });

  test("follow OpenAPI 3.0.3: nullable extends type only, and enum still applies", () => {
    expect(accepts({ type: "string", nullable: true, enum: ["a"] }, null, "openapi-3.0")).toBe(false);
    expect(accepts({ type: "string", nullable: true, enum: ["a", null] }, null, "openapi-3.0")).toBe(true);
    expect(accepts({ nullable: true, allOf: [{ type: "string" }] }, null, "openapi-3.0")).toBe(false);
  });

  test("accept OpenAPI annotations and x- extensions only in OpenAPI dialects", () => {
    const schema = {
      type: "object",
      discriminator: { propertyName: "kind" },
      xml: { name: "a" },
      externalDocs: { url: "https://x" },
      example: {},
      "x-internal": true,
    };
    expect(accepts(schema, { kind: 1 }, "openapi-3.0")).toBe(true);
    expect(accepts(schema, { kind: 1 }, "openapi-3.1")).toBe(true);
    expect(refusal(schema, "draft-2020-12").code).toBe("unsupported");
  });

  test("read draft-4 and OpenAPI 3.0 boolean exclusive bounds", () => {
    const schema = { minimum: 1, exclusiveMinimum: true, maximum: 3, exclusiveMaximum: false };
    for (const dialect of ["draft-04", "openapi-3.0"] as const) {
      expect(accepts(schema, 1, dialect)).toBe(false);
      expect(accepts(schema, 1.01, dialect)).toBe(true);
      expect(accepts(schema, 3, dialect)).toBe(true);
    }
    expect(accepts({ exclusiveMinimum: 1 }, 1, "draft-07")).toBe(false);
    expect(refusal({ exclusiveMinimum: true }, "draft-04").code).toBe("invalid_argument");
    expect(refusal({ type: ["string", "null"] }, "openapi-3.0").code).toBe("invalid_argument");
  });

  test("ignore $ref siblings in draft 4/7 and apply them in 2020-12", () => {
    const draft7 = {
      definitions: { list: { type: "array" } },
      properties: { foo: { $ref: "#/definitions/list", maxItems: 1 } },
    };
    expect(accepts(draft7, { foo: [1, 2] }, "draft-07")).toBe(true);
    const draft2020 = {
      $defs: { list: { type: "array" } },
      properties: { foo: { $ref: "#/$defs/list", maxItems: 1 } },
    };
    expect(accepts(draft2020, { foo: [1, 2] }, "draft-2020-12")).toBe(false);
  });

  test("take the dialect from a known root $schema and refuse a conflicting one", () => {
    const draft4 = { $schema: "http://json-schema.org/draft-04/schema#", maximum: 3, exclusiveMaximum: true };
    expect(accepts(draft4, 3)).toBe(false);
    expect(refusal(draft4, "draft-2020-12").details).toMatchObject({ keyword: "$schema" });
    expect(refusal({ $schema: "https://example.com/my-dialect" }).details).toMatchObject({ keyword: "$schema" });
    expect(() => jsonSchemaToZod({}, { dialect: "draft-99" as JsonSchemaDialect })).toThrow(
      /Unknown JSON Schema dialect/,
    );
  });

  test("allow boolean schemas except where the dialect has none", () => {
    expect(accepts(true, { any: 1 })).toBe(true);
    expect(accepts(false, 1)).toBe(false);
    expect(accepts({ properties: { a: false } }, { a: 1 })).toBe(false);
    expect(refusal({ properties: { a: true } }, "draft-04").code).toBe("invalid_argument");
  });
});

describe("exact JSON Schema semantics", () => {
  test("apply type-specific keywords only to their type", () => {
    expect(accepts({ minLength: 2 }, 5)).toBe(true);
    expect(accepts({ minLength: 2 }, "a")).toBe(false);
    const object = { properties: { a: { type: "string" } }, required: ["a"] };
    for (const other of ["a string", 1, null, true, []]) expect(accepts(object, other)).toBe(true);
    expect(accepts(object, {})).toBe(false);
    expect(accepts({ maxItems: 0 }, { a: 1 })).toBe(true);
    expect(accepts({ minimum: 5 }, "1")).toBe(true);
  });

  test("keep arrays and objects apart", () => {
    expect(accepts({ type: "object" }, [])).toBe(false);
    expect(accepts({ type: "array" }, {})).toBe(false);
    expect(accepts({ required: ["0"] }, ["x"])).toBe(true);
  });

  test("judge integers by value, without zod's safe-integer limit", () => {
    expect(accepts({ type: "integer" }, 1.0)).toBe(true);
    expect(accepts({ type: "integer" }, 2 ** 60)).toBe(true);
    expect(accepts({ type: "integer" }, 1e300)).toBe(true);
    expect(accepts({ type: "integer" }, 1.5)).toBe(false);
    expect(accepts({ type: "number" }, "1")).toBe(false);
  });

  test("count string length in code points", () => {
    expect(accepts({ maxLength: 1 }, "💩")).toBe(true);
    expect(accepts({ minLength: 2 }, "💩")).toBe(false);
    expect(accepts({ minLength: 2, maxLength: 2 }, "💩💩")).toBe(true);
    expect(accepts({ maxLength: 1 }, "\uD800")).toBe(true);
  });

  test("compute multipleOf on decimal values", () => {
    expect(accepts({ multipleOf: 0.0001 }, 0.0075)).toBe(true);
    expect(accepts({ multipleOf: 0.0001 }, 0.00751)).toBe(false);
    expect(accepts({ multipleOf: 0.01 }, 19.99)).toBe(true);
    expect(accepts({ multipleOf: 0.1 }, 0.3)).toBe(true);
    expect(accepts({ type: "integer", multipleOf: 1e-8 }, 12391239123)).toBe(true);
    expect(accepts({ type: "integer", multipleOf: 0.123456789 }, 1e308)).toBe(false);
    expect(accepts({ multipleOf: 0.5 }, 1e308)).toBe(true);
  });

  test("compare enum and const values structurally", () => {
    expect(accepts({ const: { a: 1, b: [1, 2] } }, { b: [1, 2.0], a: 1.0 })).toBe(true);
    expect(accepts({ const: { a: 1, b: [1, 2] } }, { a: 1 })).toBe(false);
    expect(accepts({ enum: [false] }, 0)).toBe(false);
    expect(accepts({ enum: [[false]] }, [0])).toBe(false);
    expect(accepts({ const: 1 }, 1.0)).toBe(true);
    expect(accepts({ const: 0 }, -0)).toBe(true);
    expect(accepts({ type: "string", enum: ["a", 1] }, 1)).toBe(false);
  });

  test("judge uniqueItems with deep equality", () => {
    expect(
      accepts({ uniqueItems: true }, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBe(false);
    expect(accepts({ uniqueItems: true }, [1, 1.0])).toBe(false);
    expect(accepts({ uniqueItems: true }, [{ a: false }, { a: 0 }])).toBe(true);
    expect(accepts({ uniqueItems: true, items: { type: "object" } }, JSON.parse('[{"__proto__": 1}, {}]'))).toBe(true);
  });

  test("treat oneOf as exactly one", () => {
    const schema = { oneOf: [{ type: "integer" }, { minimum: 2 }] };
    expect(accepts(schema, 1)).toBe(true);
    expect(accepts(schema, 2.5)).toBe(true);
    expect(accepts(schema, 3)).toBe(false);
  });

  test("keep each allOf member's additionalProperties to its own properties", () => {
    const schema = {
      allOf: [
        { properties: { a: {} }, additionalProperties: false },
        { properties: { b: {} }, additionalProperties: false },
      ],
    };
    expect(accepts(schema, { a: 1, b: 1 })).toBe(false);
    expect(accepts(schema, { a: 1 })).toBe(false);
    expect(accepts(schema, {})).toBe(true);
  });

  test("treat a required name that properties do not declare by additionalProperties", () => {
    expect(accepts({ required: ["a"], additionalProperties: false }, { a: 1 })).toBe(false);
    expect(accepts({ required: ["a"], additionalProperties: { type: "string" } }, { a: 1 })).toBe(false);
    expect(accepts({ required: ["a"], additionalProperties: { type: "string" } }, { a: "x" })).toBe(true);
  });

  test("check property names such as __proto__ and constructor as own properties", () => {
    expect(accepts({ required: ["constructor"] }, {})).toBe(false);
    expect(accepts({ required: ["constructor"] }, { constructor: 1 })).toBe(true);
    expect(accepts({ properties: { toString: { type: "number" } } }, {})).toBe(true);
    expect(accepts({ properties: { toString: { type: "number" } } }, { toString: "x" })).toBe(false);
    // JSON.parse, not a literal: in a literal "__proto__" would set the prototype instead of a key.
    const protoProperty = JSON.parse('{"properties": {"__proto__": {"type": "number"}}}') as unknown;
    expect(accepts(protoProperty, JSON.parse('{"__proto__": "x"}'))).toBe(false);
    expect(accepts(protoProperty, JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(accepts({ required: ["__proto__"] }, {})).toBe(false);
    expect(accepts({ additionalProperties: false }, JSON.parse('{"__proto__": 1}'))).toBe(false);
    expect(accepts({ additionalProperties: { type: "string" } }, JSON.parse('{"__proto__": 1}'))).toBe(false);
    expect(accepts({ maxProperties: 0 }, JSON.parse('{"__proto__": 1}'))).toBe(false);
    const closed = { properties: { constructor: { type: "number" } }, additionalProperties: false };
    expect(accepts(closed, { constructor: 1 })).toBe(true);
    expect(accepts(closed, { constructor: 1, other: 1 })).toBe(false);
  });

  test("never pollute a prototype through parse output", () => {
    const output = jsonSchemaToZod({ type: "object" }).parse(
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(output.a).toBe(1);
  });

  test("resolve local references with pointer escapes and percent-encoding", () => {
    const schema = {
      $defs: {
        "tilde~field": { type: "integer" },
        "slash/field": { type: "integer" },
        "percent%field": { type: "integer" },
      },
      properties: {
        tilde: { $ref: "#/$defs/tilde~0field" },
        slash: { $ref: "#/$defs/slash~1field" },
        percent: { $ref: "#/$defs/percent%25field" },
      },
    };
    for (const key of ["tilde", "slash", "percent"]) {
      expect(accepts(schema, { [key]: 1 })).toBe(true);
      expect(accepts(schema, { [key]: "x" })).toBe(false);
    }
    expect(accepts({ definitions: { a: { type: "string" } }, $ref: "#/definitions/a" }, 1, "draft-07")).toBe(false);
    expect(accepts({ properties: { a: { type: "string" }, b: { $ref: "#/properties/a" } } }, { b: 1 })).toBe(false);
  });

  test("carry annotations without letting them constrain", () => {
    const schema = {
      type: "string",
      title: "T",
      description: "D",
      default: 5,
      examples: [1],
      deprecated: true,
      readOnly: true,
      writeOnly: true,
      $comment: "c",
    };
    expect(accepts(schema, "x")).toBe(true);
    expect(accepts(schema, 5)).toBe(false);
  });

  test("return the instance unchanged, unknown keys included", () => {
    const data = { a: "x", extra: { nested: [1, { b: 2 }] } };
    expect(jsonSchemaToZod({ properties: { a: { type: "string" } } }).parse(data)).toEqual(data);
  });
});

describe("instances that are not JSON", () => {
  test("are rejected without throwing", () => {
    const schemas = [
      { allOf: [true, { type: "object" }] },
      { allOf: [{ type: "array" }, { items: { type: "object" } }] },
      true,
      { type: "object" },
    ];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const values = [
      new Date(),
      [new Date()],
      undefined,
      Number.NaN,
      new Map(),
      { a: undefined },
      cyclic,
      () => 1,
      // biome-ignore lint/suspicious/noSparseArray: a hole is one of the non-JSON values refused
      [1, , 2],
    ];
    for (const schema of schemas) {
      const validator = jsonSchemaToZod(schema);
      for (const value of values) expect(validator.safeParse(value).success).toBe(false);
    }
  });

  test("may be nested far deeper than the call stack", () => {
    let deep: unknown = 1;
    for (let index = 0; index < 200_000; index += 1) deep = [deep];
    expect(accepts({ uniqueItems: true }, [deep, 1])).toBe(true);
    expect(accepts({ enum: [[1]] }, deep)).toBe(false);
  });
});

describe("bounds", () => {
  test("refuse documents deeper than 64 before compiling", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let index = 0; index < 70; index += 1) schema = { items: schema };
    expect(refusal(schema)).toMatchObject({ code: "too_large" });
  });

  test("refuse documents with more than 50,000 nodes", () => {
    const properties: Record<string, unknown> = {};
    // Every property is two nodes: its schema object and the "type" string.
    for (let index = 0; index < 25_000; index += 1) properties[`p${index}`] = { type: "string" };
    expect(refusal({ properties })).toMatchObject({ code: "too_large" });
  });

  test("refuse $ref fan-out bombs quickly", () => {
    const $defs: Record<string, unknown> = { d0: { type: "string" } };
    for (let index = 1; index <= 40; index += 1) {
      $defs[`d${index}`] = { allOf: [{ $ref: `#/$defs/d${index - 1}` }, { $ref: `#/$defs/d${index - 1}` }] };
    }
    // Each definition is compiled once, so the refusal comes at d15, the first whose expansion
    // passes MAX_EXPANDED_NODES (each level doubles it), long before the 2^40-fold one of d40.
    expect(refusal({ $defs, $ref: "#/$defs/d40" })).toMatchObject({
      code: "too_large",
      details: { pointer: "/$defs/d15" },
    });
  });

  test("check the compiler's own copy again: a getter that answers deeper the second time is refused", () => {
    let deep: unknown = 1;
    for (let index = 0; index < 70; index += 1) deep = [deep];
    let reads = 0;
    const schema = { type: "object" };
    // The bounds walk reads `default` once and sees 1; JSON.stringify reads it again and gets 70 levels.
    Object.defineProperty(schema, "default", { enumerable: true, get: () => (++reads === 1 ? 1 : deep) });
    expect(refusal(schema)).toMatchObject({
      code: "too_large",
      message: expect.stringContaining("nested too deeply"),
      details: { pointer: `/default${"/0".repeat(63)}` },
    });
  });

  test("refuse cyclic schema objects as recursive", () => {
    const schema: Record<string, unknown> = { type: "object", properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    expect(refusal(schema)).toMatchObject({ code: "unsupported" });
  });
});

describe("projection through Standard JSON Schema", () => {
  const validator = jsonSchemaToZod({
    type: "object",
    description: "Search the catalog",
    additionalProperties: false,
    required: ["query"],
    properties: {
      query: { type: "string", minLength: 1, maxLength: 200, description: "Free text" },
      limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 5 },
      price: { type: ["number", "null"], exclusiveMinimum: 0, multipleOf: 0.01 },
    },
  });

  test("shows bounds, types, required and descriptions", () => {
    const projected = z.toJSONSchema(validator, { io: "input" }) as Record<string, unknown>;
    expect(projected).toMatchObject({
      type: "object",
      description: "Search the catalog",
      required: ["query"],
      additionalProperties: { not: {} },
      properties: {
        query: { type: "string", minLength: 1, maxLength: 200, description: "Free text" },
        limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
        tags: { type: "array", maxItems: 5, items: { type: "string", enum: ["a", "b"] } },
        price: { anyOf: [{ type: "number", exclusiveMinimum: 0, multipleOf: 0.01 }, { type: "null" }] },
      },
    });
  });

  test("~standard.jsonSchema answers draft 2020-12 with the schema it was compiled from, in normal form", () => {
    const standard = validator["~standard"] as unknown as {
      jsonSchema: { input(options: { target: string }): unknown; output(options: { target: string }): unknown };
    };
    const compiledFrom = {
      description: "Search the catalog",
      type: "object",
      properties: {
        query: { description: "Free text", type: "string", minLength: 1, maxLength: 200 },
        limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 5 },
        price: { type: ["number", "null"], exclusiveMinimum: 0, multipleOf: 0.01 },
      },
      required: ["query"],
      additionalProperties: false,
    };
    expect(JSON.stringify(standard.jsonSchema.input({ target: "draft-2020-12" }))).toBe(JSON.stringify(compiledFrom));
    expect(standard.jsonSchema.output({ target: "draft-2020-12" })).toEqual(compiledFrom);
    expect(Object.isFrozen(standard.jsonSchema.input({ target: "draft-2020-12" }))).toBe(true);
    // Other targets are zod's own projection of the same validator.
    expect(standard.jsonSchema.input({ target: "draft-07" })).toMatchObject({
      properties: { query: { maxLength: 200 } },
    });
  });

  test("each dialect's spelling is projected as draft 2020-12's, references inlined, non-constraints left out", () => {
    const draft4 = jsonSchemaToZod(
      {
        $schema: "http://json-schema.org/draft-04/schema#",
        definitions: { id: { type: "integer", minimum: 0, exclusiveMinimum: true, $comment: "an id" } },
        type: "array",
        items: [{ $ref: "#/definitions/id" }, { type: "string" }],
        additionalItems: false,
      },
      { dialect: "draft-04" },
    );
    expect(projectionOf(draft4)).toEqual({
      type: "array",
      prefixItems: [{ type: "integer", exclusiveMinimum: 0 }, { type: "string" }],
      items: false,
    });
    const openapi = jsonSchemaToZod(
      { type: "string", nullable: true, maxLength: 3, minimum: 2, "x-note": "n", example: "abc" },
      { dialect: "openapi-3.0" },
    );
    expect(projectionOf(openapi)).toEqual({ type: ["string", "null"], maxLength: 3, example: "abc" });
    const siblings = jsonSchemaToZod({
      $defs: { named: { type: "object", required: ["name"] } },
      $ref: "#/$defs/named",
      maxProperties: 2,
    });
    expect(projectionOf(siblings)).toEqual({ maxProperties: 2, allOf: [{ type: "object", required: ["name"] }] });
  });

  test("properties named like Object.prototype members are listed as own keys, the prototype untouched", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"}},"required":["constructor"]}',
    );
    const projected = projectionOf(jsonSchemaToZod(schema)) as { properties: Record<string, unknown> };
    expect(JSON.stringify(projected)).toBe(JSON.stringify(schema));
    expect(Object.getPrototypeOf(projected.properties)).toBe(Object.prototype);
    expect(Object.keys(projected.properties)).toEqual(["__proto__", "constructor"]);
  });
});

// src/json-schema/README.md, "Checked when compiled, built when first used".
describe("checked when compiled", () => {
  test("a fault anywhere in the schema is refused by jsonSchemaToZod, before anything validates", () => {
    const faults: [unknown, string][] = [
      [{ anyOf: [{ type: "string" }, { type: "number", multipleOf: 0 }] }, "/anyOf/1/multipleOf"],
      [
        { type: "object", properties: { a: { $ref: "#/$defs/b" } }, $defs: { b: { minLength: -1 } } },
        "/$defs/b/minLength",
      ],
      [{ type: "array", items: { type: "object", additionalProperties: 3 } }, "/items/additionalProperties"],
      [{ type: "object", properties: { a: { type: "string", pattern: "^x" } } }, "/properties/a/pattern"],
    ];
    for (const [schema, pointer] of faults) expect(refusal(schema).details).toMatchObject({ pointer });
  });

  test("a returned validator validates from its first call, the same way every time", () => {
    const validator = jsonSchemaToZod({
      type: "object",
      properties: { n: { type: "integer", minimum: 1 }, s: { type: "string", maxLength: 2 } },
      required: ["n"],
    });
    for (let round = 0; round < 2; round += 1) {
      expect(validator.safeParse({ n: 1, s: "ab" }).success).toBe(true);
      expect(validator.safeParse({ n: 0 }).success).toBe(false);
      expect(validator.safeParse({ n: 1.5 }).success).toBe(false);
      expect(validator.safeParse({ s: "abc", n: 2 }).success).toBe(false);
    }
  });
});

// src/json-schema/README.md, "Shared validators".
describe("shared validators", () => {
  const schema = () => ({
    type: "object",
    properties: { name: { type: "string", maxLength: 5 }, count: { type: "integer", minimum: 0 } },
    required: ["name"],
  });
  const projection = (validator: z.ZodType) => z.toJSONSchema(validator, { io: "input" });

  test("the same text under the same options is the same validator, which projects as a fresh one would", () => {
    const first = jsonSchemaToZod(schema());
    const second = jsonSchemaToZod(JSON.parse(JSON.stringify(schema())));
    expect(second).toBe(first);
    expect(projection(second)).toEqual(projection(first));
    expect(second.safeParse({ name: "toolong" }).success).toBe(false);
    expect(second.safeParse({ name: "ok", count: 1 }).success).toBe(true);
  });

  test("another key order, or other options, is another validator with its own projection", () => {
    const { properties, ...rest } = schema();
    const reordered = { ...rest, properties: { count: properties.count, name: properties.name } };
    const first = jsonSchemaToZod(schema());
    const other = jsonSchemaToZod(reordered);
    expect(other).not.toBe(first);
    expect(Object.keys(projection(other).properties ?? {})).toEqual(["count", "name"]);
    expect(jsonSchemaToZod(schema(), { dialect: "draft-07" })).not.toBe(first);
  });

  test("a refused schema is refused again the same way, each time with its own error", () => {
    const refused = { type: "object", properties: { code: { type: "string", pattern: "^a" } } };
    const errors = [0, 1].map(() => {
      try {
        jsonSchemaToZod(refused);
      } catch (error) {
        return error;
      }
      return undefined;
    });
    expect(errors.every((error) => isForageError(error, "unsupported"))).toBe(true);
    expect(errors[0]).not.toBe(errors[1]);
    const [first, second] = errors as [ForageError, ForageError];
    expect({ message: second.message, details: second.details }).toEqual({
      message: first.message,
      details: first.details,
    });
    expect(first.details).toMatchObject({ keyword: "pattern", pointer: "/properties/code/pattern" });
  });
});
