// Laws from ../shared/seeds/000_04dd7be7ba2f1b36.txt, "Core concepts": bounded TypeScript
// descriptions, inputSchema through Standard JSON Schema, $-joined aliases, never truncated.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, ForageError, MAX_DESCRIPTION_RESPONSE, type NamespaceDescription, type OperationDescription } from "../src/index.js";
import { variedOperations } from "./fixtures/varied-catalog.js";

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
    expect(echo).toMatch(/export declare const env: \{\n {2}computer: \{\n {4}\/\*\* Echo the text back\. \*\/\n {4}echo\(input: computer\$echo_Input\): Promise<computer\$echo_Output>;/);
    const read = operation("computers.local.files.read").typescript;
    expect(read).toContain("export type computers$local$files$read_Input =");
    expect(read).toContain("export type computers$local$files$read_Output =");
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
    expect(read.inputSchema).toMatchObject({ properties: { path: { maxLength: 4096, minLength: 1 }, maxBytes: { minimum: 1, maximum: 1_048_576 } } });
    const send = operation("mail.messages.send");
    expect(send.inputSchema).toMatchObject({ properties: { to: { minItems: 1, maxItems: 50 } } });
  });

  test("show length, range and array bounds as JSDoc tags", () => {
    const read = operation("computers.local.files.read").typescript;
    expect(read).toMatch(/@minLength 1\n\s+\* @maxLength 4096\n\s+\*\/\n\s+path: string;/);
    expect(read).toMatch(/@minimum 1\n\s+\* @maximum 1048576\n\s+\*\/\n\s+maxBytes\?: number;/);
    expect(operation("mail.messages.send").typescript).toMatch(/@minItems 1\n\s+\* @maxItems 50\n\s+\*\/\n\s+to: string\[\];/);
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
    expect(operation("computers.local.files.delete").typescript).toContain("export type computers$local$files$delete_Output = unknown;");
  });
});

describe("namespace descriptions", () => {
  test("declare every operation under the namespace", () => {
    const description = catalog.describe("computers") as NamespaceDescription;
    expect(description.kind).toBe("namespace");
    const expected = variedOperations.map((definition) => definition.path).filter((path) => path.startsWith("computers.")).sort();
    expect(description.operations).toEqual(expected);
    for (const path of expected) expect(description.typescript).toContain(`${path.split(".").join("$")}_Input`);
  });

  test("select describes only the chosen methods", () => {
    const description = catalog.describe("computers.local", { select: ["files.read", "processes.kill"] }) as NamespaceDescription;
    expect(description.operations).toEqual(["computers.local.files.read", "computers.local.processes.kill"]);
    expect(description.typescript).not.toContain("files$write");
    expect(() => catalog.describe("computers.local", { select: ["files.nope"] })).toThrow(expect.objectContaining({ code: "not_found" }));
  });

  test("an unknown path or namespace is not_found", () => {
    expect(() => catalog.describe("nope.nothing")).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => catalog.describe("computers.loc")).toThrow(expect.objectContaining({ code: "not_found" }));
  });

  test("over the bound, describe fails with too_large and points to list, one operation and select; never truncated", () => {
    // 40 operations of ~2,000 characters each: each fits, the namespace (and a broad parent) does not.
    const wide = z.object(Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, z.string().max(100).describe(`Field number ${index}.`)])));
    const big = createCatalog({ revision: "r", operations: Array.from({ length: 60 }, (_, index) => ({ path: `big.flat.op${index}`, input: wide })) });
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

  function typeCheck(): { code: number; output: string } {
    try {
      return { code: 0, output: execFileSync(process.execPath, [tsc, "-p", directory], { encoding: "utf8" }) };
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      return { code: failed.status, output: failed.stdout };
    }
  }

  test("tsc --strict --noEmit over every description at once reports zero errors", () => {
    const compilerOptions = { strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022"], types: [] };
    writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
    const namespaces = new Set(variedOperations.flatMap((definition) => {
      const segments = definition.path.split(".");
      return segments.slice(1).map((_, index) => segments.slice(0, index + 1).join("."));
    }));
    for (const definition of variedOperations) writeFileSync(join(directory, `${definition.path}.d.ts`), catalog.describe(definition.path).typescript);
    for (const namespace of namespaces) writeFileSync(join(directory, `ns.${namespace}.d.ts`), catalog.describe(namespace).typescript);
    writeFileSync(join(directory, "ns.all.d.ts"), catalog.describe("").typescript);
    const result = typeCheck();
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  });

  test("a correct call type-checks and a wrong call fails", () => {
    writeFileSync(join(directory, "call-good.ts"), [
      'import { env } from "./computers.local.files.read";',
      'const file = await env.computers.local.files.read({ path: "/etc/hosts", encoding: "utf8" });',
      "const text: string = file.text;",
      'import { env as all } from "./ns.all";',
      'await all.mail.messages.send({ to: ["a@example.com"], subject: "Hi", body: "Hello" });',
      "export { text };",
    ].join("\n"));
    expect(typeCheck()).toEqual({ code: 0, output: "" });
    writeFileSync(join(directory, "call-bad.ts"), [
      'import { env } from "./computers.local.files.read";',
      "await env.computers.local.files.read({ path: 42 });",
      "export {};",
    ].join("\n"));
    const bad = typeCheck();
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/call-bad\.ts\(2,.*error TS2322/);
    rmSync(join(directory, "call-bad.ts"));
  });

  test("every sample call type-checks against its declaration", () => {
    const lines = variedOperations.map((definition, index) => `import { env as e${index} } from "./${definition.path}";\nawait (async (env: typeof e${index}) => { ${catalog.list({ namespace: definition.path.split(".")[0] }).results.find((summary) => summary.path === definition.path)!.sample}; })(e${index});`);
    writeFileSync(join(directory, "samples.ts"), `${lines.join("\n")}\nexport {};\n`);
    const result = typeCheck();
    rmSync(join(directory, "samples.ts"));
    expect(result.output).toBe("");
  });
});
