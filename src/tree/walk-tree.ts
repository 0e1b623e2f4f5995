import { childPath } from "./tree-path.js";
import type { TreeEntry, VirtualTree } from "./virtual-tree.js";

/** The virtual query directory: it answers lookups but has no listing of its own, so walks skip it. */
export const SEARCH_ROOT = "/.search";

/** Every entry below `directory`, depth first in readdir order, skipping /.search. */
export function* walkTree(tree: VirtualTree, directory = "/"): Generator<{ path: string; entry: TreeEntry }> {
  for (const entry of tree.list(directory)) {
    const path = childPath(directory, entry.name);
    if (path === SEARCH_ROOT) continue;
    yield { path, entry };
    if (entry.kind === "directory") yield* walkTree(tree, path);
  }
}
