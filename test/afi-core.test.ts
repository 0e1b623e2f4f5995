// docs/afi.md, "The AFI core": stat, list, read and search over a real catalog tree, the AFI errors and cloaking.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createAfiCore } from "../src/afi/afi-core.js";
import { AfiError, type AfiErrorPayload } from "../src/afi/afi-error.js";
import type { AfiCore } from "../src/afi/types.js";
import { createCatalog } from "../src/catalog/create-catalog.js";
import { createForage } from "../src/catalog/create-forage.js";
import { createExampleCatalog } from "../src/example/example-catalog.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";

const SERVED = new Date("2026-12-01T10:00:00.000Z");
const catalog = createExampleCatalog();

function core(options: { searchControl?: boolean; bound?: readonly string[] } = {}): AfiCore {
  const forage = options.bound === undefined ? catalog : createForage(catalog, { bound: options.bound });
  const stamp = forage.list({ limit: 1 }).catalogStamp;
  const tree = createCatalogTree(forage, {
    revision: catalog.revision,
    stamp,
    providerVersion: "0.0.0-test",
    searchControl: options.searchControl ?? true,
  });
  return createAfiCore(tree, { servedSince: SERVED });
}

const afi = core();

/** The AFI error an operation fails with. */
async function failure(run: () => unknown): Promise<AfiErrorPayload> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AfiError);
    return (error as AfiError).payload;
  }
  throw new Error("expected an AFI error");
}

describe("stat", () => {
  test.each([
    ["/", "directory", "inode/directory"],
    ["/computers/local/files", "directory", "inode/directory"],
    ["/computers/local/files/read.d.ts", "file", "application/typescript"],
    ["/computers/local/files/read.json", "file", "application/json"],
    ["/README.md", "file", "text/markdown"],
    ["/.afi/manifest.json", "file", "application/json"],
  ])("%s is a %s of %s, times from the revision", (path, type, contentType) => {
    const entry = afi.stat(path);
    expect(entry).toMatchObject({ path, type, content_type: contentType });
    expect(entry.mtime).toBe("2026-12-01T10:00:00Z");
    expect(entry.ctime).toBe(entry.mtime);
    if (type === "directory") expect(entry.size).toBe(0);
    else expect(entry.size).toBe(afi.read(path).bytes.length);
  });

  test("a path is normalised before it is looked up", () => {
    expect(afi.stat("//computers/./local/../local/files/").path).toBe("/computers/local/files");
  });
});

describe("errors", () => {
  test.each([
    ["stat of a missing path", () => afi.stat("/nope"), "not_found"],
    ["stat of a relative path", () => afi.stat("computers"), "invalid_path"],
    ["stat of a path escaping the root", () => afi.stat("/.."), "invalid_path"],
    ["stat of a path with NUL", () => afi.stat("/a\u0000b"), "invalid_path"],
    ["stat of a path that is not a string", () => afi.stat(42), "invalid_path"],
    ["stat of a path longer than 4,096", () => afi.stat(`/${"a".repeat(4_100)}`), "invalid_path"],
    ["list of a file", () => afi.list("/README.md"), "invalid_path"],
    ["list of a missing directory", () => afi.list("/nope"), "not_found"],
    ["list with limit 0", () => afi.list("/", { limit: 0 }), "invalid_path"],
    ["list with a forged cursor", () => afi.list("/", { cursor: "garbage" }), "invalid_path"],
    ["read of a directory", () => afi.read("/computers"), "invalid_path"],
    ["read with a negative offset", () => afi.read("/README.md", { offset: -1 }), "invalid_path"],
    ["search with an empty query", () => afi.search(""), "invalid_path"],
    ["search with a bad regex", () => afi.search({ regex: "(" }), "invalid_path"],
    ["search with a backreference", () => afi.search({ regex: "(a)\\1" }), "invalid_path"],
    ["search in semantic mode", () => afi.search({ semantic: "files" }), "unsupported"],
    ["search under a missing path", () => afi.search("read", { path: "/nope" }), "not_found"],
  ])("%s is %s", async (_name, run, code) => {
    const payload = await failure(run);
    expect(payload.code).toBe(code);
    expect(payload.message.length).toBeGreaterThan(0);
  });

  test("a not_found names the path", async () => {
    expect(await failure(() => afi.stat("/nope/deeper"))).toMatchObject({ code: "not_found", path: "/nope/deeper" });
  });

  test("a profile 1 tree (no search control) refuses search as unsupported", async () => {
    const readOnly = core({ searchControl: false });
    expect(readOnly.manifest().profile).toBe(1);
    expect((await failure(() => readOnly.search("read"))).code).toBe("unsupported");
  });
});

describe("list", () => {
  test("pages with a cursor until next_cursor is absent, covering every child once", () => {
    const whole = afi.list("/computers/local/files").entries.map((entry) => entry.path);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = afi.list("/computers/local/files", { limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.entries.length).toBeLessThanOrEqual(2);
      paged.push(...page.entries.map((entry) => entry.path));
      cursor = page.next_cursor;
    } while (cursor !== undefined);
    expect(paged).toEqual(whole);
    expect(whole.length).toBeGreaterThan(2);
  });

  test.each([
    ["*.d.ts", (name: string) => name.endsWith(".d.ts")],
    ["read*", (name: string) => name.startsWith("read")],
    ["?????.json", (name: string) => /^.{5}\.json$/.test(name)],
  ])("glob %s filters child names before paging", (glob, expected) => {
    const all = afi.list("/computers/local/files").entries.map((entry) => entry.path.split("/").pop() as string);
    const globbed = afi.list("/computers/local/files", { glob }).entries.map((entry) => entry.path.split("/").pop());
    expect(globbed).toEqual(all.filter(expected));
    expect(globbed.length).toBeGreaterThan(0);
  });

  test("a cursor is refused for another directory or glob (stale-safe)", async () => {
    const first = afi.list("/computers/local/files", { limit: 1 });
    expect(first.next_cursor).toBeDefined();
    const other = await failure(() => afi.list("/", { cursor: first.next_cursor }));
    expect(other).toMatchObject({ code: "invalid_path", "x-forage-reason": "stale_cursor" });
    const globbed = await failure(() => afi.list("/computers/local/files", { cursor: first.next_cursor, glob: "*" }));
    expect(globbed.code).toBe("invalid_path");
  });

  test("a cursor is refused by another revision's tree", async () => {
    const first = afi.list("/computers/local/files", { limit: 1 });
    const narrowed = core({ bound: ["computers.local.files.*"] });
    const stale = await failure(() => narrowed.list("/computers/local/files", { cursor: first.next_cursor }));
    expect(stale["x-forage-reason"]).toBe("stale_cursor");
  });

  test("the search control file does not exist over the AFI core", async () => {
    expect(afi.list("/.afi").entries.map((entry) => entry.path)).toEqual(["/.afi/manifest.json"]);
    expect((await failure(() => afi.stat("/.afi/search"))).code).toBe("not_found");
    expect((await failure(() => afi.read("/.afi/search"))).code).toBe("not_found");
  });
});

describe("read", () => {
  const path = "/computers/local/files/read.d.ts";
  const whole = afi.read(path);
  const size = whole.bytes.length;

  test.each([
    ["the whole file", {}, 0, size, true],
    ["a head", { length: 10 }, 0, 10, false],
    ["a middle", { offset: 5, length: 10 }, 5, 15, false],
    ["the tail", { offset: size - 3 }, size - 3, size, true],
    ["past the end", { offset: size + 10 }, size, size, true],
    ["zero bytes mid-file", { offset: 4, length: 0 }, 4, 4, false],
    ["zero bytes at the end", { offset: size, length: 0 }, size, size, true],
  ])("%s", (_name, options, from, to, eof) => {
    const result = afi.read(path, options);
    expect(Buffer.from(result.bytes)).toEqual(Buffer.from(whole.bytes.subarray(from, to)));
    expect(result.eof).toBe(eof);
    expect(result.size).toBe(size);
    expect(result.content_type).toBe(afi.stat(path).content_type);
  });
});

describe("search", () => {
  test("exact mode finds substrings, in (path, line) order", async () => {
    const { matches } = await afi.search("export type", { limit: 1_000 });
    expect(matches.length).toBeGreaterThan(0);
    const keys = matches.map((match) => `${match.path}\u0000${String(match.line).padStart(8, "0")}`);
    expect(keys).toEqual([...keys].sort());
    for (const match of matches) {
      expect(match.text).toContain("export type");
      const line = new TextDecoder().decode(afi.read(match.path).bytes).split("\n")[match.line - 1];
      expect(line?.indexOf("export type")).toBe(match.column - 1);
      expect(match).not.toHaveProperty("score");
    }
  });

  test("regex mode with flags", async () => {
    const { matches } = await afi.search({ regex: "^EXPORT\\s+TYPE", flags: "i" }, { limit: 5 });
    expect(matches.length).toBeGreaterThan(0);
    for (const match of matches) expect(match.text).toMatch(/^export\s+type/i);
  });

  test("opts.path scopes the search to a subtree", async () => {
    const { matches } = await afi.search("path", { path: "/computers/local/files", limit: 1_000 });
    expect(matches.length).toBeGreaterThan(0);
    for (const match of matches) expect(match.path.startsWith("/computers/local/files/")).toBe(true);
  });

  test("opts.path may name a file: the search reads that file alone", async () => {
    const { matches } = await afi.search("export", { path: "/mail/messages/send.d.ts", limit: 1_000 });
    expect(matches.length).toBeGreaterThan(0);
    for (const match of matches) expect(match.path).toBe("/mail/messages/send.d.ts");
  });

  test("a scope's files are exactly those under it, though a sibling file sorts between it and them", async () => {
    // "/shop/cart.d.ts" sorts after "/shop/cart" and before "/shop/cart/…" ("." < "/").
    const shop = createCatalog({
      revision: "r",
      operations: [
        { path: "shop.cart", input: z.object({ id: z.string() }), description: "The cart." },
        { path: "shop.cart.add", input: z.object({ id: z.string() }), description: "Add to the cart." },
      ],
    });
    const tree = createCatalogTree(shop, { revision: "r", stamp: "s", providerVersion: "0" });
    const scoped = createAfiCore(tree, { servedSince: SERVED });
    const under = await scoped.search("cart", { path: "/shop/cart", limit: 1_000 });
    expect(under.matches.length).toBeGreaterThan(0);
    for (const match of under.matches) expect(match.path.startsWith("/shop/cart/")).toBe(true);
    const paged = [];
    let cursor: string | undefined;
    do {
      const page = await scoped.search("cart", {
        path: "/shop/cart",
        limit: 1,
        ...(cursor === undefined ? {} : { cursor }),
      });
      paged.push(...page.matches);
      cursor = page.next_cursor;
    } while (cursor !== undefined);
    expect(paged).toEqual(under.matches);
  });

  test("pages by cursor: the pages join to the unpaged answer, with no repeat", async () => {
    const whole = (await afi.search("string", { limit: 1_000 })).matches;
    expect(whole.length).toBeGreaterThan(7);
    const paged = [];
    let cursor: string | undefined;
    do {
      const page = await afi.search("string", { limit: 3, ...(cursor === undefined ? {} : { cursor }) });
      paged.push(...page.matches);
      cursor = page.next_cursor;
    } while (cursor !== undefined);
    expect(paged).toEqual(whole);
  });

  test("a regex cursor pages on whatever order the query's keys come in", async () => {
    const first = await afi.search({ regex: "string", flags: "i" }, { limit: 2 });
    const next = await afi.search({ flags: "i", regex: "string" }, { limit: 2, cursor: first.next_cursor });
    const whole = await afi.search({ regex: "string", flags: "i" }, { limit: 4 });
    expect([...first.matches, ...next.matches]).toEqual(whole.matches);
  });

  test("a search cursor is refused for another query", async () => {
    const first = await afi.search("string", { limit: 1 });
    expect((await failure(() => afi.search("number", { cursor: first.next_cursor }))).code).toBe("invalid_path");
  });
});

describe("cloaking", () => {
  const narrowed = core({ bound: ["computers.local.files.read"] });

  test.each([["/computers/local/files/write.d.ts"], ["/computers/local/files/write.json"]])(
    "an unbound operation's %s is not_found, exactly like a path that never existed",
    async (path) => {
      const hidden = await failure(() => narrowed.stat(path));
      const missing = await failure(() => narrowed.stat("/computers/local/files/never.d.ts"));
      expect(hidden.code).toBe(missing.code);
      expect(hidden.message).toBe(missing.message);
      expect(hidden.code).toBe("not_found");
      expect((await failure(() => narrowed.read(path))).code).toBe("not_found");
    },
  );

  test("unbound operations are absent from listings and searches", async () => {
    const names = narrowed.list("/computers/local/files").entries.map((entry) => entry.path);
    expect(names.some((name) => name.includes("write"))).toBe(false);
    const { matches } = await narrowed.search("write", { limit: 1_000 });
    expect(matches.filter((match) => match.path.includes("/files/write"))).toEqual([]);
  });
});
