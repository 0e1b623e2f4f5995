// The node table the FUSE addon serves without JS (src/fuse/node-table.ts), built from the
// example catalog's tree without mounting: its layout, the nodes it leaves to the handlers,
// and how it numbers inodes across revisions (docs/native.md, "The node table: most requests never reach JS").
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { InodeTable, ROOT_INO } from "../src/fuse/inode-table.js";
import type { NodeTableSettings } from "../src/fuse/node-table.js";
import { createCatalog, createExampleCatalog, type OperationDefinition } from "../src/index.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";
import type { VirtualTree } from "../src/tree/virtual-tree.js";
import { walkTree } from "../src/tree/walk-tree.js";
import { nodeTableSpec } from "./helpers/node-table-spec.js";

const FORWARD = 1;
const UNLISTED = 2;
const settings: NodeTableSettings = {
  modeOf: (info) => (info.kind === "directory" ? 0o040555 : info.kind === "symlink" ? 0o120777 : 0o100444),
  forwardFlag: FORWARD,
  unlistedFlag: UNLISTED,
  entryTimeout: 1,
  attrTimeout: 1,
  negativeTimeout: 1,
};
const catalog = createExampleCatalog();
const tree = createCatalogTree(catalog, { revision: catalog.revision, stamp: catalog.stamp(), providerVersion: "x" });
const decoder = new TextDecoder();

/** Path of table node i, from the parents the spec gives. */
function pathsOf(spec: ReturnType<typeof nodeTableSpec>["spec"]): string[] {
  const byIno = new Map<number, number>();
  spec.inos.forEach((ino, i) => {
    byIno.set(ino, i);
  });
  const paths: string[] = [];
  spec.names.forEach((name, i) => {
    const parent = paths[byIno.get(spec.parents[i]!)!];
    paths.push(i === 0 ? "/" : parent === "/" ? `/${name}` : `${parent}/${name}`);
  });
  return paths;
}

describe("the node table of a tree", () => {
  test("holds every listed node once, each directory's children in one run in listing order, with their bytes", () => {
    const { spec } = nodeTableSpec(tree, new InodeTable(), settings);
    const paths = pathsOf(spec);
    const walked = [...walkTree(tree)].map(({ path }) => path);
    expect(paths.slice(1).sort()).toEqual([...walked, "/.search"].sort());
    for (let i = 0; i < paths.length; i++) {
      if (spec.childCount[i] === 0) continue;
      const run = spec.names.slice(spec.firstChild[i], spec.firstChild[i]! + spec.childCount[i]!);
      expect(run).toEqual(tree.list(paths[i]!).map((entry) => entry.name));
    }
    const read = paths.indexOf("/computers/local/files/read.d.ts");
    expect(decoder.decode(spec.contents[read])).toBe(catalog.describe("computers.local.files.read").typescript);
    expect(spec.flags[read]).toBe(0);
  });

  test("leaves the control file to the handlers, and marks /.search as answering unlisted names", () => {
    const { spec } = nodeTableSpec(tree, new InodeTable(), settings);
    const paths = pathsOf(spec);
    expect(spec.flags[paths.indexOf("/.afi/search")]).toBe(FORWARD);
    expect(spec.contents[paths.indexOf("/.afi/search")]).toBeUndefined();
    expect(spec.flags[paths.indexOf("/.search")]).toBe(UNLISTED);
  });

  test("past its room for bytes, leaves the remaining files to the handlers instead of holding them", () => {
    const room = 20_000;
    const { spec } = nodeTableSpec(tree, new InodeTable(), { ...settings, maxContentBytes: room });
    const held = spec.contents.reduce((sum, bytes) => sum + (bytes?.length ?? 0), 0);
    expect(held).toBeLessThanOrEqual(room);
    const paths = pathsOf(spec);
    const left = paths.filter((path, i) => spec.flags[i] === FORWARD && path !== "/.afi/search");
    expect(left.length).toBeGreaterThan(0);
    for (const path of left) expect(spec.contents[paths.indexOf(path)]).toBeUndefined();
  });

  test("a file that fails to render is left to the handlers; the rest of the table is built", () => {
    const broken: VirtualTree = {
      stamp: tree.stamp,
      stat: (path) => tree.stat(path),
      list: (path) => tree.list(path),
      read: (path) => (path === "/README.md" ? failRender() : tree.read(path)),
      readlink: (path) => tree.readlink(path),
      openControl: (path, caller) => tree.openControl(path, caller),
    };
    const { spec } = nodeTableSpec(broken, new InodeTable(), settings);
    const paths = pathsOf(spec);
    expect(spec.flags[paths.indexOf("/README.md")]).toBe(FORWARD);
    expect(spec.contents[paths.indexOf("/tsconfig.json")]).toBeDefined();
  });

  test("makes each file's bytes once: it reads a file without first asking its listing's lazy size", () => {
    // A listing's size is made on demand by rendering the file; asking it and then reading would
    // render every file twice (docs/native.md, "The node table: most requests never reach JS").
    const sizesAsked: string[] = [];
    const counting: VirtualTree = {
      stamp: tree.stamp,
      stat: (path) => tree.stat(path),
      list: (path) =>
        tree.list(path).map((entry) =>
          entry.kind !== "file"
            ? entry
            : {
                ...entry,
                get size() {
                  sizesAsked.push(`${path}/${entry.name}`);
                  return tree.stat(`${path === "/" ? "" : path}/${entry.name}`).size;
                },
              },
        ),
      read: (path) => tree.read(path),
      readlink: (path) => tree.readlink(path),
      openControl: (path, caller) => tree.openControl(path, caller),
    };
    const { spec } = nodeTableSpec(counting, new InodeTable(), settings);
    expect(spec.contents.filter((bytes) => bytes !== undefined).length).toBeGreaterThan(10);
    expect(sizesAsked).toEqual([]);
  });
});

describe("inode numbers across revisions", () => {
  const operation = (path: string): OperationDefinition => ({ path, input: z.object({}) });
  const treeOf = (paths: string[]): VirtualTree => {
    const next = createCatalog({ revision: paths.join(","), operations: paths.map(operation) });
    return createCatalogTree(next, { revision: next.revision, stamp: next.stamp(), providerVersion: "x" });
  };

  test("numbering touches nothing; once a table's nodes are in, a path that keeps its kind keeps its number, a new kind gets a new one", () => {
    const inodes = new InodeTable();
    const first = nodeTableSpec(treeOf(["a.b.c", "a.d"]), inodes, settings);
    expect(inodes.size).toBe(1); // only the root
    expect(first.nodes[0]!.ino).toBe(ROOT_INO);
    // What a swap's commit does once the addon serves the table (revision-swap.ts).
    for (const node of first.nodes) inodes.attach(node).pinned = true;
    const numberOf = (spec: typeof first.spec, path: string): number => spec.inos[pathsOf(spec).indexOf(path)]!;
    // a.d becomes a namespace directory (a.d.e): its path changes kind.
    const second = nodeTableSpec(treeOf(["a.b.c", "a.d.e"]), inodes, settings);
    expect(numberOf(second.spec, "/a/b/c.d.ts")).toBe(numberOf(first.spec, "/a/b/c.d.ts"));
    expect(numberOf(second.spec, "/a")).toBe(numberOf(first.spec, "/a"));
    expect(numberOf(second.spec, "/a/d")).not.toBe(numberOf(first.spec, "/a/d.d.ts"));
    expect(new Set(second.spec.inos).size).toBe(second.spec.inos.length);
    // Numbering the second left the inode table with the first revision's nodes only.
    expect(inodes.byPath("/a/d.d.ts")?.ino).toBe(numberOf(first.spec, "/a/d.d.ts"));
    expect(inodes.byPath("/a/d")).toBeUndefined();
  });
});

function failRender(): never {
  throw new Error("this file fails to render on purpose");
}
