// The tree under test (the example catalog scaled to N operations, exported to tmpfs) and the
// workloads run on it, with the output each system must give.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatMs } from "../stats.mjs";
import { workspace } from "./cleanup.mjs";
import { cli, GREP_WORD, log, projectRoot, STAT_PASSES, sizeName, statScript, tmpInProject } from "./config.mjs";
import { runTimed } from "./processes.mjs";

/** The workloads for a size: find, cat, grep -r and stat ×3 of the exported files (grep skips README.md, which differs by design between a mount and an export). */
export function workloadsFor(size) {
  return [
    { name: "find", command: "find . | wc -l" },
    { name: "cat", command: "find . -type f ! -path ./.afi/search -print0 | xargs -0 cat > /dev/null" },
    { name: "grep -r", command: `grep -r --exclude=search --exclude=README.md ${GREP_WORD} . | wc -l` },
    { name: `stat ×${STAT_PASSES}`, command: `perl ${statScript} ${size.fileList} ${STAT_PASSES}` },
  ];
}

/** What a workload's output must be on `system`, given tmpfs's: the mount has /.search (and, read-write, /.afi/search) on top. */
export function expectedOutput(system, workload, tmpfsOutput) {
  if (workload.name === "find" && system === "forage") return String(Number(tmpfsOutput) + 2);
  if (workload.name === "find" && system === "forage-ro") return String(Number(tmpfsOutput) + 1);
  return tmpfsOutput;
}

/**
 * Writes the source for N operations (a number), or takes a real source as it is (a path), exports
 * it to tmpfs and counts its files, directories and bytes (and a real source's operations).
 */
export async function prepareSize(entry, tmpfsRoot) {
  mkdirSync(tmpInProject, { recursive: true });
  const name = sizeName(entry);
  const source = typeof entry === "number" ? scaledExampleSource(entry) : entry;
  const tree = join(tmpfsRoot, `tree-${name}`);
  rmSync(tree, { recursive: true, force: true });
  // A real source's notes on what it left out go to stderr, which runTimed would take for a failure.
  const exported = await runTimed(
    `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} export ${JSON.stringify(source)} ${JSON.stringify(tree)} 2>/dev/null`,
    projectRoot,
  );
  const operations = typeof entry === "number" ? entry : Number(/exported (\d+) operations/.exec(exported.stdout)?.[1]);
  const fileList = join(workspace.workDir, `files-${name}`);
  const files = spawnSync("find", [".", "-type", "f", "-print0"], { cwd: tree, maxBuffer: 1 << 30 }).stdout;
  writeFileSync(fileList, files);
  const count = (type) =>
    Number(spawnSync("sh", ["-c", `find . -type ${type} | wc -l`], { cwd: tree, encoding: "utf8" }).stdout.trim());
  const bytes = Number(
    spawnSync("sh", ["-c", "find . -type f -printf '%s\\n' | awk '{ s += $1 } END { print s }'"], {
      cwd: tree,
      encoding: "utf8",
    }).stdout.trim(),
  );
  const size = {
    operations,
    name,
    real: typeof entry === "number" ? undefined : entry,
    source,
    tree,
    fileList,
    files: count("f"),
    directories: count("d"),
    bytes,
    exportMs: exported.ms,
  };
  log(
    `${name}: ${operations} operations, exported ${size.files} files, ${size.directories} directories, ${(bytes / 1e6).toFixed(1)} MB in ${formatMs(exported.ms)} ms`,
  );
  return size;
}

/** Writes a module exporting the example catalog scaled to `operations`; returns its path. */
function scaledExampleSource(operations) {
  const source = join(tmpInProject, `source-${operations}.mjs`);
  writeFileSync(
    source,
    `// Written by scripts/bench/mount/run.mjs: the example catalog scaled to ${operations} operations.\n` +
      `import { scaledExampleOperations } from "../../../../dist/index.js";\n` +
      `export const operations = scaledExampleOperations(${operations});\n`,
  );
  return source;
}
