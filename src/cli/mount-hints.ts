/**
 * The lines `forage mount` prints once it has mounted (docs/cli.md, "Hints after mounting"): what to
 * try, found in the mounted tree so that they fit a subtree= or bound= mount, the sentence to brief an
 * agent with, and how to stop.
 */
import { relative } from "node:path";
import type { VirtualTree } from "../tree/virtual-tree.js";

/** The example catalog's directory of file operations, the one the hints show when the mount has it. */
const EXAMPLE_NAMESPACE = ["computers", "local", "files"];
/** A ranked query the example answers well. */
const EXAMPLE_QUERY = "read a file";

/**
 * What to try in the example mount: a namespace the tree has (the example's file operations as the
 * mount names them, else the first namespace holding operations), the README, and a ranked query.
 * Nothing for other catalogs, whose words forage cannot guess.
 */
export function tryLines(tree: VirtualTree, subtree: string | undefined, mountpoint: string): string {
  const at = (suffix: string, preferDouble = false): string =>
    shellWord(`${displayPath(mountpoint)}${suffix}`, preferDouble);
  const namespace = exampleNamespace(tree, subtree) ?? firstOperationDirectory(tree, "/");
  const lines = [
    ...(namespace === undefined ? [] : [`ls ${at(namespace === "/" ? "" : namespace)}`]),
    `cat ${at("/README.md")}`,
    `ls ${at(`/.search/${EXAMPLE_QUERY}/`, true)}`,
  ];
  return lines.map((line, index) => `${index === 0 ? "try:   " : "       "}${line}\n`).join("");
}

/**
 * The sentence to brief an agent with, for any catalog (docs/cli.md, "Hints after mounting"): where the
 * mount is, and to start with one call that reads its README and a search per need. Told only that a
 * folder was a mount, a third of the benchmark's agents at ~20,000 tools first listed the root's 430
 * namespaces (12–34 KB); told that the README is the way in, every one read it first (BENCHMARKS.md,
 * "Rounds 14 to 17"), then searched in a second call; told this, most read both in their first call
 * (BENCHMARKS.md, "Rounds 20 to 27"). Every mount has ranked search; only an export has no .search/. The
 * path is absolute, since an agent's working directory is not the user's, and as it is: the sentence is
 * prose to paste, not a shell word.
 */
export function agentLine(mountpoint: string): string {
  const search = `${mountpoint}/.search/<need, in an API's words>/@index.txt (its best tools, four at most)`;
  return `agents: "The tool catalog is the Forage mount at ${mountpoint}: start with one call that reads ${mountpoint}/README.md and, for each need, ${search}."\n`;
}

/** How to stop the mount: Ctrl-C in the foreground, and from anywhere. */
export function stopLine(mountpoint: string, where: "foreground" | "background"): string {
  const at = shellWord(displayPath(mountpoint));
  const anywhere = `forage unmount ${at} (or fusermount3 -u ${at})`;
  return where === "foreground" ? `stop:  Ctrl-C here, or from anywhere: ${anywhere}\n` : `stop:  ${anywhere}\n`;
}

/** The example's namespace as the mount names it: below the subtree, if it is there and the view shows it. */
function exampleNamespace(tree: VirtualTree, subtree: string | undefined): string | undefined {
  const prefix = subtree === undefined ? [] : subtree.split(".");
  if (prefix.some((segment, index) => EXAMPLE_NAMESPACE[index] !== segment)) return undefined;
  const path = `/${EXAMPLE_NAMESPACE.slice(prefix.length).join("/")}`;
  return path !== "/" && isDirectory(tree, path) ? path : undefined;
}

/** The first directory, depth first in listing order, that holds an operation's `.d.ts` (not `@namespace` nor `index`). */
function firstOperationDirectory(tree: VirtualTree, directory: string): string | undefined {
  const entries = tree.list(directory);
  const child = (name: string): string => (directory === "/" ? `/${name}` : `${directory}/${name}`);
  if (entries.some((entry) => entry.kind === "file" && /^(?!@|index\.d\.ts$).*\.d\.ts$/.test(entry.name)))
    return directory;
  for (const entry of entries) {
    if (entry.kind !== "directory" || entry.name.startsWith(".")) continue;
    const found = firstOperationDirectory(tree, child(entry.name));
    if (found !== undefined) return found;
  }
  return undefined;
}

function isDirectory(tree: VirtualTree, path: string): boolean {
  try {
    return tree.stat(path).kind === "directory";
  } catch {
    return false;
  }
}

/** The path as the user would type it from here: relative below the working directory. */
function displayPath(path: string): string {
  const below = relative(process.cwd(), path);
  return below !== "" && !below.startsWith("..") ? below : path;
}

/** `text` as one shell word: bare when safe, else quoted (double quotes when asked and possible, for readability). */
function shellWord(text: string, preferDouble = false): string {
  if (/^[\w./-]+$/.test(text)) return text;
  if (preferDouble && !/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, "'\\''")}'`;
}
