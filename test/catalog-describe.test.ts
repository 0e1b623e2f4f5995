// docs/catalog.md, "Describe" (and its "Rendered when asked") and "Validation": bounded TypeScript
// descriptions, inputSchema through Standard JSON Schema, $-joined aliases, never truncated.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { sampleCall } from "../src/describe/sample-call.js";
import {
  createCatalog,
  ForageError,
  type ForageValidator,
  MAX_DESCRIPTION_RESPONSE,
  type NamespaceDescription,
  type OperationDescription,
} from "../src/index.js";
import { variedOperations } from "./fixtures/varied-catalog.js";
import { handMade } from "./helpers/hand-made-validator.js";

const catalog = createCatalog({ revision: "r", operations: variedOperations });

function operation(path: string): OperationDescription {
  const description = catalog.describe(path);
  if (description.kind !== "operation") throw new Error(`${path} described as a namespace`);
  return description;
}

describe("operation descriptions", () => {
  test("declare a callable nested env with $-joined input and output aliases", () => {
    const echo = operation("computer.echo").typescript;
    expect(echo).toContain("export type computer$echo_Input =");
    expect(echo).toContain("export type computer$echo_Output =");
    expect(echo).toMatch(
      /export declare const env: \{\n {2}computer: \{\n {4}\/\*\* Echo the text back\. \*\/\n {4}echo\(input: computer\$echo_Input\): Promise<computer\$echo_Output>;/,
    );
    const read = operation("computers.local.files.read").typescript;
    expect(read).toContain("export type computers$local$files$read_Input =");
    expect(read).toContain("export type computers$local$files$read_Output =");
  });

  test("unions stay grouped inside arrays and tuples whatever their members' docs say", () => {
    const text = operation("shapes.unions.described").typescript;
    expect(text).toMatch(/xs: \(\{\n[\s\S]*?\} \| number\)\[\];/);
    expect(text).toMatch(/ys: \(\{\n[\s\S]*?\} \| boolean\)\[\];/);
    expect(text).toMatch(/pair: \[string, \(\{\n[\s\S]*?\} \| number\)\?\];/);
  });

  test("computer_echo.run never collides with computer.echo.run", () => {
    expect(operation("computer_echo.run").typescript).toContain("computer_echo$run_Input");
    expect(operation("computer.echo.run").typescript).toContain("computer$echo$run_Input");
  });

  test("include inputSchema projected through Standard JSON Schema, with bounds", () => {
    const read = operation("computers.local.files.read");
    const validator = variedOperations.find((definition) => definition.path === "computers.local.files.read")!.input;
    const { $schema: _dialect, ...projected } = validator["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    expect(read.inputSchema).toEqual(projected);
    expect(read.inputSchema).toMatchObject({
      properties: { path: { maxLength: 4096, minLength: 1 }, maxBytes: { minimum: 1, maximum: 1_048_576 } },
    });
    const send = operation("mail.messages.send");
    expect(send.inputSchema).toMatchObject({ properties: { to: { minItems: 1, maxItems: 50 } } });
  });

  test("show length, range and array bounds as JSDoc tags", () => {
    const read = operation("computers.local.files.read").typescript;
    expect(read).toMatch(/@minLength 1\n\s+\* @maxLength 4096\n\s+\*\/\n\s+path: string;/);
    expect(read).toMatch(/@minimum 1\n\s+\* @maximum 1048576\n\s+\*\/\n\s+maxBytes\?: number;/);
    expect(operation("mail.messages.send").typescript).toMatch(
      /@minItems 1\n\s+\* @maxItems 50\n\s+\*\/\n\s+to: string\[\];/,
    );
  });

  test("show a boolean default as its value, and flag keywords as bare tags", () => {
    const flags = createCatalog({
      revision: "r",
      operations: [
        {
          path: "crawl.run",
          input: handMade({
            type: "object",
            properties: {
              external: { type: "boolean", default: true },
              images: { type: "boolean", default: false },
              tags: { type: "array", items: { type: "string" }, uniqueItems: true },
              old: { type: "string", deprecated: false },
            },
          }),
        },
      ],
    });
    const text = flags.describe("crawl.run").typescript;
    expect(text).toContain("/** @default true */\n  external?: boolean;");
    expect(text).toContain("/** @default false */\n  images?: boolean;");
    expect(text).toContain("/** @uniqueItems */\n  tags?: string[];");
    expect(text).toContain("  old?: string;");
    expect(text).not.toContain("@deprecated");
  });

  test("carry description, capability notes, instructions, sample and output schema", () => {
    const read = operation("computers.local.files.read");
    expect(read.description).toBe("Read a text file and return its contents.");
    expect(read.capabilities).toEqual(["reads the local disk"]);
    expect(read.instructions).toContain("files.list");
    expect(read.sample).toBe('await env.computers.local.files.read({ path: "…" })');
    expect(read.outputSchema).toMatchObject({ properties: { text: { type: "string" } } });
    expect(read.typescript).toContain("@capability reads the local disk");
    expect(operation("computers.local.files.delete").outputSchema).toBeNull();
    expect(operation("computers.local.files.delete").typescript).toContain(
      "export type computers$local$files$delete_Output = unknown;",
    );
  });
});

/** What createCatalog throws for one operation, or undefined when creation succeeds. */
function creationError(input: ForageValidator, output?: ForageValidator, path = "loops.self.ref"): unknown {
  try {
    createCatalog({ revision: "r", operations: [output === undefined ? { path, input } : { path, input, output }] });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("rendered when asked", () => {
  test("every describe gives the same bytes, and a copy or JSON of an operation's description carries its TypeScript", () => {
    const paths = catalog.list().results.map((summary) => summary.path);
    const namespaces = ["", ...new Set(paths.map((path) => path.slice(0, path.indexOf("."))))];
    for (const subject of [...paths, ...namespaces]) {
      const first = catalog.describe(subject);
      expect(JSON.stringify(catalog.describe(subject))).toBe(JSON.stringify(first));
      expect(first.typescript).toBe(catalog.describe(subject).typescript);
      expect({ ...first }.typescript).toBe(first.typescript);
      expect(JSON.parse(JSON.stringify(first)).typescript).toBe(first.typescript);
      expect(Object.isFrozen(first)).toBe(true);
    }
  });
});

describe("tuples", () => {
  test("union elements are parenthesised before ?, and the first minItems elements are required", () => {
    const mixed = operation("shapes.tuples.mixed");
    expect(mixed.typescript).toContain("  t: [string | number, string | null];\n");
    expect(mixed.typescript).toContain("  tail: [string, (string | number)?, (boolean | null)?];\n");
    expect(mixed.typescript).toContain("  rest: [number | string, (string | null)?, ...(boolean | null)[]];\n");
    expect(mixed.typescript).toMatch(
      /export type shapes\$tuples\$mixed_Output = \[string \| number, \{\n {2}ok: boolean;\n\}\?\];/,
    );
    expect(mixed.typescript).not.toMatch(/[^)}]\?[,\]]/);
    expect(operation("shapes.unions.pick").typescript).toContain("  pair: [string, number];\n");
  });

  test("the sample call fills in exactly the required tuple elements", () => {
    expect(operation("shapes.tuples.mixed").sample).toBe(
      'await env.shapes.tuples.mixed({ t: ["…", "…"], tail: ["…"], rest: [0] })',
    );
    expect(operation("shapes.unions.pick").sample).toContain('pair: ["…", 0]');
  });

  test("without minItems every prefixItems element is optional; items: false closes the tuple", () => {
    const open = handMade({ type: "array", prefixItems: [{ anyOf: [{ type: "string" }, { type: "number" }] }] });
    const closed = handMade({
      type: "array",
      prefixItems: [{ type: "string" }, { type: ["number", "null"] }],
      items: false,
      minItems: 1,
    });
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "t.open", input: open },
        { path: "t.closed", input: closed },
      ],
    });
    expect(catalog.describe("t.open").typescript).toContain(
      "export type t$open_Input = [(string | number)?, ...unknown[]];",
    );
    expect(catalog.describe("t.closed").typescript).toContain(
      "export type t$closed_Input = [string, (number | null)?];",
    );
  });
});

describe("path segments that are keywords", () => {
  test("new is declared as a quoted method, not a construct signature, and called as env.….new", () => {
    const leaf = operation("shapes.keywords.new");
    expect(leaf.typescript).toContain(
      '      "new"(input: shapes$keywords$new_Input): Promise<shapes$keywords$new_Output>;\n',
    );
    expect(leaf.typescript).not.toMatch(/^\s*new\(/m);
    expect(leaf.sample).toBe('await env.shapes.keywords.new({ name: "…" })');
    const shapes = catalog.describe("shapes").typescript;
    expect(shapes).toContain(
      '    "new": {\n      /** new is both an operation and a namespace. */\n      (input: shapes$new_Input): Promise<shapes$new_Output>;\n',
    );
    // Other keywords need no quotes.
    expect(shapes).toContain(
      "      delete(input: shapes$keywords$delete_Input): Promise<shapes$keywords$delete_Output>;\n",
    );
  });
});

describe("self-referential schemas", () => {
  function expectRefused(error: unknown, path: string, side: "input" | "output", location: string): void {
    expect(error).toBeInstanceOf(ForageError);
    expect((error as ForageError).code).toBe("invalid_catalog");
    expect((error as ForageError).message).toContain(
      `operation "${path}": its ${side} schema is infinitely recursive: ${location} refers to itself`,
    );
  }

  test("a lazy union that contains itself is refused as invalid_catalog naming the operation, not a stack overflow", () => {
    const A: z.ZodType = z.lazy(() => z.union([A, z.string()]));
    expectRefused(
      creationError(z.object({ a: A }), undefined, "loops.lazy.union"),
      "loops.lazy.union",
      "input",
      "#/$defs/__schema0",
    );
    expectRefused(
      creationError(z.object({}), z.object({ a: A }), "loops.lazy.output"),
      "loops.lazy.output",
      "output",
      "#/$defs/__schema0",
    );
  });

  test("hand-made projections: a definition that is its own $ref, mutual cycles through allOf/oneOf, and the root via #", () => {
    const self = handMade({ type: "object", properties: {}, $defs: { a: { $ref: "#/$defs/a" } } });
    expectRefused(creationError(self), "loops.self.ref", "input", "#/$defs/a");
    const mutual = handMade({
      $ref: "#/$defs/a",
      $defs: {
        a: { oneOf: [{ type: "null" }, { $ref: "#/$defs/b" }] },
        b: { allOf: [{ $ref: "#/definitions/a" }, { type: "object" }] },
      },
    });
    const error = creationError(mutual);
    expectRefused(error, "loops.self.ref", "input", "#/$defs/a");
    expect((error as ForageError).message).toContain("(#/$defs/a → #/$defs/b → #/$defs/a)");
    expectRefused(
      creationError(handMade({ anyOf: [{ $ref: "#" }, { type: "string" }] })),
      "loops.self.ref",
      "input",
      "the schema",
    );
    expectRefused(
      creationError(z.object({}), handMade({ allOf: [{ $ref: "#" }] })),
      "loops.self.ref",
      "output",
      "the schema",
    );
  });

  test("recursion through object properties, array items or record values is declared", () => {
    const linked = handMade({
      $ref: "#/$defs/node",
      $defs: {
        node: {
          anyOf: [
            { type: "null" },
            { type: "object", properties: { next: { $ref: "#/$defs/node" } }, required: ["next"] },
          ],
        },
      },
    });
    const nested = handMade({
      anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#" } }, { prefixItems: [{ $ref: "#" }] }],
    });
    const created = createCatalog({
      revision: "r",
      operations: [
        { path: "ok.linked", input: linked },
        { path: "ok.nested", input: nested },
      ],
    });
    expect(created.describe("ok.linked").typescript).toContain(
      "export type ok$linked_Input$$node = null | {\n  next: ok$linked_Input$$node;\n  [key: string]: unknown;\n};",
    );
    expect(created.describe("ok.nested").typescript).toContain(
      "export type ok$nested_Input = string | ok$nested_Input[] | [ok$nested_Input?, ...unknown[]];",
    );
    expect(operation("shapes.json.store").typescript).toContain(
      "export type shapes$json$store_Input$$__schema0 = string | number | boolean | null | shapes$json$store_Input$$__schema0[] | {",
    );
    expect(operation("shapes.tree.insert").typescript).toContain("children: shapes$tree$insert_Input$$__schema0[];");
  });

  test("the sample stops following a $ref cycle, yet follows a long acyclic chain to its scalar", () => {
    expect(sampleCall("a.b", { $ref: "#/$defs/a", $defs: { a: { anyOf: [{ $ref: "#/$defs/a" }] } } })).toBe(
      "await env.a.b({})",
    );
    const chain = {
      type: "object",
      properties: { p: { $ref: "#/$defs/a" } },
      required: ["p"],
      $defs: {
        a: { $ref: "#/$defs/b" },
        b: { $ref: "#/$defs/c" },
        c: { $ref: "#/$defs/d" },
        d: { $ref: "#/$defs/e" },
        e: { type: "string" },
      },
    };
    expect(sampleCall("a.b", chain)).toBe('await env.a.b({ p: "…" })');
  });
});

describe("namespace descriptions", () => {
  test("declare every operation under the namespace", () => {
    const description = catalog.describe("computers") as NamespaceDescription;
    expect(description.kind).toBe("namespace");
    const expected = variedOperations
      .map((definition) => definition.path)
      .filter((path) => path.startsWith("computers."))
      .sort();
    expect(description.operations).toEqual(expected);
    for (const path of expected) expect(description.typescript).toContain(`${path.split(".").join("$")}_Input`);
  });

  test("select describes only the chosen methods", () => {
    const description = catalog.describe("computers.local", {
      select: ["files.read", "processes.kill"],
    }) as NamespaceDescription;
    expect(description.operations).toEqual(["computers.local.files.read", "computers.local.processes.kill"]);
    expect(description.typescript).not.toContain("files$write");
    expect(() => catalog.describe("computers.local", { select: ["files.nope"] })).toThrow(
      expect.objectContaining({ code: "not_found" }),
    );
  });

  test("an unknown path or namespace is not_found", () => {
    expect(() => catalog.describe("nope.nothing")).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => catalog.describe("computers.loc")).toThrow(expect.objectContaining({ code: "not_found" }));
  });

  test("over the bound, describe fails with too_large and points to list, one operation and select; never truncated", () => {
    // 40 operations of ~2,000 characters each: each fits, the namespace (and a broad parent) does not.
    const wide = z.object(
      Object.fromEntries(
        Array.from({ length: 40 }, (_, index) => [
          `field${index}`,
          z.string().max(100).describe(`Field number ${index}.`),
        ]),
      ),
    );
    const big = createCatalog({
      revision: "r",
      operations: Array.from({ length: 60 }, (_, index) => ({ path: `big.flat.op${index}`, input: wide })),
    });
    for (const namespace of ["big.flat", "big"]) {
      let error: unknown;
      try {
        big.describe(namespace);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ForageError);
      expect((error as ForageError).code).toBe("too_large");
      expect((error as ForageError).message).toContain(`list({ namespace: "${namespace}" })`);
      expect((error as ForageError).message).toMatch(/describe one operation/);
      expect((error as ForageError).message).toMatch(/select/);
    }
    // Each operation stays describable, and select still works under the same bound.
    expect(big.describe("big.flat.op59").kind).toBe("operation");
    const some = big.describe("big.flat", { select: ["op1", "op2"] });
    expect(some.typescript.length).toBeLessThanOrEqual(MAX_DESCRIPTION_RESPONSE);
    expect(big.list({ namespace: "big.flat" }).total).toBe(60);
  });
});

describe("generated TypeScript is valid", () => {
  const directory = mkdtempSync(join(tmpdir(), "forage-tsc-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const tsc = join(process.cwd(), "node_modules", "typescript", "bin", "tsc");

  function typeCheck(project = directory): { code: number; output: string } {
    try {
      return { code: 0, output: execFileSync(process.execPath, [tsc, "-p", project], { encoding: "utf8" }) };
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      return { code: failed.status, output: failed.stdout };
    }
  }

  test("tsc --strict --noEmit over every description at once reports zero errors", () => {
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022"],
      types: [],
    };
    writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
    const namespaces = new Set(
      variedOperations.flatMap((definition) => {
        const segments = definition.path.split(".");
        return segments.slice(1).map((_, index) => segments.slice(0, index + 1).join("."));
      }),
    );
    for (const definition of variedOperations)
      writeFileSync(join(directory, `${definition.path}.d.ts`), catalog.describe(definition.path).typescript);
    for (const namespace of namespaces)
      writeFileSync(join(directory, `ns.${namespace}.d.ts`), catalog.describe(namespace).typescript);
    writeFileSync(join(directory, "ns.all.d.ts"), catalog.describe("").typescript);
    const result = typeCheck();
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });

  test("a correct call type-checks and a wrong call fails", () => {
    writeFileSync(
      join(directory, "call-good.ts"),
      [
        'import { env } from "./computers.local.files.read";',
        'const file = await env.computers.local.files.read({ path: "/etc/hosts", encoding: "utf8" });',
        "const text: string = file.text;",
        'import { env as all } from "./ns.all";',
        'await all.mail.messages.send({ to: ["a@example.com"], subject: "Hi", body: "Hello" });',
        'import { env as shapes } from "./ns.shapes";',
        // A construct signature would make these calls TS2348 ("not callable") and need `new`.
        'const made: { id: number } = await shapes.shapes.keywords.new({ name: "n" });',
        'await shapes.shapes.new({ kind: "x" });',
        "await shapes.shapes.new.make({ size: 1 });",
        'const pair: [string | number, { ok: boolean }?] = await shapes.shapes.tuples.mixed({ t: [1, null], tail: ["a"], rest: ["r", "s", true, null] });',
        "export { text, made, pair };",
      ].join("\n"),
    );
    expect(typeCheck()).toEqual({ code: 0, output: "" });
    // A tuple element that minItems requires cannot be left out.
    writeFileSync(
      join(directory, "call-bad-tuple.ts"),
      [
        'import { env } from "./ns.shapes";',
        'await env.shapes.tuples.mixed({ t: [1], tail: ["a"], rest: [0] });',
        "export {};",
      ].join("\n"),
    );
    const short = typeCheck();
    rmSync(join(directory, "call-bad-tuple.ts"));
    expect(short.code).not.toBe(0);
    expect(short.output).toMatch(/call-bad-tuple\.ts\(2,.*error TS2322/);
    writeFileSync(
      join(directory, "call-bad.ts"),
      [
        'import { env } from "./computers.local.files.read";',
        "await env.computers.local.files.read({ path: 42 });",
        "export {};",
      ].join("\n"),
    );
    const bad = typeCheck();
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/call-bad\.ts\(2,.*error TS2322/);
    rmSync(join(directory, "call-bad.ts"));
  });

  test("keywords as path segments (operation, namespace, both) declare methods that type-check with their samples", () => {
    const keywords = [
      "break",
      "case",
      "catch",
      "class",
      "const",
      "continue",
      "debugger",
      "default",
      "delete",
      "do",
      "else",
      "enum",
      "export",
      "extends",
      "false",
      "finally",
      "for",
      "function",
      "if",
      "import",
      "in",
      "instanceof",
      "new",
      "null",
      "return",
      "super",
      "switch",
      "this",
      "throw",
      "true",
      "try",
      "typeof",
      "var",
      "void",
      "while",
      "with",
      "implements",
      "interface",
      "let",
      "package",
      "private",
      "protected",
      "public",
      "static",
      "yield",
      "abstract",
      "accessor",
      "any",
      "as",
      "asserts",
      "assert",
      "async",
      "await",
      "bigint",
      "boolean",
      "declare",
      "get",
      "global",
      "infer",
      "intrinsic",
      "is",
      "keyof",
      "module",
      "namespace",
      "never",
      "number",
      "object",
      "of",
      "out",
      "override",
      "readonly",
      "require",
      "satisfies",
      "set",
      "string",
      "symbol",
      "type",
      "undefined",
      "unique",
      "unknown",
      "using",
      "from",
      "arguments",
      "eval",
      "prototype",
    ];
    const input = z.object({ text: z.string() });
    const words = createCatalog({
      revision: "r",
      operations: keywords.flatMap((word) => [
        { path: `kw.${word}`, input },
        { path: `${word}.${word}`, input },
        { path: `both.${word}`, input },
        { path: `both.${word}.run`, input },
      ]),
    });
    const sub = join(directory, "keywords");
    mkdirSync(sub);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022"],
      types: [],
    };
    writeFileSync(join(sub, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
    const samples: string[] = [];
    for (const namespace of ["kw", "both", ...keywords]) {
      writeFileSync(join(sub, `ns.${namespace}.d.ts`), words.describe(namespace).typescript);
      const paths = (words.describe(namespace) as NamespaceDescription).operations;
      samples.push(`import { env as ${namespace}_env } from "./ns.${namespace}";`);
      for (const path of paths) {
        samples.push(
          `await (async (env: typeof ${namespace}_env) => { ${(words.describe(path) as OperationDescription).sample}; })(${namespace}_env);`,
        );
      }
    }
    writeFileSync(join(sub, "samples.ts"), `${samples.join("\n")}\nexport {};\n`);
    const result = typeCheck(sub);
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
    expect(words.describe("kw.new").typescript).toContain('  "new"(input: kw$new_Input)');
    expect(words.describe("kw.delete").typescript).toContain("  delete(input: kw$delete_Input)");
  });

  test("every sample call type-checks against its declaration", () => {
    const lines = variedOperations.map(
      (definition, index) =>
        `import { env as e${index} } from "./${definition.path}";\nawait (async (env: typeof e${index}) => { ${catalog.list({ namespace: definition.path.split(".")[0] }).results.find((summary) => summary.path === definition.path)!.sample}; })(e${index});`,
    );
    writeFileSync(join(directory, "samples.ts"), `${lines.join("\n")}\nexport {};\n`);
    const result = typeCheck();
    rmSync(join(directory, "samples.ts"));
    expect(result.output).toBe("");
  });
});
