// The surface's bounds at a large catalog size, in the tree without FUSE: docs/mount.md, "Index lines",
// "The README", "Paging" and "Search" (the digest). The catalog is several thousand operations with the
// longest texts the catalog admits, non-ASCII ones cut where a surrogate pair sits, and sources with long
// titles and many left-out operations: every README, index page, index line and digest is read and checked.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, type OperationDefinition, scaledExampleOperations } from "../src/index.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";
import type { SourceInfo } from "../src/tree/source-info.js";
import type { VirtualTree } from "../src/tree/virtual-tree.js";
import { walkTree } from "../src/tree/walk-tree.js";

const README_BYTES = 2 * 1024;
const PAGE_BYTES = 16 * 1024;
const PAGE_ENTRY_LINES = 200;
const INDEX_LINE = 240;
const NAMESPACE_LINE = 160;
/** An operation line's sentence, and its signature unless its name alone takes the room (docs/mount.md, "Index lines"). */
const SENTENCE = 72;
const SIGNATURE = 96;
const DIGEST_BYTES = 1024;

const decoder = new TextDecoder();
const text = (tree: VirtualTree, path: string) => decoder.decode(tree.read(path));

/** A text whose every cut point is hard: long words, then emoji (surrogate pairs) and accents. */
function longText(seed: number, length: number): string {
  const words = [`Operation${seed}`, "reads", "supercalifragilisticexpialidocious", "🦊🦊🦊", "éàü", "and", "writes"];
  let out = "";
  for (let at = 0; out.length < length; at++) out += `${words[(seed + at) % words.length]} `;
  return out.slice(0, length);
}

const wide = z.object(
  Object.fromEntries(
    Array.from({ length: 40 }, (_, at) => [
      `a_rather_long_input_field_name_${at}`,
      at % 3 === 0 ? z.string() : z.string().optional(),
    ]),
  ),
);
const scalar = z.string();

/** ~4,000 generated operations: 200 namespaces of 20, and one namespace of 800 with the longest paths and texts. */
function generatedOperations(): OperationDefinition[] {
  const operations: OperationDefinition[] = [];
  for (let ns = 0; ns < 200; ns++) {
    for (let op = 0; op < 20; op++) {
      operations.push({
        path: `svc${String(ns).padStart(3, "0")}.group${op % 4}.do_${op}`,
        input: op % 5 === 0 ? scalar : wide,
        description: longText(ns * 20 + op, op % 4 === 0 ? 4_000 : 90),
      });
    }
  }
  const deep = Array.from({ length: 14 }, (_, at) => `level_${at}_${"x".repeat(8)}`).join(".");
  for (let op = 0; op < 800; op++) {
    const path = `huge.${deep}.op_${String(op).padStart(4, "0")}_${"y".repeat(40)}`;
    operations.push({ path: path.slice(0, 256), input: wide, description: `🦊${longText(op, 4_000)}` });
  }
  return operations;
}

/** Sources with long titles and descriptions and many left-out operations with long summaries. */
function sources(): SourceInfo[] {
  return Array.from({ length: 30 }, (_, at) => ({
    namespace: `svc${String(at).padStart(3, "0")}`,
    kind: "MCP server",
    origin: `mcp:server-${at}`,
    title: longText(at, 300),
    description: longText(at + 1, 4_000),
    sections: [],
    declared: 20 + 200,
    unsupported: Array.from({ length: 200 }, (_, index) => ({
      name: `left_out_${index}_${"z".repeat(60)}`,
      summary: longText(index, 300),
      reason: "the input schema is unsupported",
    })),
  }));
}

const operations = [...scaledExampleOperations(2_000), ...generatedOperations()];
const catalog = createCatalog({ revision: `r-${"v".repeat(254)}`, operations });
const treeOf = (subtree?: string) =>
  createCatalogTree(catalog, {
    revision: catalog.revision,
    stamp: catalog.stamp(),
    providerVersion: "0",
    subtree,
    sources: sources(),
  });
const tree = treeOf();

/** Every index page of a tree, by path. */
function indexPages(target: VirtualTree): Map<string, string> {
  const pages = new Map<string, string>();
  for (const { path, entry } of walkTree(target)) {
    if (entry.kind === "file" && /\/@index(\.\d+)?\.txt$/.test(path) && !path.startsWith("/.search"))
      pages.set(path, text(target, path));
  }
  return pages;
}

describe(`the surface of a catalog of ${operations.length} operations`, () => {
  test("the README is at most 2 KiB, whatever the catalog, revision and subtree", () => {
    expect(operations.length).toBeGreaterThan(5_000);
    for (const target of [tree, treeOf("huge.level_0_xxxxxxxx.level_1_xxxxxxxx")]) {
      const readme = text(target, "/README.md");
      expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(README_BYTES);
      expect(readme).toContain('cat ".search/$q/@index.txt"');
      expect(readme).toContain("`cat @index.txt`");
    }
  });

  test("every index page is at most 16 KiB and 200 entries, every line at most 240 characters, cut cleanly", () => {
    const pages = indexPages(tree);
    expect(pages.size).toBeGreaterThan(500);
    let paged = 0;
    for (const [path, page] of pages) {
      expect(Buffer.byteLength(page), path).toBeLessThanOrEqual(PAGE_BYTES);
      const lines = page.trimEnd().split("\n");
      expect(lines.filter((line) => !line.startsWith("#")).length, path).toBeLessThanOrEqual(PAGE_ENTRY_LINES);
      for (const line of lines) {
        expect(line.length, line).toBeLessThanOrEqual(INDEX_LINE);
        // A surrogate half cut from its pair would read back as U+FFFD.
        expect(line, path).not.toContain("\uFFFD");
        if (/^[^ ]+\/ — /.test(line)) expect(line.length, line).toBeLessThanOrEqual(NAMESPACE_LINE);
        const operation = /^(?:\[not validated\] )?(([^ (]+)\(.*?\)) — (.*)$/.exec(line);
        if (operation === null || path.startsWith("/.search")) continue;
        const [, signature = "", name = "", sentence = ""] = operation;
        expect(sentence.length, line).toBeLessThanOrEqual(SENTENCE);
        if (name.length < SIGNATURE / 2) expect(signature.length, line).toBeLessThanOrEqual(SIGNATURE);
      }
      if (/@index\.2\.txt$/.test(path)) paged += 1;
    }
    // The root (over 250 namespaces), the one huge namespace and the sources' left-out lists are paged.
    expect(pages.has("/@index.2.txt")).toBe(true);
    expect(paged).toBeGreaterThan(10);
  });

  test("a cut line ends in … after a whole word, and the signature keeps the path", () => {
    const lines = text(tree, "/svc000/group0/@index.txt").trimEnd().split("\n").slice(1);
    // Lines name operations below their directory (svc000.group0), as `ls` does.
    expect(lines[0]).toMatch(/^do_0\("…"\) — Operation0 reads .*…$/);
    expect(lines[0]).toMatch(/(Operation\d+|reads|supercalifragilisticexpialidocious|🦊🦊🦊|éàü|and|writes)…$/);
    const wideLine = lines.find((line) => line.startsWith("do_4(")) as string;
    expect(wideLine).toMatch(/^do_4\(\{ a_rather_long_input_field_name_0, .*, … \}\) — /);
  });

  test("the root index is a compact list of the namespaces, a source's saying what it is for", () => {
    const root = tree
      .list("/")
      .filter((entry) => entry.name.startsWith("@index"))
      .map((entry) => text(tree, `/${entry.name}`));
    const lines = root.flatMap((page) => page.split("\n").filter((line) => / — \d+ operations?/.test(line)));
    expect(lines.length).toBeGreaterThan(250);
    const svc = lines.find((line) => line.startsWith("svc000/")) as string;
    expect(svc).toMatch(/^svc000\/ — 20 operations, 200 unsupported — Operation0 reads/);
    expect(root.reduce((sum, page) => sum + Buffer.byteLength(page), 0)).toBeLessThan(lines.length * NAMESPACE_LINE);
  });

  test("a query's digest is at most 1 KiB and shows equivalent operations as the same", () => {
    const queries = [
      "send an email",
      "reads writes supercalifragilisticexpialidocious",
      "left out",
      "🦊",
      "z".repeat(1_024),
    ];
    for (const query of queries) {
      const digest = text(tree, `/.search/${query.slice(0, 200)}/@index.txt`);
      expect(Buffer.byteLength(digest), query).toBeLessThanOrEqual(DIGEST_BYTES);
      expect(digest).not.toContain("\uFFFD");
    }
    const mail = text(tree, "/.search/send an email/@index.txt").split("\n")[1] as string;
    expect(mail).toMatch(
      /^tenant\d{4}\.mail\.messages\.send\(\{ to, subject, body, cc\?, … \}\) — Send an email message\. — same as: tenant\d{4}\.mail\.messages\.send, \+\d+ more$/,
    );
    const left = text(tree, "/.search/left out/@index.txt");
    expect(left).toMatch(/\n\[unsupported\] svc\d{3}: left_out_/);
  });
});
