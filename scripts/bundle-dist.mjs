#!/usr/bin/env node
/**
 * Bundles the package's entry points over what `tsc -p tsconfig.build.json` wrote to dist/
 * (docs/cli.md, "How the bin is built"): dist/index.js, dist/openapi/index.js and the bin
 * dist/cli/main.js become bundles that share their code in dist/chunks/, so the library and the
 * CLI load as one copy, in a few files instead of about 130 modules. Dependencies (zod among
 * them) stay imports, so a source's zod is the CLI's zod. The declarations (.d.ts) and the
 * other modules tsc wrote stay, for types and for scripts that import one module directly.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { packageRoot } from "./build-native.mjs";

const dist = join(packageRoot, "dist");
/** The entries the package exports (package.json "exports" and "bin"), by their path under dist/ without ".js". */
const ENTRIES = { index: "src/index.ts", "openapi/index": "src/openapi/index.ts", "cli/main": "src/cli/main.ts" };
const BIN = "cli/main";
/** The modules of the core chunk: the catalog, describe, search and the tree, and what they share. */
const CORE = /[\\/]src[\\/](catalog|describe|search|tree)[\\/]|[\\/]src[\\/](slices|lower-bound|json-value)\.ts$/;

/**
 * The second line of the bin's launcher (docs/cli.md, "How the bin starts Node"): a shell command
 * that JS reads as a comment. The bundler keeps the shebang but drops comments, so it is put back.
 */
function launcherShellLine() {
  const [shebang, shellLine] = readFileSync(join(packageRoot, ENTRIES[BIN]), "utf8").split("\n");
  if (shebang !== "#!/bin/sh" || !shellLine?.startsWith("//"))
    throw new Error(`${ENTRIES[BIN]} lost its launcher lines`);
  return shellLine;
}

/** Writes the bundles; the chunks of an earlier build are removed first, since their names carry content hashes. */
export async function bundleDist() {
  rmSync(join(dist, "chunks"), { recursive: true, force: true });
  const bundle = await rolldown({
    input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(packageRoot, file)])),
    platform: "node",
    // Bare specifiers are dependencies and Node built-ins: imported at run time, never copied in.
    external: (id) => !id.startsWith(".") && !id.startsWith("/"),
    // Sources import each other as ./x.js, as Node and tsc resolve them; the files are ./x.ts.
    resolve: { extensionAlias: { ".js": [".ts", ".js"] } },
  });
  try {
    const shellLine = launcherShellLine();
    await bundle.write({
      dir: dist,
      format: "esm",
      entryFileNames: "[name].js",
      // One level below dist/, as the modules that find files relative to themselves (package.json, the addon) expect.
      chunkFileNames: "chunks/[name]-[hash].js",
      // The library's core and the tree in one chunk: split as the entries share them, they made
      // about 15 small chunks that a mount loads one by one (forage-error stays apart, for --version).
      codeSplitting: {
        groups: [
          { name: "forage-error", test: /[\\/]src[\\/]forage-error\.ts$/, priority: 2 },
          { name: "core", test: CORE, priority: 1 },
        ],
      },
      sourcemap: true,
      // A banner goes right after the shebang, where /bin/sh reads the shell line.
      banner: (chunk) => (chunk.isEntry && chunk.name === BIN ? shellLine : ""),
    });
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleDist();
