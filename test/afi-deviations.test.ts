// docs/afi.md, "Match context", "Search scope" and "Names": the AFI points the mount once got wrong,
// checked on the tree, on the AFI core and on the control file alike.
import { describe, expect, test } from "vitest";
import { createAfiCore } from "../src/afi/afi-core.js";
import { AfiError } from "../src/afi/afi-error.js";
import { createExampleCatalog } from "../src/example/example-catalog.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";
import {
  MAX_CONTEXT_LINE_TEXT,
  parseContentSearchRequest,
  searchContent,
} from "../src/tree/content-search/content-search.js";
import { MAX_TREE_NAME_BYTES } from "../src/tree/tree-path.js";
import { TreeError, type VirtualTree } from "../src/tree/virtual-tree.js";

const catalog = createExampleCatalog();
const tree = createCatalogTree(catalog, {
  revision: catalog.revision,
  stamp: catalog.list({ limit: 1 }).catalogStamp,
  providerVersion: "0.0.0-test",
});
const afi = createAfiCore(tree, { servedSince: new Date("2026-12-01T10:00:00.000Z") });

/** Writes a request to the control file and reads the answer's NDJSON lines, or the TreeError code. */
async function ask(target: VirtualTree, request: unknown): Promise<unknown[] | string> {
  const session = target.openControl("/.afi/search");
  session.write(new TextEncoder().encode(JSON.stringify(request)), 0);
  try {
    const answer = new TextDecoder().decode(await session.read(0, 1 << 20));
    return answer
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
  } catch (error) {
    if (error instanceof TreeError) return error.code;
    throw error;
  } finally {
    session.close();
  }
}

async function afiFailure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AfiError) return error.payload.code;
    throw error;
  }
  return "no error";
}

describe("Match context", () => {
  const long = `${"x".repeat(300)}`;
  const file = ["one", "two", "three", "four", "five", long, "six", ""].join("\n");
  test.each([
    ["the first line", "one", [], ["two", "three"]],
    ["a middle line", "four", ["two", "three"], ["five", `${"x".repeat(MAX_CONTEXT_LINE_TEXT - 1)}…`]],
    [
      "the last line (the final newline adds no line)",
      "six",
      ["five", `${"x".repeat(MAX_CONTEXT_LINE_TEXT - 1)}…`],
      [],
    ],
  ])("%s has up to 2 lines either side, each cut to a bound", async (_name, query, before, after) => {
    const [match] = await searchContent(
      [{ path: "/f.txt", text: () => file }],
      parseContentSearchRequest(JSON.stringify({ query })),
    );
    expect(match?.context).toEqual({ before, after });
  });

  test("the control file and the AFI core send the same context for the same match", async () => {
    const request = { query: "maxLength 4096", opts: { limit: 3 } };
    const fromFile = await ask(tree, request);
    const fromCore = (await afi.search(request.query, request.opts)).matches;
    expect(fromFile).toEqual(fromCore);
    for (const match of fromCore) {
      const lines = new TextDecoder().decode(tree.read(match.path)).split("\n");
      expect(match.context.before).toEqual(lines.slice(Math.max(0, match.line - 3), match.line - 1));
      expect(match.context.after.length).toBeLessThanOrEqual(2);
      expect(match.context.after).toEqual(lines.slice(match.line, match.line + match.context.after.length));
    }
  });
});

describe("Search scope", () => {
  test.each([
    ["/.search", []],
    [
      "/.search/send an email",
      // Sorted by path: "@index.2.txt" before "@index.txt".
      [
        "/.search/send an email/@index.2.txt",
        "/.search/send an email/@index.txt",
        "/.search/send an email/results.json",
      ],
    ],
    ["/.search/send an email/results.json", ["/.search/send an email/results.json"]],
  ])(
    "opts.path %s answers from the files it holds, on the control file and in the AFI core alike",
    async (path, files) => {
      expect(tree.stat("/.search/send an email").kind).toBe("directory");
      const fromFile = (await ask(tree, { query: "email", opts: { path, limit: 1000 } })) as { path: string }[];
      const fromCore = (await afi.search("email", { path, limit: 1000 })).matches;
      expect(fromFile).toEqual(fromCore);
      expect([...new Set(fromCore.map((match) => match.path))]).toEqual(files);
    },
  );

  test("a missing query file under /.search is not_found, never invalid_path", async () => {
    const path = "/.search/send an email/nope.txt";
    expect(await ask(tree, { query: "email", opts: { path } })).toBe("not_found");
    expect(await afiFailure(() => afi.search("email", { path }))).toBe("not_found");
  });
});

describe("Names", () => {
  const longest = "a".repeat(MAX_TREE_NAME_BYTES);
  test("a /.search name of the longest length is a query directory with its listing", () => {
    expect(afi.stat(`/.search/${longest}`).type).toBe("directory");
    expect(afi.list(`/.search/${longest}`).entries.map((entry) => entry.path)).toContain(
      `/.search/${longest}/results.json`,
    );
  });

  test.each([
    ["one byte over", "a".repeat(MAX_TREE_NAME_BYTES + 1)],
    ["over 1,024 characters", "send an email ".repeat(80)],
    ["over in bytes though not in characters", "é".repeat(MAX_TREE_NAME_BYTES / 2 + 1)],
  ])("a name %s is invalid_path at stat, never a directory that fails later", async (_case, name) => {
    for (const path of [`/.search/${name}`, `/.search/${name}/results.json`, `/mail/${name}`]) {
      expect(await afiFailure(async () => afi.stat(path))).toBe("invalid_path");
      expect(await afiFailure(async () => afi.list(path))).toBe("invalid_path");
    }
  });
});
