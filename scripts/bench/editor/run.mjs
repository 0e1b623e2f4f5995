// How long `tsc -p <dir>` takes over the mount's files (docs/mount.md, "Editors"): the example
// catalog and the example scaled to several thousand operations, each written as `forage export`
// writes it (the tree's files, no .search/). Prints a markdown table of medians.
//
//   node scripts/bench/editor/run.mjs [sizes, default example,5000]    BENCH_RUNS (default 5) runs per size
//
// A size `flatN` is N operations in one namespace: one @namespace.d.ts intersecting N imports.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
// The library from tsc's modules, as the tree's (docs/cli.md, "How the bin is built": one copy).
import { createCatalog } from "../../../dist/catalog/create-catalog.js";
import { createExampleCatalog, scaledExampleOperations } from "../../../dist/example/example-catalog.js";
import { createCatalogTree } from "../../../dist/tree/catalog-tree.js";
import { walkTree } from "../../../dist/tree/walk-tree.js";
import { max, median, min } from "../stats.mjs";

const sizes = (process.argv[2] ?? "example,5000").split(",");
const runs = Number(process.env.BENCH_RUNS ?? 5);
const tsc = join(import.meta.dirname, "../../../node_modules/typescript/bin/tsc");

/** The catalog a size names: the example, N operations in one namespace (`flatN`), or the example scaled to N. */
function catalogOf(size) {
  if (size === "example") return createExampleCatalog();
  if (size.startsWith("flat")) {
    const operations = Array.from({ length: Number(size.slice(4)) }, (_, index) => ({
      path: `flat.op${index}`,
      description: `Operation ${index}.`,
      input: z.object({ text: z.string().max(100) }),
    }));
    return createCatalog({ revision: "flat", operations });
  }
  return createCatalog({ revision: "scaled", operations: scaledExampleOperations(Number(size)) });
}

/** Writes the tree of a catalog to a fresh directory. */
function writeTree(size) {
  const catalog = catalogOf(size);
  const tree = createCatalogTree(catalog, {
    revision: catalog.revision,
    stamp: catalog.stamp(),
    providerVersion: "bench",
    searchControl: false,
    rankedSearchDirectory: false,
  });
  const root = mkdtempSync(join(tmpdir(), `forage-editor-${size}-`));
  let files = 0;
  for (const { path, entry } of walkTree(tree)) {
    if (entry.kind !== "file") continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), tree.read(path));
    files += 1;
  }
  return { root, files, operations: catalog.list().total };
}

console.log("| operations | files | `tsc -p DIR` median (s) | min (s) | max (s) | runs |");
console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
for (const size of sizes) {
  const { root, files, operations } = writeTree(size);
  try {
    const seconds = [];
    for (let run = 0; run < runs; run += 1) {
      const start = performance.now();
      const result = spawnSync(process.execPath, [tsc, "-p", root], { encoding: "utf8" });
      seconds.push((performance.now() - start) / 1000);
      if (result.status !== 0) throw new Error(`tsc -p ${root} failed:\n${result.stdout}${result.stderr}`);
    }
    const fixed = (value) => value.toFixed(2);
    console.log(
      `| ${operations} | ${files} | ${fixed(median(seconds))} | ${fixed(min(seconds))} | ${fixed(max(seconds))} | ${runs} |`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
