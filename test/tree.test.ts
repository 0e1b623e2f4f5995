// The virtual tree without FUSE: docs/afi.md ("Paths", "Operations on FUSE", "Errors", "The search control file",
// "Ranked search: `/.search`", "The manifest") and docs/mount.md ("Layout", "Reserved names", "Search").
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  type Catalog,
  createCatalog,
  createExampleCatalog,
  createForage,
  scaledExampleOperations,
} from "../src/index.js";
import { createCatalogTree, NAMESPACE_FILE } from "../src/tree/catalog-tree.js";
import { TreeError, type VirtualTree } from "../src/tree/virtual-tree.js";

const catalog = createExampleCatalog();
const treeOf = (source: Catalog, subtree?: string) =>
  createCatalogTree(source, {
    revision: source.revision,
    stamp: source.stamp(),
    providerVersion: "0.0.0-test",
    subtree,
  });
const tree = treeOf(catalog);
const text = (target: VirtualTree, path: string) => new TextDecoder().decode(target.read(path));
const names = (target: VirtualTree, path: string) => target.list(path).map((entry) => entry.name);

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof TreeError) return error.code;
    throw error;
  }
  return "none";
}

function allOperationsInTreeOrder(target: VirtualTree, directory = "/"): string[] {
  const found: string[] = [];
  for (const entry of target.list(directory)) {
    const path = directory === "/" ? `/${entry.name}` : `${directory}/${entry.name}`;
    if (entry.kind === "directory" && !entry.name.startsWith("."))
      found.push(...allOperationsInTreeOrder(target, path));
    if (
      entry.kind === "file" &&
      entry.name.endsWith(".d.ts") &&
      entry.name !== NAMESPACE_FILE &&
      path !== "/index.d.ts"
    )
      found.push(path.slice(1, -5).split("/").join("."));
  }
  return found;
}

describe("layout", () => {
  test("namespaces are directories and each operation has .d.ts and .json from describe", () => {
    expect(tree.stat("/computers/local/files").kind).toBe("directory");
    expect(text(tree, "/computers/local/files/read.d.ts")).toBe(
      catalog.describe("computers.local.files.read").typescript,
    );
    const json = JSON.parse(text(tree, "/computers/local/files/read.json"));
    const description = catalog.describe("computers.local.files.read");
    expect(json).toEqual({
      path: "computers.local.files.read",
      validated: true,
      description: "Read a text file and return its contents.",
      capabilities: ["reads the local disk"],
      instructions: description.kind === "operation" ? description.instructions : null,
      sample: 'await env.computers.local.files.read({ path: "…" })',
      inputSchema: description.kind === "operation" ? description.inputSchema : null,
      outputSchema: description.kind === "operation" ? description.outputSchema : null,
    });
  });

  test("readdir order is list order, metadata entries first", () => {
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page = catalog.list({ cursor });
      listed.push(...page.results.map((summary) => summary.path));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(allOperationsInTreeOrder(tree)).toEqual(listed);
    expect(names(tree, "/").slice(0, 7)).toEqual([
      "@index.txt",
      ".afi",
      ".search",
      "README.md",
      "tsconfig.json",
      "index.d.ts",
      "package.json",
    ]);
    expect(names(tree, "/computers/local/files")).toEqual([
      "@index.txt",
      NAMESPACE_FILE,
      "delete.d.ts",
      "delete.json",
      "list.d.ts",
      "list.json",
      "read.d.ts",
      "read.json",
      "search.d.ts",
      "search.json",
      "write.d.ts",
      "write.json",
    ]);
  });

  test("stat sizes equal the bytes read", () => {
    const walk = (directory: string): void => {
      for (const entry of tree.list(directory)) {
        const path = directory === "/" ? `/${entry.name}` : `${directory}/${entry.name}`;
        if (entry.kind === "directory" && entry.name !== ".search") walk(path);
        if (entry.kind === "file" && !entry.writable) expect(tree.read(path).length, path).toBe(entry.size);
      }
    };
    walk("/");
  });

  test("a file read again, in any order, or before its directory is listed, has the same bytes and size", () => {
    const files = (target: VirtualTree): string[] => {
      const found: string[] = [];
      const walk = (directory: string): void => {
        for (const entry of target.list(directory)) {
          const path = directory === "/" ? `/${entry.name}` : `${directory}/${entry.name}`;
          if (entry.kind === "directory" && entry.name !== ".search") walk(path);
          if (entry.kind === "file" && !entry.writable) found.push(path);
        }
      };
      walk("/");
      return found;
    };
    const paths = files(tree);
    const first = new Map(paths.map((path) => [path, text(tree, path)]));
    for (const path of [...paths].reverse()) expect(text(tree, path), path).toBe(first.get(path));
    const unlisted = treeOf(catalog);
    for (const path of [...paths].reverse()) {
      expect(text(unlisted, path), path).toBe(first.get(path));
      expect(unlisted.stat(path).size, path).toBe(Buffer.byteLength(first.get(path) as string));
    }
  });

  test("namespace declaration files never collide with operation names, and compose at any size", () => {
    const input = z.object({ id: z.string() });
    const wide = z.object(
      Object.fromEntries(
        Array.from({ length: 40 }, (_, index) => [`field${index}`, z.string().max(100).describe(`Field ${index}.`)]),
      ),
    );
    const odd = createCatalog({
      revision: "r",
      operations: [
        { path: "ns.namespace", input },
        { path: "ns.index", input },
        ...Array.from({ length: 60 }, (_, index) => ({ path: `big.op${index}`, input: wide })),
      ],
    });
    const oddTree = treeOf(odd);
    expect(names(oddTree, "/ns")).toEqual([
      "@index.txt",
      NAMESPACE_FILE,
      "index.d.ts",
      "index.json",
      "namespace.d.ts",
      "namespace.json",
    ]);
    // docs/mount.md, "Editors": a namespace file imports its children instead of restating them.
    expect(text(oddTree, `/ns/${NAMESPACE_FILE}`)).toContain('import type * as op$index from "./index.js";');
    expect(() => odd.describe("big")).toThrow(/too large|over/);
    expect(text(oddTree, `/big/${NAMESPACE_FILE}`)).toContain('import type * as op$op59 from "./op59.js";');
    expect(names(oddTree, "/")).not.toContain(NAMESPACE_FILE);
  });
});

describe("metadata files", () => {
  test("the manifest declares profile 2, its capabilities, modes, ordering and the catalog", () => {
    const manifest = JSON.parse(text(tree, "/.afi/manifest.json"));
    expect(manifest).toMatchObject({
      afi_version: "0.1",
      provider: "forage",
      profile: 2,
      capabilities: ["stat", "list", "read", "search"],
      search: { modes: ["exact", "regex"] },
      path: { case_sensitive: true },
      "x-forage-revision": catalog.revision,
      "x-forage-stamp": catalog.stamp(),
      "x-forage-operations": catalog.size,
    });
    expect(typeof manifest.search["x-ordering"]).toBe("string");
  });

  test("README and tsconfig sit at the root", () => {
    expect(text(tree, "/README.md")).toContain(".search/");
    expect(JSON.parse(text(tree, "/tsconfig.json")).compilerOptions.strict).toBe(true);
  });
});

describe("/.search/<query>/", () => {
  test("entries are in rank order under a name sort, and each is a symlink to the operation's .d.ts", () => {
    const expected = catalog.search("send an email", { limit: 50 }).results.map((result) => result.path);
    const entries = tree.list("/.search/send an email").filter((entry) => /^\d/.test(entry.name));
    expect([...entries.map((entry) => entry.name)].sort()).toEqual(entries.map((entry) => entry.name));
    expect(entries.map((entry) => entry.name.replace(/^\d+-/, "").replace(/\.d\.ts$/, ""))).toEqual(expected);
    expect(entries[0]).toMatchObject({ kind: "symlink", target: "../../mail/messages/send.d.ts" });
    expect(tree.readlink(`/.search/send an email/${entries[0]!.name}`)).toBe("../../mail/messages/send.d.ts");
    expect(
      JSON.parse(text(tree, "/.search/send an email/results.json")).results.map(
        (result: { path: string }) => result.path,
      ),
    ).toEqual(expected);
  });

  test("a query directory's @index.txt shows the best four at most, one index line each, in rank order", () => {
    // After the second, only those scored at least half the best's (docs/mount.md, "Search").
    const best = catalog.search("send an email", { limit: 4 }).results;
    const expected = best.filter((result, index) => index < 2 || result.score >= (best[0]?.score ?? 0) / 2);
    const lines = text(tree, "/.search/send an email/@index.txt").trimEnd().split("\n");
    expect(lines[0]).toBe(
      `# search "send an email": best ${expected.length} of ${catalog.search("send an email", { limit: 50 }).results.length} (more: @index.2.txt)`,
    );
    expect(lines.slice(1).map((line) => line.slice(0, line.indexOf("(")))).toEqual(
      expected.map((result) => result.path),
    );
    expect(lines[1]).toBe("mail.messages.send({ to, subject, body, cc?, attachments? }) — Send an email message.");
  });

  test("the /.search root lists nothing and an unmatched query is an empty directory with its index and results.json", () => {
    expect(tree.list("/.search")).toEqual([]);
    expect(names(tree, "/.search/zzzqqq")).toEqual(["@index.txt", "results.json"]);
    expect(text(tree, "/.search/zzzqqq/@index.txt")).toBe('# search "zzzqqq": 0 operations\n');
    expect(errorCode(() => tree.stat("/.search/send email/99-nothing.d.ts"))).toBe("not_found");
  });
});

describe("/.afi/search control file", () => {
  async function ask(target: VirtualTree, request: unknown): Promise<string> {
    const session = target.openControl("/.afi/search");
    session.write(new TextEncoder().encode(JSON.stringify(request)), 0);
    const answer = new TextDecoder().decode(await session.read(0, 1 << 20));
    session.close();
    return answer;
  }

  test("exact mode returns NDJSON matches in (path, line) order, ended by an empty line", async () => {
    const answer = await ask(tree, { query: "maxLength 4096", opts: { limit: 5 } });
    expect(answer.endsWith("\n\n")).toBe(true);
    const matches = answer
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(matches).toHaveLength(5);
    for (const match of matches) {
      expect(match.text).toContain("maxLength 4096");
      expect(match.line).toBeGreaterThanOrEqual(1);
      expect(match.text.slice(match.column - 1)).toMatch(/^maxLength 4096/);
    }
    const keys = matches.map((match) => [match.path, match.line]);
    expect([...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))).toEqual(keys);
  });

  test("regex mode with flags and a path scope", async () => {
    const matches = (await ask(tree, { query: { regex: "SIG(TERM|KILL)", flags: "i" }, opts: { path: "/computers" } }))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(matches.length).toBeGreaterThan(0);
    for (const match of matches) expect(match.path.startsWith("/computers/")).toBe(true);
  });

  test("a bad regex is invalid_path (EINVAL), semantic is unsupported, a missing scope is not_found", () => {
    const session = tree.openControl("/.afi/search");
    session.write(new TextEncoder().encode('{"query":{"regex":"(unclosed"}}'), 0);
    expect(errorCode(() => session.read(0, 100))).toBe("invalid_path");
    const semantic = tree.openControl("/.afi/search");
    semantic.write(new TextEncoder().encode('{"query":{"semantic":"email"}}'), 0);
    expect(errorCode(() => semantic.read(0, 100))).toBe("unsupported");
    const scoped = tree.openControl("/.afi/search");
    scoped.write(new TextEncoder().encode('{"query":"x","opts":{"path":"/nope"}}'), 0);
    expect(errorCode(() => scoped.read(0, 100))).toBe("not_found");
  });

  test("a long search yields to the event loop between slices, so a mount serves others meanwhile", async () => {
    const big = treeOf(createCatalog({ revision: "r", operations: scaledExampleOperations(1_000) }));
    let others = 0;
    const other = (): void => {
      others += 1;
      if (others < 1_000) setImmediate(other);
    };
    setImmediate(other);
    const answer = await ask(big, { query: { regex: "no such text [0-9]{40}" } });
    const othersDuringSearch = others;
    others = 1_000;
    expect(answer).toBe("\n");
    // 5.7 MB of declarations take far longer than one 5 ms slice to search.
    expect(othersDuringSearch).toBeGreaterThan(1);
  });

  test("a catastrophic regex answers (RE2 runs in linear time; a backtracking engine would never finish)", async () => {
    expect(await ask(tree, { query: { regex: "(a+)+$" } })).toMatch(/\n$/);
  });

  test("a request written and closed waits for its caller's next reader only (shell: echo > then cat)", async () => {
    const open = (caller?: string) => tree.openControl("/.afi/search", caller);
    const writer = open("sid:1");
    writer.write(new TextEncoder().encode('{"query":"detect_language"}'), 0);
    writer.close();
    // Another caller (an agent's grep -r, say) neither takes nor disturbs it.
    expect(open("sid:2").read(0, 100)).toHaveLength(0);
    expect(open().read(0, 100)).toHaveLength(0);
    expect(new TextDecoder().decode(await open("sid:1").read(0, 1 << 20))).toContain("detect_language");
    // Answered once: the same caller's next read of the file is empty, never an error.
    expect(open("sid:1").read(0, 100)).toHaveLength(0);
    const bad = open("sid:3");
    bad.write(new TextEncoder().encode('{"query":{"regex":"("}}'), 0);
    bad.close();
    expect(errorCode(() => open("sid:3").read(0, 100))).toBe("invalid_path");
    expect(open("sid:3").read(0, 100)).toHaveLength(0);
    // Truncating without writing (`: > .afi/search`) withdraws a waiting request.
    const left = open("sid:4");
    left.write(new TextEncoder().encode('{"query":"detect_language"}'), 0);
    left.close();
    const emptied = open("sid:4");
    emptied.truncate(0);
    emptied.close();
    expect(open("sid:4").read(0, 100)).toHaveLength(0);
  });

  test("match text is at most 256 characters", async () => {
    const long = createCatalog({
      revision: "r",
      operations: [
        { path: "a.b", input: z.object({}), description: `${"word ".repeat(300)}needle ${"tail ".repeat(300)}` },
      ],
    });
    const [match] = (await ask(treeOf(long), { query: "needle" }))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(match.text.length).toBeLessThanOrEqual(256);
    expect(match.text).toContain("needle");
  });
});

describe("errors and cloaking", () => {
  test("missing is not_found, escaping is invalid_path, writes are read_only", () => {
    expect(errorCode(() => tree.stat("/nope"))).toBe("not_found");
    expect(errorCode(() => tree.stat("/../etc/passwd"))).toBe("invalid_path");
    expect(errorCode(() => tree.stat("relative"))).toBe("invalid_path");
    expect(errorCode(() => tree.stat("/a\u0000b"))).toBe("invalid_path");
    expect(errorCode(() => tree.openControl("/README.md"))).toBe("read_only");
    expect(errorCode(() => tree.read("/computers"))).toBe("invalid_path");
    expect(errorCode(() => tree.list("/README.md"))).toBe("invalid_path");
    expect(tree.stat("//computers//local/")).toEqual(tree.stat("/computers/local"));
  });

  test("subtree mounts one namespace as the root", () => {
    const sub = treeOf(catalog, "apps.bazaar");
    expect(names(sub, "/").filter((name) => !name.startsWith(".") && !name.includes("."))).toEqual([
      "cart",
      "catalog",
      "windows",
    ]);
    expect(text(sub, "/windows/open.d.ts")).toBe(catalog.describe("apps.bazaar.windows.open").typescript);
    expect(errorCode(() => sub.stat("/computers"))).toBe("not_found");
    expect(text(sub, "/index.d.ts")).toContain('import type * as ns$cart from "./cart/@namespace.js";');
    const ranked = sub.list("/.search/open window").filter((entry) => entry.kind === "symlink");
    expect(ranked[0]).toMatchObject({ target: "../../windows/open.d.ts" });
    expect(() => treeOf(catalog, "apps.nothing")).toThrow(/not a namespace/);
  });

  test("an empty view lists an empty root instead of failing", () => {
    const nothing = createForage(catalog, { bound: ["nothing.here"] });
    const empty = createCatalogTree(nothing, { revision: catalog.revision, stamp: "s", providerVersion: "0" });
    expect(names(empty, "/")).toEqual([
      "@index.txt",
      ".afi",
      ".search",
      "README.md",
      "tsconfig.json",
      "index.d.ts",
      "package.json",
    ]);
  });

  test("a query named like the namespace file is still a query", () => {
    expect(tree.stat(`/.search/${NAMESPACE_FILE}`).kind).toBe("directory");
  });

  test("a bound view hides unbound operations everywhere", () => {
    const guest = createForage(catalog, { bound: ["mail.**"] });
    const bound = createCatalogTree(guest, {
      revision: catalog.revision,
      stamp: catalog.stamp(),
      providerVersion: "0",
    });
    expect(names(bound, "/").filter((name) => !name.startsWith(".") && !name.includes("."))).toEqual(["mail"]);
    expect(errorCode(() => bound.stat("/computers/local/files/read.d.ts"))).toBe("not_found");
    for (const entry of bound.list("/.search/read a file"))
      if (entry.kind === "symlink") expect(entry.target).toMatch(/^\.\.\/\.\.\/mail\//);
    expect(text(bound, "/.search/read a file/results.json")).not.toContain("computers");
  });
});

// docs/mount.md, "The README" and "Index lines"
describe("the README and the namespace list", () => {
  const manyNamespaces = (count: number) =>
    createCatalog({
      revision: `ns-${count}`,
      operations: Array.from({ length: count }, (_, index) => ({
        path: `n${index}.op`,
        description: "One operation.",
        input: z.object({}),
      })),
    });

  test("the README maps no namespace and points at the root index, which lists each in one short line", () => {
    for (const count of [3, 501]) {
      const target = treeOf(manyNamespaces(count));
      const readme = text(target, "/README.md");
      expect(readme).not.toContain("n0/");
      expect(readme).toContain("`cat @index.txt` (namespaces), `cat NS/@index.txt` (operations");
      const pages = names(target, "/").filter((name) => name.startsWith("@index"));
      const lines = pages.flatMap((page) =>
        text(target, `/${page}`)
          .split("\n")
          .filter((line) => /^n\d/.test(line)),
      );
      expect(lines).toHaveLength(count);
      expect(lines[0]).toBe("n0/ — 1 operation — contains op");
    }
  });
});
