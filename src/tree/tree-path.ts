import { TreeError } from "./virtual-tree.js";

/** AFI's declared path length limit for this provider. */
export const MAX_TREE_PATH_LENGTH = 4_096;
/** The longest name in a path, in UTF-8 bytes: FUSE's own limit, which the mount's statfs reports. */
export const MAX_TREE_NAME_BYTES = 1_024;
const encoder = new TextEncoder();

/**
 * Normalises an AFI path: absolute, `//` collapsed, trailing `/` stripped,
 * `.` dropped and `..` applied. A `..` that escapes the root, a NUL, a name
 * over MAX_TREE_NAME_BYTES or a relative path is `invalid_path` (AFI "Paths").
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
    // Three bytes a UTF-16 unit at most, so only long names need encoding.
    if (segment.length * 3 > MAX_TREE_NAME_BYTES && encoder.encode(segment).length > MAX_TREE_NAME_BYTES)
      throw new TreeError("invalid_path", `names are at most ${MAX_TREE_NAME_BYTES} bytes of UTF-8`, path);
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
