// The tree's share of a cold mount, without FUSE: loads the same revision `forage mount` would
// (the CLI's own loadRevision), then times, in this process, the tree calls that a cold `find`
// (list every directory) or a cold `stat` of every file (stat each path) makes, a second pass of
// the same calls, and reading every file. A diagnostic for the mount benchmark (run.mjs).
//
//   node --expose-gc scripts/bench/mount/tree-cost.mjs <source.mjs> list|stat
//
// run.mjs writes sources to scripts/bench/mount/.tmp/source-<N>.mjs. Prints one JSON line.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadRevision } from "../../../dist/cli/catalog-tree-source.js";
import { parseMountArguments } from "../../../dist/cli/mount-arguments.js";

const [source, mode = "list"] = process.argv.slice(2);
if (!source || !["list", "stat", "paths"].includes(mode))
  throw new Error("usage: tree-cost.mjs <source.mjs> list|stat");

let start = performance.now();
const { tree } = await loadRevision(parseMountArguments([source, "/unused"]));
const loadMs = performance.now() - start;

const child = (directory, name) => (directory === "/" ? `/${name}` : `${directory}/${name}`);
/** Every directory and file path, listing each directory once (skips the virtual /.search). */
function walk(directory, directories, files) {
  for (const entry of tree.list(directory)) {
    const path = child(directory, entry.name);
    if (entry.kind !== "directory") files.push(path);
    else if (path !== "/.search") {
      directories.push(path);
      walk(path, directories, files);
    }
  }
}

if (mode === "paths") {
  // Internal: the file paths, NUL-separated, for the stat mode.
  const files = [];
  walk("/", [], files);
  await new Promise((done) => process.stdout.write(files.join("\0"), done));
  process.exit(0);
}
// The stat mode takes its paths from another process, so nothing in this one is warmed by listing.
const paths =
  mode === "stat"
    ? spawnSync(process.execPath, [fileURLToPath(import.meta.url), source, "paths"], {
        encoding: "utf8",
        maxBuffer: 1 << 28,
      })
        .stdout.split("\0")
        .filter(Boolean)
    : [];
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;

const pass = () => {
  const directories = [];
  const files = [];
  start = performance.now();
  if (mode === "list") walk("/", directories, files);
  else for (const path of paths) tree.stat(path);
  return { ms: performance.now() - start, directories, files: mode === "list" ? files : paths };
};
const first = pass();
const second = pass();
start = performance.now();
let bytes = 0;
for (const path of first.files) if (!tree.stat(path).writable) bytes += tree.read(path).length;
const readMs = performance.now() - start;
globalThis.gc?.();
const memory = process.memoryUsage();
console.log(
  JSON.stringify({
    mode,
    loadMs: Math.round(loadMs),
    firstPassMs: Math.round(first.ms),
    secondPassMs: Math.round(second.ms),
    readAllMs: Math.round(readMs),
    files: first.files.length,
    directories: mode === "list" ? first.directories.length : undefined,
    contentMB: +(bytes / 1e6).toFixed(1),
    rssGrowthMB: Math.round((memory.rss - rssBefore) / 1e6),
    arrayBuffersMB: Math.round(memory.arrayBuffers / 1e6),
  }),
);
