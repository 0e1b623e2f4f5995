// docs/catalog.md, "Exhaustive listing" and "Cursors".
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, createForage } from "../src/index.js";
import { variedOperations } from "./fixtures/varied-catalog.js";
import { forageErrorOf, listAll } from "./helpers/forage-assertions.js";

const input = z.object({ id: z.string() });
const op = (path: string, description = `Does ${path}.`) => ({ path, input, description });

const codeOf = (run: () => unknown): string => forageErrorOf(run).code;

describe("list order", () => {
  const paths = ["b.z", "a_b.x", "a.b.c", "B.a", "a.B", "ab.a", "a.a", "a.b_c", "a.b.a", "Z.q", "a.b"];
  const expected = ["B.a", "Z.q", "a.B", "a.a", "a.b", "a.b.a", "a.b.c", "a.b_c", "a_b.x", "ab.a", "b.z"];

  test("is by namespace, then full path, by UTF-16 code units, never by locale", () => {
    const catalog = createCatalog({ revision: "r", operations: paths.map((path) => op(path)) });
    expect(listAll(catalog).map((summary) => summary.path)).toEqual(expected);
    // Locale order would put "a.B" next to "a.b" and lower case first; code units put upper case first.
    expect([...paths].sort((x, y) => x.localeCompare(y))).not.toEqual(expected);
  });

  test("does not depend on registration order", () => {
    const forward = createCatalog({ revision: "r", operations: paths.map((path) => op(path)) });
    const backward = createCatalog({ revision: "r", operations: [...paths].reverse().map((path) => op(path)) });
    expect(listAll(backward).map((summary) => summary.path)).toEqual(listAll(forward).map((summary) => summary.path));
  });

  test("never merges equivalent operations, and summaries carry score 0", () => {
    const catalog = createCatalog({ revision: "r", operations: [op("a.one", "Same."), op("a.two", "Same.")] });
    const page = catalog.list();
    expect(page.results.map((summary) => summary.path)).toEqual(["a.one", "a.two"]);
    for (const summary of page.results) {
      expect(summary.score).toBe(0);
      expect(summary.peers).toBeUndefined();
      expect(summary.sample).toBe(`await env.${summary.path}({ id: "…" })`);
      expect(Object.keys(summary).sort()).toEqual(["capabilities", "description", "path", "sample", "score"]);
    }
  });
});

describe("limits", () => {
  const catalog = createCatalog({
    revision: "r",
    operations: Array.from({ length: 120 }, (_, index) => op(`bulk.op${index}`)),
  });

  test("the default and maximum limit is 50", () => {
    expect(catalog.list().results).toHaveLength(50);
    expect(catalog.list({ limit: 50 }).results).toHaveLength(50);
    expect(catalog.list({ limit: 1 }).results).toHaveLength(1);
  });

  test.each([0, 51, -1, 1.5, Number.NaN, "10"])("limit %s is invalid_argument, never clamped", (limit) => {
    expect(codeOf(() => catalog.list({ limit: limit as number }))).toBe("invalid_argument");
  });
});

describe("namespaces", () => {
  const catalog = createCatalog({
    revision: "r",
    operations: [
      op("apps.bazaar.windows.open"),
      op("apps.bazaar.cart.add"),
      op("apps.bazaarx.open"),
      op("apps.notes.find"),
      op("mail.send"),
    ],
  });

  test("total counts every operation under the namespace, nested ones included", () => {
    const page = catalog.list({ namespace: "apps", limit: 1 });
    expect(page.total).toBe(4);
    expect(page.results).toHaveLength(1);
    expect(catalog.list().total).toBe(5);
  });

  test("apps.bazaar selects apps.bazaar.windows.open but not apps.bazaarx.open", () => {
    expect(listAll(catalog, { namespace: "apps.bazaar" }).map((summary) => summary.path)).toEqual([
      "apps.bazaar.cart.add",
      "apps.bazaar.windows.open",
    ]);
  });

  test("an unknown namespace gives an empty page with total 0", () => {
    expect(catalog.list({ namespace: "nothing.here" })).toEqual({
      results: [],
      total: 0,
      catalogStamp: catalog.stamp(),
      nextCursor: null,
    });
    // An operation path is not a namespace of itself.
    expect(catalog.list({ namespace: "mail.send" }).total).toBe(0);
  });
});

describe("cursors", () => {
  const catalog = createCatalog({ revision: "r", operations: variedOperations });

  test.each([1, 7, 50])("following nextCursor yields every operation exactly once (limit %i)", (limit) => {
    const paths = listAll(catalog, { limit }).map((summary) => summary.path);
    expect(paths).toHaveLength(variedOperations.length);
    expect(new Set(paths).size).toBe(variedOperations.length);
    expect(new Set(paths)).toEqual(new Set(variedOperations.map((operation) => operation.path)));
  });

  test("the cursor is opaque: no path, offset or namespace shows in it", () => {
    const cursor = catalog.list({ limit: 3, namespace: "computers" }).nextCursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain("computers");
  });

  test("a cursor reused against another stamp fails with stale_cursor", () => {
    const cursor = catalog.list({ limit: 5 }).nextCursor;
    const changed = createCatalog({ revision: "r2", operations: [...variedOperations, op("zzz.added")] });
    expect(codeOf(() => changed.list({ limit: 5, cursor }))).toBe("stale_cursor");
  });

  test("a cursor reused against another namespace filter fails with stale_cursor", () => {
    const cursor = catalog.list({ limit: 2, namespace: "computers" }).nextCursor;
    expect(codeOf(() => catalog.list({ limit: 2, namespace: "mail", cursor }))).toBe("stale_cursor");
    expect(codeOf(() => catalog.list({ limit: 2, cursor }))).toBe("stale_cursor");
  });

  test("a cursor from a longer listing is stale, not invalid, wherever its offset points", () => {
    const big = createCatalog({
      revision: "r",
      operations: Array.from({ length: 63 }, (_, index) => op(`bulk.op${index}`)),
    });
    const cursor = big.list().nextCursor;
    expect(codeOf(() => catalog.list({ cursor }))).toBe("stale_cursor");
    expect(codeOf(() => big.list({ namespace: "bulk", cursor }))).toBe("stale_cursor");
    expect(codeOf(() => createForage(big, { bound: ["bulk.op1"] }).list({ cursor }))).toBe("stale_cursor");
  });

  test("a cursor reused against another binding fails with stale_cursor", () => {
    const cursor = catalog.list({ limit: 2 }).nextCursor;
    const guest = createForage(catalog, { bound: ["computers.**"] });
    expect(codeOf(() => guest.list({ limit: 2, cursor }))).toBe("stale_cursor");
    const guestCursor = guest.list({ limit: 2 }).nextCursor;
    expect(codeOf(() => catalog.list({ limit: 2, cursor: guestCursor }))).toBe("stale_cursor");
  });

  test("a cursor survives a new catalog with the same content, whatever its revision label", () => {
    const cursor = catalog.list({ limit: 5 }).nextCursor;
    const relabelled = createCatalog({ revision: "another label", operations: [...variedOperations].reverse() });
    expect(relabelled.list({ limit: 5, cursor }).results[0]!.path).toBe(
      catalog.list({ limit: 5, cursor }).results[0]!.path,
    );
  });

  test("a garbage or tampered cursor is invalid_argument; a forged scope is stale", () => {
    for (const cursor of ["garbage", "", "x".repeat(10_000), Buffer.from('{"s":"x","o":-1}').toString("base64url")]) {
      expect(codeOf(() => catalog.list({ cursor }))).toBe("invalid_argument");
    }
    expect(codeOf(() => catalog.list({ cursor: Buffer.from('{"s":"x","o":5}').toString("base64url") }))).toBe(
      "stale_cursor",
    );
    const real = JSON.parse(Buffer.from(catalog.list({ limit: 5 }).nextCursor!, "base64url").toString());
    const tampered = Buffer.from(JSON.stringify({ ...real, o: 99_999 })).toString("base64url");
    expect(codeOf(() => catalog.list({ cursor: tampered }))).toBe("invalid_argument");
  });
});
