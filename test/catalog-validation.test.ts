// docs/catalog.md, "Validation", "Bounds" and "Describe" (the response bound): Forage validates the
// catalog, every operation must fit one complete description, and aggregate metadata stays bounded;
// src/json-schema/README.md, "Checked when compiled, built when first used", for compiled validators.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  ForageError,
  jsonSchemaToZod,
  MAX_CATALOG_METADATA,
  MAX_DESCRIPTION_LENGTH,
  MAX_DESCRIPTION_RESPONSE,
  type OperationDefinition,
} from "../src/index.js";
import { handMade } from "./helpers/hand-made-validator.js";

const input = z.object({ id: z.string() });

function refusal(operations: unknown[]): ForageError {
  try {
    createCatalog({ revision: "r", operations: operations as OperationDefinition[] });
  } catch (error) {
    expect(error).toBeInstanceOf(ForageError);
    return error as ForageError;
  }
  throw new Error("createCatalog accepted an invalid catalog");
}

function expectInvalid(operations: unknown[], naming: string): void {
  const error = refusal(operations);
  expect(error.code).toBe("invalid_catalog");
  expect(error.message).toContain(naming);
}

describe("validation at creation", () => {
  test("a duplicate path is refused, naming the operation", () => {
    expectInvalid(
      [
        { path: "mail.send", input },
        { path: "mail.send", input },
      ],
      '"mail.send"',
    );
  });

  test.each([
    ["mail", "one segment"],
    ["mail..send", "empty segment"],
    ["mail.se-nd", "hyphen"],
    ["mail.$send", "dollar"],
    ["mail.1send", "leading digit"],
    ["mail.sénd", "non-ASCII"],
    ["mail.send ", "space"],
  ])("a bad segment is refused: %s (%s)", (path) => {
    expectInvalid([{ path, input }], JSON.stringify(path));
  });

  test.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "then"])(
    "a segment named %s is refused",
    (segment) => {
      expectInvalid([{ path: `apps.${segment}`, input }], `"apps.${segment}"`);
      expectInvalid([{ path: `${segment}.open`, input }], `"${segment}.open"`);
    },
  );

  test("a schema that cannot be projected to JSON Schema is refused", () => {
    const noJsonSchema = { "~standard": { version: 1, vendor: "hand", validate: (value: unknown) => ({ value }) } };
    expectInvalid([{ path: "files.read", input: noJsonSchema }], '"files.read"');
    expectInvalid([{ path: "files.read", input: z.custom<string>(() => true) }], '"files.read"');
    expectInvalid([{ path: "files.read", input, output: z.object({ when: z.date() }) }], '"files.read"');
    expectInvalid([{ path: "files.read", input: "not a schema" }], '"files.read"');
  });

  test("a description over the bound is refused", () => {
    expectInvalid([{ path: "files.read", input, description: "x".repeat(MAX_DESCRIPTION_LENGTH + 1) }], '"files.read"');
    expect(() =>
      createCatalog({
        revision: "r",
        operations: [{ path: "files.read", input, description: "x".repeat(MAX_DESCRIPTION_LENGTH) }],
      }),
    ).not.toThrow();
  });

  test("an operation that cannot fit one complete description is refused", () => {
    const huge = z.enum(Array.from({ length: 8_000 }, (_, index) => `value_number_${index}`) as [string, ...string[]]);
    const error = refusal([{ path: "files.read", input: z.object({ mode: huge }) }]);
    expect(error.code).toBe("invalid_catalog");
    expect(error.message).toContain('"files.read"');
    expect(error.message).toContain(String(MAX_DESCRIPTION_RESPONSE));
  });

  // Creation works out each description's length without rendering it, measuring a schema once for every
  // operation that shares it: an operation exactly at the bound is accepted and one character more is refused,
  // whatever its schema holds, with the measure taken for a short path and used for a long one.
  const shapes: [string, (pad: string) => object][] = [
    ["plain", (pad) => ({ type: "object", properties: { pad: { type: "string", description: pad } } })],
    [
      "$defs, root and repeated refs",
      (pad) => ({
        type: "object",
        description: "Root\nwith two lines",
        properties: {
          pad: { type: "string", description: pad },
          again: { anyOf: [{ $ref: "#/$defs/node" }, { $ref: "#/$defs/node" }, { $ref: "#" }] },
          both: { type: ["object", "object"], properties: { self: { $ref: "#" } } },
        },
        $defs: { node: { type: "array", items: { $ref: "#/$defs/node" } }, "no-de": { const: 1 } },
      }),
    ],
    [
      "the private-use character that stands for aliases while measuring",
      (pad) => ({
        type: "object",
        properties: { pad: { type: "string", description: `\uE000${pad}` }, next: { $ref: "#/$defs/n" } },
        $defs: { n: { enum: ["\uE000", 2] } },
      }),
    ],
  ];
  test.each(shapes)("the description bound is exact (%s)", (_name, shape) => {
    const long = `long.${"segment_".repeat(20)}end.op`;
    const output = handMade(shape(""));
    const operationsWith = (pad: string) => {
      const input = handMade(shape(pad));
      return [
        { path: "a.b", input, output },
        { path: long, input, output },
      ];
    };
    const typescript = (pad: string) => {
      const description = createCatalog({ revision: "r", operations: operationsWith(pad) }).describe(long);
      return description.kind === "operation" ? description.typescript : "";
    };
    const fitting = "x".repeat(1 + MAX_DESCRIPTION_RESPONSE - typescript("x").length);
    expect(typescript(fitting).length).toBe(MAX_DESCRIPTION_RESPONSE);
    const error = refusal(operationsWith(`${fitting}x`));
    expect(error.code).toBe("invalid_catalog");
    expect(error.message).toContain(
      `operation "${long}": its description is ${MAX_DESCRIPTION_RESPONSE + 1} characters`,
    );
  });

  // The operation's own part of its description (the header and `env`'s nested member with its JSDoc) is
  // also measured, not rendered: exact whatever its path, description, capabilities and instructions hold.
  const members: [string, Partial<OperationDefinition> & { path: string }][] = [
    ["two segments, no text", { path: "a.b" }],
    ["deep path with a quoted `new`", { path: "new.x.new.deep_er.y0.z" }],
    ["one-line description", { path: "ns.op", description: "Reads a file." }],
    ["description ending a comment", { path: "ns.op", description: "a */ b */*/ c" }],
    ["multi-line description with empty lines", { path: "ns.sub.op", description: "one\n\ntwo\r\n*/three\n" }],
    [
      "capabilities and instructions",
      {
        path: "ns.op",
        description: "d",
        capabilities: ["reads */ files", ""],
        instructions: "first\nsecond */",
      },
    ],
    ["instructions alone", { path: "ns.op", instructions: "x" }],
  ];
  test.each(members)("the description bound is exact (%s)", (_name, member) => {
    const operationWith = (pad: string) => ({
      ...member,
      input: handMade({ type: "object", properties: { pad: { type: "string", description: pad } } }),
    });
    const typescript = (pad: string) => {
      const description = createCatalog({ revision: "r", operations: [operationWith(pad)] }).describe(member.path);
      return description.kind === "operation" ? description.typescript : "";
    };
    const fitting = "x".repeat(1 + MAX_DESCRIPTION_RESPONSE - typescript("x").length);
    expect(typescript(fitting).length).toBe(MAX_DESCRIPTION_RESPONSE);
    const error = refusal([operationWith(`${fitting}x`)]);
    expect(error.message).toContain(
      `operation "${member.path}": its description is ${MAX_DESCRIPTION_RESPONSE + 1} characters`,
    );
  });

  test("aggregate metadata over the catalog bound is refused", () => {
    // Each operation carries about 40,000 characters of schema, so the bound is passed after ~1,700 of them.
    const wide = z.object({
      mode: z.enum(
        Array.from({ length: 2_500 }, (_, index) => `v${String(index).padStart(12, "0")}`) as [string, ...string[]],
      ),
    });
    const perOperation = 2_500 * 16;
    const count = Math.ceil(MAX_CATALOG_METADATA / perOperation) + 10;
    const operations = Array.from({ length: count }, (_, index) => ({ path: `bulk.op${index}`, input: wide }));
    const error = refusal(operations);
    expect(error.code).toBe("invalid_catalog");
    expect(error.message).toMatch(/aggregate metadata.*"bulk\.op\d+"/);
  });

  test("the other fields are type-checked", () => {
    expectInvalid([{ path: "files.read", input, capabilities: "reads" }], '"files.read"');
    expectInvalid([{ path: "files.read", input, instructions: 42 }], '"files.read"');
    expect(() => createCatalog({ revision: "", operations: [] })).toThrow(ForageError);
  });
});

describe("compiled validators", () => {
  test("a catalog of them is described from the schemas they were compiled from, and each still validates", () => {
    const schema = {
      type: "object",
      properties: {
        constructor: { type: "string", maxLength: 3 },
        tags: { type: "array", items: { $ref: "#/$defs/tag" }, uniqueItems: true },
      },
      required: ["constructor"],
      additionalProperties: false,
      $defs: { tag: { type: "string", enum: ["a", "b"] } },
    };
    const validator = jsonSchemaToZod(schema);
    const catalog = createCatalog({ revision: "r", operations: [{ path: "tags.set", input: validator }] });
    const described = catalog.describe("tags.set");
    expect(described.kind === "operation" && described.inputSchema).toEqual({
      type: "object",
      properties: {
        constructor: { type: "string", maxLength: 3 },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, uniqueItems: true },
      },
      required: ["constructor"],
      additionalProperties: false,
    });
    // Validating is the host's, after creation: the validator accepts exactly what its schema does.
    expect(validator.safeParse({ constructor: "abc", tags: ["a", "b"] }).success).toBe(true);
    expect(validator.safeParse({ constructor: "abcd" }).success).toBe(false);
    expect(validator.safeParse({ constructor: "a", tags: ["a", "a"] }).success).toBe(false);
    expect(validator.safeParse({ tags: [] }).success).toBe(false);
    expect(validator.safeParse({ constructor: "a", other: 1 }).success).toBe(false);
  });
});

describe("immutability", () => {
  test("the catalog and what it returns are frozen", () => {
    const catalog = createCatalog({
      revision: "2026-11-30.1",
      operations: [{ path: "files.read", input, description: "Read." }],
    });
    expect(Object.isFrozen(catalog)).toBe(true);
    expect(() => {
      (catalog as { revision: string }).revision = "changed";
    }).toThrow(TypeError);
    const page = catalog.list();
    expect(Object.isFrozen(page.results[0])).toBe(true);
    const description = catalog.describe("files.read");
    expect(Object.isFrozen(description)).toBe(true);
    if (description.kind !== "operation") throw new Error("expected an operation");
    expect(Object.isFrozen(description.inputSchema)).toBe(true);
    expect(catalog.revision).toBe("2026-11-30.1");
  });

  test("a change means a new catalog: the source definitions can change without affecting it", () => {
    const operations = [{ path: "files.read", input, description: "Read." }];
    const catalog = createCatalog({ revision: "1", operations });
    operations[0]!.description = "Changed afterwards.";
    operations.push({ path: "files.write", input, description: "Write." });
    expect(catalog.list().total).toBe(1);
    expect(catalog.list().results[0]!.description).toBe("Read.");
  });
});

describe("prepared once", () => {
  test("list, search and describe do no schema work after creation", () => {
    let projections = 0;
    const counted = z.object({ id: z.string() });
    const standard = counted["~standard"];
    const spy = {
      "~standard": {
        ...standard,
        jsonSchema: {
          input: (options: { target: "draft-2020-12" }) => {
            projections += 1;
            return standard.jsonSchema.input(options);
          },
          output: (options: { target: "draft-2020-12" }) => {
            projections += 1;
            return standard.jsonSchema.output(options);
          },
        },
      },
    };
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "files.read", input: spy as typeof counted },
        { path: "files.stat", input },
      ],
    });
    const afterCreation = projections;
    expect(afterCreation).toBeGreaterThan(0);
    catalog.list();
    catalog.search("read");
    catalog.describe("files.read");
    catalog.describe("files");
    expect(projections).toBe(afterCreation);
  });

  test("a validator shared by many operations is projected once per side, and each gets the same projection", () => {
    const calls = { input: 0, output: 0 };
    const shared = z.object({ id: z.string().max(64) });
    const standard = shared["~standard"];
    const spy = {
      "~standard": {
        ...standard,
        jsonSchema: {
          input: (options: { target: "draft-2020-12" }) => {
            calls.input += 1;
            return standard.jsonSchema.input(options);
          },
          output: (options: { target: "draft-2020-12" }) => {
            calls.output += 1;
            return standard.jsonSchema.output(options);
          },
        },
      },
    } as typeof shared;
    const operations = Array.from({ length: 20 }, (_, index) => ({
      path: `items.op${index}`,
      input: spy,
      output: spy,
    }));
    const catalog = createCatalog({ revision: "r", operations });
    expect(calls).toEqual({ input: 1, output: 1 });
    const described = catalog.describe("items.op7");
    expect(described.kind === "operation" && described.inputSchema).toEqual({
      type: "object",
      properties: { id: { type: "string", maxLength: 64 } },
      required: ["id"],
    });
    // Equivalent operations still merge in search, as when each had its own validator.
    expect(catalog.search("items").results).toHaveLength(1);
  });
});
