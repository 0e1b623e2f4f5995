// docs/describe.md, "Closed and open objects" and "One spelling per constraint": an object whose
// validator refuses unknown keys is declared without an index signature, so tsc refuses them too;
// projections spell "accepts nothing" as false and leave out keywords that constrain nothing.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { normalizeProjection } from "../src/describe/projection-normal-form.js";
import { renderType } from "../src/describe/typescript-type.js";
import {
  createCatalog,
  type ForageValidator,
  type JsonSchema,
  jsonSchemaToZod,
  type OperationDescription,
} from "../src/index.js";
import { variedOperations } from "./fixtures/varied-catalog.js";
import { handMade } from "./helpers/hand-made-validator.js";

const compiled = (schema: object): ForageValidator => jsonSchemaToZod(schema) as unknown as ForageValidator;
const nameOnly = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

const CLOSED = "{\n  name: string;\n}";
const OPEN = "{\n  name: string;\n  [key: string]: unknown;\n}";

const cases: { what: string; input: ForageValidator; type: string }[] = [
  { what: "z.strictObject", input: z.strictObject({ name: z.string() }), type: CLOSED },
  {
    what: "compiled additionalProperties: false",
    input: compiled({ ...nameOnly, additionalProperties: false }),
    type: CLOSED,
  },
  {
    what: 'a projection with additionalProperties {"not": {}}',
    input: handMade({ ...nameOnly, additionalProperties: { not: {} } }),
    type: CLOSED,
  },
  {
    what: 'a projection with additionalProperties {"not": true}',
    input: handMade({ ...nameOnly, additionalProperties: { not: true } }),
    type: CLOSED,
  },
  {
    what: "a projection with additionalProperties false",
    input: handMade({ ...nameOnly, additionalProperties: false }),
    type: CLOSED,
  },
  { what: "z.looseObject", input: z.looseObject({ name: z.string() }), type: OPEN },
  { what: "z.object (unknown keys accepted, then dropped)", input: z.object({ name: z.string() }), type: OPEN },
  { what: "compiled without additionalProperties", input: compiled(nameOnly), type: OPEN },
  {
    what: "compiled additionalProperties: true",
    input: compiled({ ...nameOnly, additionalProperties: true }),
    type: OPEN,
  },
  {
    what: "a projection with additionalProperties {}",
    input: handMade({ ...nameOnly, additionalProperties: {} }),
    type: OPEN,
  },
  { what: "an empty z.strictObject", input: z.strictObject({}), type: "{\n  [key: string]: never;\n}" },
  { what: "an empty z.object", input: z.object({}), type: "{\n  [key: string]: unknown;\n}" },
  {
    what: "z.record of numbers",
    input: z.record(z.string(), z.number()),
    type: "{\n  [key: string]: number;\n}",
  },
  {
    what: "compiled additionalProperties of strings",
    input: compiled({ type: "object", additionalProperties: { type: "string" } }),
    type: "{\n  [key: string]: string;\n}",
  },
];

function describeOperation(input: ForageValidator): OperationDescription {
  const description = createCatalog({ revision: "r", operations: [{ path: "t.call", input }] }).describe("t.call");
  if (description.kind !== "operation") throw new Error("described as a namespace");
  return description;
}

describe("closed objects have no index signature; open ones do", () => {
  test.each(cases)("$what", ({ input, type }) => {
    const description = describeOperation(input);
    expect(description.typescript).toContain(`export type t$call_Input = ${type};\n`);
    const extra = description.inputSchema;
    if (type === CLOSED) expect(extra).toMatchObject({ additionalProperties: false });
    else if (type === OPEN) expect(extra).not.toHaveProperty("additionalProperties");
  });

  test("the generator reads zod's raw spelling as closed too, and a schema that accepts nothing as never", () => {
    const naming = { root: "Root", definition: () => "unknown" };
    const raw = { ...nameOnly, additionalProperties: { not: {} } } as JsonSchema;
    expect(renderType(raw, naming)).toBe(CLOSED);
    expect(renderType({ type: "array", prefixItems: [{ type: "string" }], items: { not: {} } }, naming)).toBe(
      "[string?]",
    );
    expect(renderType({ not: {} }, naming)).toBe("never");
  });
});

describe("projections in normal form", () => {
  test.each([
    ["a schema that accepts nothing is false", { not: {} }, false],
    [
      "everywhere a subschema stands",
      {
        type: "array",
        prefixItems: [{ not: {} }],
        items: { not: true },
        anyOf: [{ not: {} }, { type: "object", properties: { a: { not: {} } }, $defs: { d: { not: {} } } }],
      },
      {
        type: "array",
        prefixItems: [false],
        items: false,
        anyOf: [false, { type: "object", properties: { a: false }, $defs: { d: false } }],
      },
    ],
    [
      "data that looks like a schema is left alone",
      { const: { not: {} }, enum: [{ not: {} }], default: { not: {} }, examples: [{ not: {} }] },
      { const: { not: {} }, enum: [{ not: {} }], default: { not: {} }, examples: [{ not: {} }] },
    ],
    [
      "keywords that constrain nothing are left out",
      { type: "object", properties: {}, required: [], additionalProperties: {}, propertyNames: { type: "string" } },
      { type: "object" },
    ],
    [
      "property names with constraints stay",
      { type: "object", propertyNames: { type: "string", minLength: 1 }, additionalProperties: true },
      { type: "object", propertyNames: { type: "string", minLength: 1 } },
    ],
    [
      "OpenAPI example joins examples",
      { type: "string", examples: ["a"], example: "b" },
      { type: "string", examples: ["a", "b"] },
    ],
    [
      "an example already listed is not repeated",
      { type: "string", examples: ["a"], example: "a" },
      { type: "string", examples: ["a"] },
    ],
  ])("%s", (_what, schema, normal) => {
    expect(normalizeProjection(schema as JsonSchema)).toEqual(normal);
  });

  test("keywords come in a fixed order, properties in theirs", () => {
    const normal = normalizeProjection({
      default: 1,
      maximum: 9,
      type: "object",
      description: "d",
      properties: { z: { maximum: 1, type: "integer" }, a: { type: "string" } },
    });
    expect(JSON.stringify(normal)).toBe(
      '{"description":"d","type":"object","properties":{"z":{"type":"integer","maximum":1},"a":{"type":"string"}},"maximum":9,"default":1}',
    );
  });

  test("a schema already in normal form is returned as it is", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false } as const;
    expect(normalizeProjection(schema)).toBe(schema);
  });

  test('no description of the example or varied catalog spells {"not": {}}', () => {
    const catalog = createCatalog({ revision: "r", operations: variedOperations });
    for (const { path } of variedOperations) {
      const description = catalog.describe(path) as OperationDescription;
      const text = JSON.stringify([description.inputSchema, description.outputSchema]);
      expect(text, path).not.toContain('"not":');
    }
  });
});

describe("tsc refuses an extra key exactly where the validator does", () => {
  const directory = mkdtempSync(join(tmpdir(), "forage-closed-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const tsc = join(process.cwd(), "node_modules", "typescript", "bin", "tsc");

  function typeCheck(): { code: number; output: string } {
    try {
      return { code: 0, output: execFileSync(process.execPath, [tsc, "-p", directory], { encoding: "utf8" }) };
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      return { code: failed.status, output: failed.stdout };
    }
  }

  const inputs = {
    strict: z.strictObject({ name: z.string() }),
    loose: z.looseObject({ name: z.string() }),
    spec: jsonSchemaToZod({ ...nameOnly, additionalProperties: false }),
    open: jsonSchemaToZod(nameOnly),
    empty: z.strictObject({}),
  };
  const catalog = createCatalog({
    revision: "r",
    operations: Object.entries(inputs).map(([name, input]) => ({
      path: `shapes.${name}`,
      input: input as unknown as ForageValidator,
    })),
  });
  // TS2353: "Object literal may only specify known properties"; TS2322 for the empty closed object's `never`.
  const shapes: { name: keyof typeof inputs; good: object; refusedAs?: string }[] = [
    { name: "strict", good: { name: "n" }, refusedAs: "TS2353" },
    { name: "spec", good: { name: "n" }, refusedAs: "TS2353" },
    { name: "loose", good: { name: "n" } },
    { name: "open", good: { name: "n" } },
    { name: "empty", good: {}, refusedAs: "TS2322" },
  ];

  test("a call with a typo'd key fails tsc on closed objects only, and the validators agree", () => {
    const typo = (good: object) => ({ ...good, nmae: "typo" });
    for (const { name, good, refusedAs } of shapes) {
      expect(inputs[name].safeParse(typo(good)).success, name).toBe(refusedAs === undefined);
      expect(inputs[name].safeParse(good).success, name).toBe(true);
    }
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "ESNext",
      lib: ["ES2022"],
      types: [],
    };
    writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
    writeFileSync(join(directory, "shapes.d.ts"), catalog.describe("shapes").typescript);
    // Line 2 + 2i calls shape i correctly, line 3 + 2i with a typo'd key.
    const lines = ['import { env } from "./shapes";'];
    for (const { name, good } of shapes)
      lines.push(
        `await env.shapes.${name}(${JSON.stringify(good)});`,
        `await env.shapes.${name}(${JSON.stringify(typo(good))});`,
      );
    writeFileSync(join(directory, "call.ts"), [...lines, "export {};"].join("\n"));
    const result = typeCheck();
    expect(result.code).not.toBe(0);
    const failedLines = [...result.output.matchAll(/call\.ts\((\d+),\d+\): error (TS\d+)/g)].map(
      ([, line, code]) => `${line} ${code}`,
    );
    const expected = shapes.flatMap(({ refusedAs }, index) =>
      refusedAs === undefined ? [] : [`${3 + 2 * index} ${refusedAs}`],
    );
    expect(failedLines).toEqual(expected);
    expect(result.output.trim().split("\n")).toHaveLength(expected.length);
  });
});
