// Each ForageError code's details carry what docs/catalog.md says they do ("Errors", "Details per code"):
// a table of real refusals, made through the public entry points, each checked against the keys the docs
// table lists for its code; and the narrowing by code that callers rely on instead of probing details.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { exampleOperations } from "../src/example/example-operations.js";
import { prepareMountpoint } from "../src/fuse/mountpoint.js";
import { FuseUnavailableError, loadNativeBinding } from "../src/fuse/native-binding.js";
import {
  createCatalog,
  createExampleCatalog,
  ForageError,
  type ForageErrorCode,
  isForageError,
  jsonSchemaToZod,
} from "../src/index.js";
import { MAX_SPEC_BYTES, normalizeOpenApi, parseOpenApiTable } from "../src/openapi/index.js";
import { forageErrorOf } from "./helpers/forage-assertions.js";

const CODES: readonly ForageErrorCode[] = [
  "invalid_catalog",
  "invalid_argument",
  "stale_cursor",
  "not_found",
  "too_large",
  "unsupported",
  "invalid_spec",
  "invalid_table",
];

/** The keys docs/catalog.md's "Details per code" table names for each code (its backticked words). */
function documentedKeys(): Map<string, Set<string>> {
  const text = readFileSync(new URL("../docs/catalog.md", import.meta.url), "utf8");
  const start = text.indexOf("### Details per code");
  const section = text.slice(start, text.indexOf("\n## ", start));
  const keys = new Map<string, Set<string>>();
  for (const [, code, cell] of section.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)) {
    keys.set(code!, new Set([...cell!.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]!)));
  }
  return keys;
}

const catalog = createExampleCatalog();
const firstPath = catalog.list({ limit: 1 }).results[0]!.path;
const spec = (paths: object, components: object = {}): string =>
  JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths, components });

const cases: {
  readonly name: string;
  readonly code: ForageErrorCode;
  readonly make: () => unknown;
  readonly details: object;
}[] = [
  {
    name: "a duplicate operation path",
    code: "invalid_catalog",
    make: () => createCatalog({ revision: "r", operations: [exampleOperations[0]!, exampleOperations[0]!] }),
    details: { path: exampleOperations[0]!.path },
  },
  {
    name: "a malformed JSON Schema",
    code: "invalid_argument",
    make: () => jsonSchemaToZod({ type: "nothing" }),
    details: { keyword: "type", pointer: "/type", reason: expect.any(String) },
  },
  {
    name: "an unknown JSON Schema dialect",
    code: "invalid_argument",
    make: () => jsonSchemaToZod({}, { dialect: "draft-99" as never }),
    details: { dialect: "draft-99" },
  },
  {
    name: "a mountpoint that does not exist",
    code: "invalid_argument",
    make: () => prepareMountpoint("/nonexistent/forage-mountpoint"),
    details: { mountpoint: "/nonexistent/forage-mountpoint" },
  },
  {
    name: "a cursor from another namespace filter",
    code: "stale_cursor",
    make: () => {
      const [namespace] = firstPath.split(".");
      const { nextCursor } = catalog.list({ limit: 1, namespace });
      return catalog.list({ cursor: nextCursor });
    },
    details: {},
  },
  {
    name: "describe of an unknown path",
    code: "not_found",
    make: () => catalog.describe("no.such.operation"),
    details: { path: "no.such.operation" },
  },
  {
    name: "a spec over the byte bound",
    code: "too_large",
    make: () => normalizeOpenApi(" ".repeat(MAX_SPEC_BYTES + 1)),
    details: { limit: MAX_SPEC_BYTES, bytes: MAX_SPEC_BYTES + 1 },
  },
  {
    name: "a keyword the compiler cannot keep",
    code: "unsupported",
    make: () => jsonSchemaToZod({ type: "string", pattern: "^a" }),
    details: { keyword: "pattern", pointer: "/pattern", reason: expect.any(String) },
  },
  {
    name: "a Swagger 2 spec",
    code: "unsupported",
    make: () => normalizeOpenApi(JSON.stringify({ swagger: "2.0" })),
    details: { swagger: "2.0" },
  },
  {
    name: "an external $ref",
    code: "unsupported",
    make: () =>
      normalizeOpenApi(
        spec({ "/a": { get: { responses: { 200: { $ref: "other.json#/components/responses/ok" } } } } }),
      ),
    details: { ref: "other.json#/components/responses/ok" },
  },
  {
    name: "FUSE that is not there",
    code: "unsupported",
    make: () => loadNativeBindingFrom("/nonexistent/forage_fuse.node"),
    details: { feature: "fuse" },
  },
  {
    name: "a spec that is not YAML",
    code: "invalid_spec",
    make: () => normalizeOpenApi("openapi: 3.0.3\ninfo: [\n"),
    details: { line: expect.any(Number) },
  },
  {
    name: "a $ref that leads nowhere",
    code: "invalid_spec",
    make: () =>
      normalizeOpenApi(spec({ "/a": { get: { responses: { 200: { $ref: "#/components/responses/none" } } } } })),
    details: { ref: "#/components/responses/none" },
  },
  {
    name: "a table that is not an array",
    code: "invalid_table",
    make: () => parseOpenApiTable("not a table"),
    details: {},
  },
];

describe('ForageError details per code (docs/catalog.md, "Details per code")', () => {
  const documented = documentedKeys();
  const addon = process.env.FORAGE_FUSE_ADDON;
  afterEach(() => {
    if (addon === undefined) delete process.env.FORAGE_FUSE_ADDON;
    else process.env.FORAGE_FUSE_ADDON = addon;
  });

  test("the docs list every code, and the table below refuses with each", () => {
    expect([...documented.keys()].sort()).toEqual([...CODES].sort());
    expect(new Set(cases.map((row) => row.code))).toEqual(new Set(CODES));
  });

  test.each(cases)("$code: $name carries the details the docs name", ({ code, make, details }) => {
    const error = forageErrorOf(make);
    expect(error.code).toBe(code);
    expect(error.details).toEqual(expect.objectContaining(details));
    for (const key of Object.keys(error.details)) expect(documented.get(code), key).toContain(key);
    expect(Object.isFrozen(error.details)).toBe(true);
  });

  test("narrowing by code types the details: a caller reads them without probing", () => {
    const error: unknown = forageErrorOf(() => normalizeOpenApi("openapi: 3.0.3\ninfo: [\n"));
    const line: number | undefined = isForageError(error, "invalid_spec") ? error.details.line : undefined;
    expect(line).toBeGreaterThan(0);
    expect(isForageError(error, "invalid_catalog")).toBe(false);
  });

  test("FUSE that is not there is a FuseUnavailableError, a ForageError of its own", () => {
    expect(forageErrorOf(() => loadNativeBindingFrom("/nonexistent/forage_fuse.node"))).toBeInstanceOf(
      FuseUnavailableError,
    );
  });

  test("a host may still make its own, with keys of its own beside the documented ones", () => {
    const error = new ForageError("not_found", "no such thing", { path: "a.b", host: "mine" });
    expect(error.details).toEqual({ path: "a.b", host: "mine" });
    expect(isForageError(error, "not_found") && error.details.path).toBe("a.b");
  });
});

function loadNativeBindingFrom(path: string): unknown {
  process.env.FORAGE_FUSE_ADDON = path;
  return loadNativeBinding();
}
