// docs/intake.md, "Operations too large to expand", and docs/mount.md, "Not validated operations": an operation
// whose references break intake's expansion budget even alone is shown not validated, from its own schemas with
// the components it references kept as `$defs` references, bounded by MAX_UNVALIDATED_SCHEMA_BYTES (docs/mount.md,
// "What a not-validated operation carries"); past the bound, the farthest component schemas are carried as any value,
// each as the one note that names where the whole is, and an operation whose own Path Item passes it stays left out.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { MAX_UNVALIDATED_SCHEMA_BYTES, splitOpenApi } from "../src/openapi/index.js";
import { notCarriedSchema } from "../src/unvalidated-schema-bound.js";
import { sh } from "./helpers/mount-daemon.js";
import { scratchDirectories } from "./helpers/scratch.js";

const cli = `'${process.execPath}' '${join(process.cwd(), "dist/cli/main.js")}'`;
const tsc = `'${process.execPath}' '${join(process.cwd(), "node_modules/typescript/bin/tsc")}'`;
const directory = scratchDirectories("forage-unexpanded");

function range<T>(count: number, make: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

function ref(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

/** An object schema whose `count` properties each refer to `target` (or are strings, without one). */
function fan(count: number, target?: string, prefix = "p"): Record<string, unknown> {
  const property = target === undefined ? { type: "string", format: "date-time" } : ref(target);
  return { type: "object", properties: Object.fromEntries(range(count, (index) => [`${prefix}${index}`, property])) };
}

/**
 * A spec of a few hundred bytes per schema whose one operation, POST /fans, expands to
 * 10 × 10 × 10 × 200 = 200,000 nodes: over intake's 100,000 on its own. GET /small fits.
 */
function fanSpec(extra: { fans?: Record<string, unknown>; schemas?: Record<string, unknown> } = {}): object {
  const json = (schema: unknown) => ({ "application/json": { schema } });
  return {
    openapi: "3.1.0",
    info: { title: "Fans", version: "1" },
    paths: {
      "/fans": {
        post: {
          operationId: "createFan",
          tags: ["fans"],
          requestBody: { required: true, content: json(ref("A")) },
          responses: { "200": { description: "ok", content: json(ref("A")) } },
          ...extra.fans,
        },
      },
      "/small": {
        get: {
          operationId: "small",
          tags: ["small"],
          responses: { "200": { description: "ok", content: json({ type: "string" }) } },
        },
      },
    },
    components: {
      schemas: { A: fan(10, "B", "a"), B: fan(10, "C", "b"), C: fan(10, "D", "c"), D: fan(200), ...extra.schemas },
    },
  };
}

function write(spec: object): string {
  const file = join(directory(), "fans.json");
  writeFileSync(file, JSON.stringify(spec));
  return file;
}

describe("an operation too large to expand", () => {
  test("the splitter gives it a document of its own: the operation and the components it references", () => {
    const split = splitOpenApi(JSON.stringify(fanSpec()));
    const left = split.parts.flatMap((part) => part.leftOut);
    expect(left).toHaveLength(1);
    expect(left[0]?.reason).toMatch(/even alone.*expand to about \d+ nodes/);
    const alone = left[0]?.alone as { paths: object; components: { schemas: object } };
    expect(Object.keys(alone.paths)).toEqual(["/fans"]);
    expect(Object.keys(alone.components.schemas).sort()).toEqual(["A", "B", "C", "D"]);
  });

  test("export gives it files marked not validated, with $defs, that tsc accepts; stderr has one line for the spec", () => {
    const out = join(directory(), "tree");
    const result = sh(`${cli} export fans='${write(fanSpec())}' '${out}'`);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exported 1 operation and 1 not validated as/);
    expect(result.stderr.split("\n").filter((line) => line.startsWith("forage: fans"))).toEqual([
      expect.stringMatching(
        /^forage: fans: 2 operations in 2 parts: 1 validated, 1 not validated \(.*\); 0 unsupported$/,
      ),
    ]);
    const described = JSON.parse(readFileSync(join(out, "fans/fans/createFan.json"), "utf8"));
    expect(described.validated).toBe(false);
    expect(described.reason).toMatch(/expand to about/);
    expect(described.capabilities).toContain("writes over HTTP: POST /fans");
    expect(described.inputSchema.properties.body).toEqual({ $ref: "#/$defs/A" });
    expect(Object.keys(described.inputSchema.$defs).sort()).toEqual(["A", "B", "C", "D"]);
    expect(described.outputSchema.$defs.D.properties.p0).toEqual({ type: "string", format: "date-time" });
    const declaration = readFileSync(join(out, "fans/fans/createFan.d.ts"), "utf8");
    expect(declaration).toContain("[not validated]");
    // Each component is one named type, never its 200,000-node expansion.
    expect(declaration.length).toBeLessThan(40_000);
    const checked = sh(`${tsc} -p '${out}'`);
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.status).toBe(0);
  });

  test("past MAX_UNVALIDATED_SCHEMA_BYTES, the component schemas farthest from it are carried as any value, named", () => {
    // D holds 200 × 60-character property names: about 14 KB. Eight copies (D0…D7), one per property of A's
    // last hop, pass 64 KiB, so the ones met last are cut.
    const longName = "x".repeat(60);
    const schemas = Object.fromEntries(range(8, (index) => [`D${index}`, fan(200, undefined, `${longName}${index}_`)]));
    const C = { type: "object", properties: Object.fromEntries(range(8, (index) => [`c${index}`, ref(`D${index}`)])) };
    const spec = fanSpec({ schemas: { ...schemas, C } });
    const split = splitOpenApi(JSON.stringify(spec));
    const [left] = split.parts.flatMap((part) => part.leftOut);
    expect(left?.reason).toMatch(
      new RegExp(
        `past the first ${MAX_UNVALIDATED_SCHEMA_BYTES} bytes of JSON of its schemas, \\d+ schemas are carried as any value \\(D`,
      ),
    );
    const out = join(directory(), "tree");
    expect(sh(`${cli} export fans='${write(spec)}' '${out}'`).status).toBe(0);
    const described = JSON.parse(readFileSync(join(out, "fans/fans/createFan.json"), "utf8"));
    // Each cut component is the one note every not-validated operation uses, pointing at the whole in the spec.
    const cut = Object.entries(described.inputSchema.$defs as Record<string, unknown>).filter(
      ([name, schema]) => JSON.stringify(schema) === JSON.stringify(notCarriedSchema(`#/components/schemas/${name}`)),
    );
    expect(cut.length).toBeGreaterThan(0);
    expect(sh(`${tsc} -p '${out}'`).status).toBe(0);
  });

  test("an operation whose own Path Item passes MAX_UNVALIDATED_SCHEMA_BYTES stays left out, with that reason", () => {
    const huge = fan(3000, undefined, "a-long-property-name-for-the-bound-");
    const spec = fanSpec({ fans: { parameters: [{ name: "q", in: "query", schema: huge }] } });
    const [left] = splitOpenApi(JSON.stringify(spec)).parts.flatMap((part) => part.leftOut);
    expect(left?.alone).toBeUndefined();
    expect(left?.reason).toMatch(
      new RegExp(`more than the ${MAX_UNVALIDATED_SCHEMA_BYTES} an operation shown unexpanded may carry`),
    );
    const out = join(directory(), "tree");
    const result = sh(`${cli} export fans='${write(spec)}' '${out}'`);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/fans: 2 operations in 2 parts: 1 validated, 0 not validated; 1 unsupported \(/);
    expect(readFileSync(join(out, "fans/fans/@unsupported.txt"), "utf8")).toContain("POST /fans");
  });
});
