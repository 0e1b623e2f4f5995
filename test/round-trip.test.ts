// docs/describe.md, "Reading a mount back" and "One spelling per constraint": a mount's operation
// .json files, collected into a catalog file, load back into the same projections, TypeScript and stamp.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { exampleOperations } from "../src/example/example-operations.js";
import { type Catalog, createCatalog, ForageError, type OperationDefinition } from "../src/index.js";
import { catalogFileOperations } from "../src/sources/catalog-file.js";
import { openApiSource } from "../src/sources/openapi-source.js";
import { createCatalogTree, NAMESPACE_FILE } from "../src/tree/catalog-tree.js";
import { walkTree } from "../src/tree/walk-tree.js";
import { variedOperations } from "./fixtures/varied-catalog.js";
import {
  freshMountpoint,
  mountSkipReason,
  removeMountpoint,
  sh,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

/** Every operation file of a catalog's tree, by tree path: each `.d.ts` and its `.json` twin. */
function operationFiles(catalog: Catalog): Map<string, string> {
  const tree = createCatalogTree(catalog, { revision: catalog.revision, stamp: catalog.stamp(), providerVersion: "x" });
  const files = new Map<string, string>();
  for (const { path, entry } of walkTree(tree)) {
    if (
      entry.kind !== "file" ||
      !path.endsWith(".d.ts") ||
      path.endsWith(`/${NAMESPACE_FILE}`) ||
      path === "/index.d.ts"
    )
      continue;
    const twin = `${path.slice(0, -".d.ts".length)}.json`;
    files.set(path, Buffer.from(tree.read(path)).toString("utf8"));
    files.set(twin, Buffer.from(tree.read(twin)).toString("utf8"));
  }
  return files;
}

/** The catalog file entries a mount's `.json` files make, as they are (null instructions and output included). */
function catalogFileEntries(files: ReadonlyMap<string, string>): Record<string, unknown>[] {
  return [...files]
    .filter(([path]) => path.endsWith(".json"))
    .map(([, text]) => {
      const { path, description, capabilities, instructions, inputSchema, outputSchema } = JSON.parse(text);
      return { path, description, capabilities, instructions, inputSchema, outputSchema };
    });
}

interface RoundTrip {
  readonly original: Catalog;
  readonly back: Catalog;
  /** Operations whose projection the compiler refuses, with why. */
  readonly refused: { path: string; code: string; message: string }[];
}

/**
 * Mounts `operations` in memory, reads every operation's `.json` back as one
 * catalog file and loads it. Operations the compiler refuses are left out of
 * both sides, so the stamps compare the same operations.
 */
function roundTrip(operations: readonly OperationDefinition[]): RoundTrip {
  const entries = catalogFileEntries(operationFiles(createCatalog({ revision: "r", operations })));
  const refused: RoundTrip["refused"] = [];
  const kept = entries.filter((entry) => {
    try {
      catalogFileOperations({ operations: [entry] }, "mount.json");
      return true;
    } catch (error) {
      if (!(error instanceof ForageError)) throw error;
      refused.push({ path: entry.path as string, code: error.code, message: error.message });
      return false;
    }
  });
  const keptPaths = new Set(kept.map((entry) => entry.path));
  const original = createCatalog({
    revision: "r",
    operations: operations.filter((operation) => keptPaths.has(operation.path)),
  });
  const back = createCatalog({
    revision: "r",
    operations: catalogFileOperations({ operations: kept }, "mount.json"),
  });
  return { original, back, refused };
}

/** A spec without its `format` keywords (property names are left alone), so operations the compiler would refuse for them are supported. */
function withoutFormats(value: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutFormats(item));
  if (value === null || typeof value !== "object") return value;
  const kept = Object.entries(value).filter(
    ([key, inner]) => isPropertyMap || key !== "format" || typeof inner !== "string",
  );
  return Object.fromEntries(
    kept.map(([key, inner]) => [key, withoutFormats(inner, !isPropertyMap && key === "properties")]),
  );
}

/** The supported operations of each spec, every spec under a namespace of its own. */
function specOperations(files: readonly string[], stripFormats: boolean): OperationDefinition[] {
  return files.flatMap((file, index) => {
    const raw = readFileSync(file, "utf8");
    const text = stripFormats ? JSON.stringify(withoutFormats(JSON.parse(raw))) : raw;
    let operations: OperationDefinition[];
    try {
      operations = openApiSource(text, `spec${index}`, file).operations;
    } catch (error) {
      // A spec intake refuses as a whole has no operations to read back.
      if (error instanceof ForageError) return [];
      throw error;
    }
    return operations.map((operation) => ({ ...operation, path: `spec${index}.${operation.path}` }));
  });
}

function jsonFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) return jsonFiles(path);
      return name.endsWith(".json") ? [path] : [];
    });
}

const OAI = join(import.meta.dirname, "fixtures/openapi-examples");
const README = join(import.meta.dirname, "../node_modules/@readme/oas-examples");
const GALAXY = join(import.meta.dirname, "../node_modules/@scalar/galaxy/dist/latest.json");

const RECURSIVE = /recursive reference to #\/\$defs\/__schema0 is unsupported/;

describe("a mount's .json files read back as a catalog file", () => {
  test.each([
    { name: "the built-in example catalog", operations: () => exampleOperations, atLeast: 40, refused: [] },
    {
      name: "the varied catalog (recursive z.lazy schemas are refused, as the compiler refuses recursion)",
      operations: () => variedOperations,
      atLeast: 50,
      refused: ["shapes.json.store", "shapes.tree.insert"],
    },
    {
      name: "the OAI examples, formats stripped",
      operations: () => specOperations([...jsonFiles(join(OAI, "v3.0")), ...jsonFiles(join(OAI, "v3.1"))], true),
      atLeast: 15,
      refused: [],
    },
    {
      name: "@scalar/galaxy, formats stripped",
      operations: () => specOperations([GALAXY], true),
      atLeast: 4,
      refused: [],
    },
    {
      name: "every 3.0 and 3.1 spec of @readme/oas-examples",
      operations: () => specOperations([...jsonFiles(join(README, "3.0")), ...jsonFiles(join(README, "3.1"))], false),
      atLeast: 300,
      refused: [],
    },
  ])("$name: same projections, TypeScript and stamp", ({ operations, atLeast, refused }) => {
    const { original, back, refused: found } = roundTrip(operations());
    expect(found.map(({ path }) => path)).toEqual(refused);
    for (const refusal of found) {
      expect(refusal.code).toBe("unsupported");
      expect(refusal.message).toMatch(RECURSIVE);
    }
    expect(back.size).toBe(original.size);
    expect(back.size).toBeGreaterThanOrEqual(atLeast);
    // Every operation file, .json and .d.ts, is the same text on both sides; the .d.ts headers carry the stamp.
    expect(operationFiles(back)).toEqual(operationFiles(original));
    expect(back.stamp()).toBe(original.stamp());
  });

  test("reading back is a fixed point: a second round trip changes nothing", () => {
    const first = roundTrip(specOperations([GALAXY], true)).back;
    const second = createCatalog({
      revision: "r",
      operations: catalogFileOperations({ operations: catalogFileEntries(operationFiles(first)) }, "mount.json"),
    });
    expect(second.stamp()).toBe(first.stamp());
  });
});

const skip = mountSkipReason();
if (skip !== undefined) console.log(`round-trip mount test skipped: ${skip}`);

describe.skipIf(skip !== undefined)("through a real mount and the real CLI", () => {
  const mounts: string[] = [];
  const directory = mkdtempSync(join(tmpdir(), "forage-round-trip-"));
  afterAll(async () => {
    await stopAllDaemons();
    for (const mnt of mounts) removeMountpoint(mnt);
    rmSync(directory, { recursive: true, force: true });
  });

  /** Every operation file (and the manifest) of a mount, read by one shell with find and cat. */
  function mountedFiles(mnt: string): Map<string, string> {
    const script = `cd '${mnt}' && for f in $(find . -path ./.afi -prune -o -path ./tsconfig.json -prune -o -path ./package.json -prune -o -type f -print | sort) ./.afi/manifest.json; do printf '%s\\0' "$f"; cat "$f"; printf '\\0'; done`;
    const parts = sh(script).stdout.split("\0");
    const files = new Map<string, string>();
    for (let index = 0; index + 1 < parts.length; index += 2)
      files.set(parts[index] as string, parts[index + 1] as string);
    return files;
  }

  test("forage mount of the example's .json files, read with find and cat, serves the same files and stamp", async () => {
    const first = freshMountpoint("round-trip-a");
    mounts.push(first);
    await startDaemon(["--example"], first);
    const before = mountedFiles(first);
    const entries = [...before]
      .filter(([name]) => name.endsWith(".json") && !name.startsWith("./.afi/"))
      .map(([, text]) => {
        const { path, description, capabilities, instructions, inputSchema, outputSchema } = JSON.parse(text);
        return { path, description, capabilities, instructions, inputSchema, outputSchema };
      });
    expect(entries.length).toBe(exampleOperations.length);
    const file = join(directory, "catalog.json");
    writeFileSync(file, JSON.stringify({ operations: entries }));
    const second = freshMountpoint("round-trip-b");
    mounts.push(second);
    await startDaemon([file], second);
    const after = mountedFiles(second);
    const stamp = (files: Map<string, string>): string =>
      JSON.parse(files.get("./.afi/manifest.json") as string)["x-forage-stamp"];
    expect(stamp(after)).toMatch(/^sha256:/);
    expect(stamp(after)).toBe(stamp(before));
    // Every operation's .json and .d.ts, and every namespace's declarations, read the same;
    // only the README differs, since it names the revision, which is a label and not content.
    const operationFilesOf = (files: Map<string, string>) =>
      new Map([...files].filter(([name]) => !name.startsWith("./.afi/") && /\.(json|d\.ts)$/.test(name)));
    expect(operationFilesOf(after)).toEqual(operationFilesOf(before));
  }, 180_000);
});
