import { TreeError } from "./virtual-tree.js";

/** AFI's declared path length limit for this provider. */
export const MAX_TREE_PATH_LENGTH = 4_096;

/**
 * Normalises an AFI path: absolute, `//` collapsed, trailing `/` stripped,
 * `.` dropped and `..` applied. A `..` that escapes the root, a NUL or a
 * relative path is `invalid_path` (AFI "Paths").
 */
export function normalizeTreePath(path: string): string {
  if (typeof path !== "string" || !path.startsWith("/"))
    throw new TreeError("invalid_path", "paths are absolute", String(path));
  if (path.includes("\u0000")) throw new TreeError("invalid_path", "a path never contains NUL", path);
  if (path.length > MAX_TREE_PATH_LENGTH)
    throw new TreeError("invalid_path", `paths are at most ${MAX_TREE_PATH_LENGTH} characters`, path);
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) throw new TreeError("invalid_path", "the path escapes the root", path);
      segments.pop();
    } else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** Joins a directory path and a child name. */
export function childPath(directory: string, name: string): string {
  return directory === "/" ? `/${name}` : `${directory}/${name}`;
}
