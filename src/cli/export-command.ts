import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { walkTree } from "../tree/walk-tree.js";
import { loadRevision } from "./catalog-tree-source.js";
import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { parseMountArguments } from "./mount-arguments.js";

/** `forage export <source>... <dir>`: writes the mount's tree to an ordinary directory. */
export async function runExport(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseMountArguments(argv);
  if (args.watch) throw new CliError("--watch applies to mount, not export", 2);
  const directory = resolve(args.target);
  mkdirSync(directory, { recursive: true });
  if (readdirSync(directory).length > 0)
    throw new CliError(`${directory} is not empty; export writes into an empty directory`);
  const { tree, operationCount } = await loadRevision(args);
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
  io.stdout(`forage: exported ${operationCount} operations as ${files} files to ${directory}\n`);
  return 0;
}
