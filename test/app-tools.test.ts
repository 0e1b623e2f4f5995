// docs/intake.md, "App tools", and docs/app-tools.md: App tool listings validated through the signed
// listing method, each row compiled by the same JSON Schema compiler, refusals as typed errors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { type AppToolFamilyApi, appToolFamilySchemas } from "../src/app-tools/index.js";
import { isForageError } from "../src/forage-error.js";
import { jsonSchemaToZod } from "../src/json-schema/index.js";

interface Fixture {
  api: AppToolFamilyApi;
  reply: { indexed: boolean; rows: Array<Record<string, unknown>> };
}

function fixture(): Fixture {
  // A fresh parse per test, so no test sees another's mutations.
  return JSON.parse(
    readFileSync(join(import.meta.dirname, "fixtures/app-tools/bazaar-windows.json"), "utf8"),
  ) as Fixture;
}

function failure(run: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (isForageError(error)) return { code: error.code, message: error.message, details: { ...error.details } };
    throw error;
  }
  throw new Error("expected a ForageError");
}

describe("appToolFamilySchemas", () => {
  test("validates the listing reply through the listing method's declared output schema", () => {
    const { api, reply } = fixture();
    // Forage's envelope would accept this row; the App's signed output schema does not (selector.window < 0).
    (reply.rows[0] as { selector: { window: number } }).selector.window = -1;
    const refused = failure(() => appToolFamilySchemas(api, reply));
    expect(refused.code).toBe("invalid_argument");
    expect(refused.message).toContain("windows.tools");
    expect(refused.message).toContain("/rows/0/selector/window");
    expect(refused.details.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "/rows/0/selector/window" })]),
    );
  });

  test("refuses a declared output schema the compiler cannot preserve", () => {
    const { api, reply } = fixture();
    const output = { type: "object", properties: { indexed: { type: "boolean", format: "flag" } } };
    const refused = failure(() =>
      appToolFamilySchemas({ ...api, listMethod: { name: "windows.tools", output } }, reply),
    );
    expect(refused).toMatchObject({
      code: "unsupported",
      details: { keyword: "format", pointer: "/properties/indexed/format" },
    });
    expect(refused.message).toContain("Output schema of windows.tools");
  });

  test("compiles each row's input and output with the same compiler as App methods", () => {
    const { api, reply } = fixture();
    const family = appToolFamilySchemas(api, reply);
    const rename = family.rows.find((row) => row.name === "rename");
    expect(rename?.input.safeParse({ title: "Notes" }).success).toBe(true);
    expect(rename?.input.safeParse({ title: "" }).success).toBe(false);
    expect(rename?.input.safeParse({ title: "x", extra: 1 }).success).toBe(false);
    expect(rename?.output?.safeParse({ ok: true }).success).toBe(true);
    expect(rename?.output?.safeParse({ ok: "yes" }).success).toBe(false);
    const direct = jsonSchemaToZod(reply.rows[0]?.inputSchema);
    expect(z.toJSONSchema(rename?.input as z.ZodType, { io: "input" })).toEqual(
      z.toJSONSchema(direct, { io: "input" }),
    );
    expect(family.rows.find((row) => row.name === "close")?.output).toBeUndefined();
  });

  test("returns the family name, call method, declared effect and requirements, and the rows", () => {
    const { api, reply } = fixture();
    const family = appToolFamilySchemas(api, reply);
    expect(family).toMatchObject({
      family: "bazaar.windows",
      listMethod: "windows.tools",
      callMethod: "windows.call",
      effect: "write",
      requirements: ["bazaar.windows.control"],
      indexed: true,
      unsupported: [],
    });
    expect(family.rows.map((row) => row.name)).toEqual(["rename", "close"]);
    expect(family.rows[0]?.description).toBe("Rename window 3");
    expect(appToolFamilySchemas({ ...api, requirements: undefined }, reply).requirements).toEqual([]);
  });

  test("gives an unindexed listing no tools", () => {
    const { api, reply } = fixture();
    // Even rows whose schemas could not compile are not looked at.
    const unindexed = {
      ...reply,
      indexed: false,
      rows: [{ ...reply.rows[1], inputSchema: { type: "string", pattern: "x" } }],
    };
    const family = appToolFamilySchemas(api, unindexed);
    expect(family.indexed).toBe(false);
    expect(family.rows).toEqual([]);
    expect(family.unsupported).toEqual([]);
  });

  test("keeps App-owned selectors as row data, untouched", () => {
    const { api, reply } = fixture();
    const family = appToolFamilySchemas(api, reply);
    const rename = family.rows[0];
    expect(rename?.data).toEqual(reply.rows[0]);
    expect(rename?.data.selector).toEqual({ window: 3 });
    // The selector is not folded into the input: the host passes it to the call owner itself.
    expect(rename?.input.safeParse({ title: "x", window: 3 }).success).toBe(false);
    expect(Object.isFrozen(rename?.data.selector)).toBe(true);
    (reply.rows[0] as { selector: { window: number } }).selector.window = 9;
    expect(rename?.data.selector).toEqual({ window: 3 });
  });

  test("supplies no handlers, binding defaults or authority", () => {
    const { api, reply } = fixture();
    const family = appToolFamilySchemas(api, reply);
    expect(Object.keys(family).sort()).toEqual([
      "callMethod",
      "effect",
      "family",
      "indexed",
      "listMethod",
      "requirements",
      "rows",
      "unsupported",
    ]);
    for (const row of family.rows) {
      expect(Object.keys(row).every((key) => ["name", "description", "input", "output", "data"].includes(key))).toBe(
        true,
      );
    }
    expect(functionsOutsideValidators(family)).toEqual([]);
    expect(Object.isFrozen(family)).toBe(true);
    const withHandler = { ...api, handler: () => "ran" } as unknown as AppToolFamilyApi;
    expect(failure(() => appToolFamilySchemas(withHandler, reply))).toMatchObject({ code: "invalid_argument" });
  });

  test("lists rows whose schemas the compiler refuses as unsupported, with the reason", () => {
    const { api, reply } = fixture();
    reply.rows.push({
      name: "search",
      selector: { window: 1 },
      inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^a" } } },
    });
    const family = appToolFamilySchemas(api, reply);
    expect(family.rows.map((row) => row.name)).toEqual(["rename", "close"]);
    expect(family.unsupported).toHaveLength(1);
    expect(family.unsupported[0]).toMatchObject({ name: "search", code: "unsupported" });
    expect(family.unsupported[0]?.reason).toContain("#/properties/q/pattern");
  });

  test("refuses a reply outside Forage's listing envelope", () => {
    const { api } = fixture();
    const open = { ...api, listMethod: { name: "windows.tools", output: true } };
    expect(failure(() => appToolFamilySchemas(open, { rows: [] })).code).toBe("invalid_argument");
    const duplicate = {
      indexed: true,
      rows: [
        { name: "a", inputSchema: {} },
        { name: "a", inputSchema: {} },
      ],
    };
    expect(failure(() => appToolFamilySchemas(open, duplicate)).message).toContain("duplicate");
    const missingInput = failure(() => appToolFamilySchemas(open, { indexed: true, rows: [{ name: "a" }] }));
    expect(missingInput.message).toContain("/rows/0/inputSchema");
    const many = {
      indexed: true,
      rows: Array.from({ length: 501 }, (_, index) => ({ name: `t${index}`, inputSchema: {} })),
    };
    expect(failure(() => appToolFamilySchemas(open, many)).code).toBe("too_large");
  });
});

// Every function reachable from the projection, except inside zod validators (whose methods are parse/safeParse).
function functionsOutsideValidators(value: unknown, path = "", found: string[] = []): string[] {
  if (typeof value === "function") found.push(path);
  if (typeof value !== "object" || value === null || value instanceof z.ZodType) return found;
  for (const [key, member] of Object.entries(value)) functionsOutsideValidators(member, `${path}/${key}`, found);
  return found;
}
