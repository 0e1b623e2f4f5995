// docs/catalog.md, "The stamp": stamp() is a stable identity
// for the sorted catalog metadata, including schema projections, capability notes and instructions.
import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, type OperationDefinition } from "../src/index.js";
import { variedOperations } from "./fixtures/varied-catalog.js";

const base: OperationDefinition[] = [
  {
    path: "files.read",
    input: z.object({ path: z.string().max(4096) }),
    description: "Read.",
    capabilities: ["reads disk"],
    instructions: "List first.",
  },
  { path: "files.write", input: z.object({ path: z.string(), text: z.string() }), description: "Write." },
];
const stampOf = (operations: readonly OperationDefinition[], revision = "r") =>
  createCatalog({ revision, operations }).stamp();
const changeFirst = (change: Partial<OperationDefinition>) => [{ ...base[0]!, ...change }, base[1]!];

describe("stamp", () => {
  test("is the same in any registration order", () => {
    expect(stampOf([...variedOperations].reverse())).toBe(stampOf(variedOperations));
  });

  test("is the same across processes", () => {
    const script = [
      'import { createExampleCatalog } from "./dist/index.js";',
      "process.stdout.write(createExampleCatalog().stamp());",
    ].join("\n");
    const fromChild = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(fromChild).toMatch(/^sha256:[0-9a-f]{64}$/);
    const here = createCatalog({ revision: "example.1", operations: variedOperations.slice(0, 40) }).stamp();
    expect(fromChild).toBe(here);
  });

  // The stamp hashes the catalog's UTF-8 in blocks of 256 KiB: text past the first block and text that is not ASCII count
  // too, and the stamps are those the hashing gave before it wrote blocks (computed then, at d58d869).
  test("counts every character of a catalog larger than one hashing block, non-ASCII ones included, as it always has", () => {
    const long = (index: number, last: string): OperationDefinition => ({
      path: `docs.page_${String(index).padStart(3, "0")}`,
      input: z.object({ id: z.string() }),
      description: `${"Résumé, naïve café — ".repeat(190)}${last}`,
    });
    const pages = (last: string) => Array.from({ length: 120 }, (_, index) => long(index, index === 119 ? last : "."));
    expect(stampOf(pages("."))).toBe("sha256:ff506fea75831b21611eca4e2d9a16efc3c85915ff2189b88986ff1be545abd5");
    expect(stampOf(pages("é"))).not.toBe(stampOf(pages(".")));
  });

  test("hashes a lone surrogate as it always has (U+FFFD's UTF-8)", () => {
    const odd: OperationDefinition = {
      path: "odd.text",
      input: z.object({ id: z.string() }),
      description: "a\ud800b, then \udc00 alone",
    };
    expect(stampOf([odd])).toBe("sha256:43344b4d6536b2839c4357e37e09f770fe5d49a3699173ed1c868356ce9829e5");
  });

  test("does not change with the revision label (content identity)", () => {
    expect(stampOf(base, "2026-11-30.1")).toBe(stampOf(base, "2026-12-01.7"));
  });

  test.each([
    ["a description", { description: "Read a file." }],
    ["a schema bound", { input: z.object({ path: z.string().max(4095) }) }],
    ["a capability note", { capabilities: ["reads the disk"] }],
    ["an instruction", { instructions: "List files first." }],
    ["an output schema", { output: z.object({ text: z.string() }) }],
    ["a path", { path: "files.readText" }],
  ])("changes when %s changes", (_what, change) => {
    expect(stampOf(changeFirst(change))).not.toBe(stampOf(base));
  });
});
