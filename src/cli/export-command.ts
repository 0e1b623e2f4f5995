import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { VirtualTree } from "../tree/virtual-tree.js";
import { walkTree } from "../tree/walk-tree.js";
import { loadRevision } from "./catalog-tree-source.js";
import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { commandHelp } from "./command-line.js";
import { count } from "./count.js";
import { describeFailure } from "./describe-failure.js";
import { EXPORT_COMMAND, parseExportArguments } from "./mount-arguments.js";

/**
 * `forage export <source>... <dir>`: writes the tree a read-only mount shows, as plain files
 * (docs/cli.md, "Export"). A failure removes what it wrote, never what was there before.
 */
export async function runExport(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseExportArguments(argv);
  if (args === "help") {
    io.stdout(commandHelp(EXPORT_COMMAND));
    return 0;
  }
  const directory = resolve(args.target);
  if (existsSync(directory) && readdirSync(directory).length > 0)
    throw new CliError(`${directory} is not empty; export writes into an empty directory`);
  // Loading first: a source that fails leaves no directory behind.
  const { tree, operationCount, unvalidatedCount } = await loadRevision(args, "export");
  const created = mkdirSync(directory, { recursive: true });
  let files: number;
  try {
    files = writeTree(tree, directory);
  } catch (error) {
    // The first directory mkdir made holds everything it made; an existing directory keeps itself, emptied.
    if (created !== undefined) rmSync(created, { recursive: true, force: true });
    else for (const name of readdirSync(directory)) rmSync(join(directory, name), { recursive: true, force: true });
    throw new CliError(`export to ${directory} failed and was removed: ${describeFailure(error)}`);
  }
  io.stdout(
    `forage: exported ${count(operationCount, "operation")}${notValidated(unvalidatedCount)} as ${count(files, "file")} to ${directory} (AFI profile 1: no .search/, no /.afi/search)\n`,
  );
  return 0;
}

/** " and 741 not validated": operations exported from their sources' own schemas, said beside the validated count. */
function notValidated(unvalidated: number): string {
  return unvalidated === 0 ? "" : ` and ${unvalidated} not validated`;
}

/** Writes every directory, file and link of `tree` below `directory`; returns how many files. */
function writeTree(tree: VirtualTree, directory: string): number {
  let files = 0;
  for (const { path, entry } of walkTree(tree)) {
    const target = join(directory, path);
    if (entry.kind === "directory") mkdirSync(target);
    else if (entry.kind === "symlink") symlinkSync(tree.readlink(path), target);
    else if (!entry.writable) {
      writeFileSync(target, tree.read(path));
      files += 1;
    }
  }
  return files;
}
