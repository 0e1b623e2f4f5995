import { searchPreparation } from "../catalog/catalog-view.js";
import type { Forage } from "../catalog/types.js";
import { runToEnd, type Steps } from "../slices.js";
import { type CatalogLayout, catalogLayoutSteps } from "./catalog-layout.js";
import { SearchControl } from "./content-search/control-file.js";
import { addMetadataFiles, type MountFileOptions } from "./files/metadata-files.js";
import { NamespaceFiles } from "./files/namespace-files.js";
import { LeftOutSearch } from "./ranked-search/left-out-search.js";
import { QueryDirectories } from "./ranked-search/query-directories.js";
import type { SourceInfo } from "./source-info.js";
import { type DirectoryNode, type FileNode, listingEntry, nodeInfo, type TreeNode } from "./tree-nodes.js";
import { childPath, normalizeTreePath } from "./tree-path.js";
import { type ControlSession, type TreeEntry, TreeError, type TreeNodeInfo, type VirtualTree } from "./virtual-tree.js";

export { NAMESPACE_FILE } from "./files/namespace-files.js";

/** What a catalog tree shows besides the operations themselves. */
export interface CatalogTreeOptions extends MountFileOptions {
  /** What each intake source says about itself, shown in its namespace directory. */
  readonly sources?: readonly SourceInfo[];
}

/** Builds the virtual tree of one catalog revision: namespaces as directories, operations as .d.ts and .json files. */
export function createCatalogTree(forage: Forage, options: CatalogTreeOptions): VirtualTree {
  return runToEnd(catalogTreeSteps(forage, options));
}

/**
 * createCatalogTree as steps (src/slices.ts): laying out the operations yields after every few,
 * so that a caller that serves requests meanwhile (a mount's reload) may run it in slices.
 */
export function* catalogTreeSteps(forage: Forage, options: CatalogTreeOptions): Steps<VirtualTree> {
  let tree: CatalogTree | undefined;
  const layout = yield* catalogLayoutSteps(forage, options.subtree, options.sources ?? [], (layout, count, sources) =>
    // The root's composed declaration is read on demand, once the tree exists.
    addMetadataFiles(layout, options, count, sources, {
      rootDeclaration: () => (tree as CatalogTree).composedRoot(),
    }),
  );
  tree = new CatalogTree(forage, options, layout);
  return tree;
}

/** Dispatches each path to what answers it: the fixed layout, a directory's "@" files, or /.search. */
class CatalogTree implements VirtualTree {
  readonly stamp: string;
  readonly #layout: CatalogLayout;
  readonly #namespaceFiles: NamespaceFiles;
  readonly #queries: QueryDirectories;
  readonly #search: SearchControl;
  readonly #forage: Forage;
  readonly #leftOut: LeftOutSearch;

  constructor(forage: Forage, options: CatalogTreeOptions, layout: CatalogLayout) {
    this.stamp = options.stamp;
    this.#layout = layout;
    this.#forage = forage;
    this.#namespaceFiles = new NamespaceFiles(layout);
    const scopedSources = (options.sources ?? []).filter(({ namespace }) => layout.inScope(namespace));
    this.#leftOut = new LeftOutSearch(scopedSources, forage, options.subtree);
    this.#queries = new QueryDirectories(forage, options.subtree, (path) => layout.operationFile(path), this.#leftOut);
    this.#search = new SearchControl(
      this,
      (path) => layout.node(path) !== undefined,
      (path) => (this.#node(path, path) as FileNode).text(),
    );
  }

  /**
   * Builds what /.search and /.afi/search need (the catalog's search, the left-out index) as steps,
   * then answers one /.search query and forgets it (QueryDirectories.warm).
   */
  *preparationSteps(): Steps<void> {
    yield* searchPreparation(this.#forage).steps;
    yield* this.#leftOut.preparationSteps();
    // A step of its own: a mount that stops serving this tree meanwhile cancels it here.
    yield;
    this.#queries.warm();
  }

  /** The composed declaration of the root, for the metadata files that show it. */
  composedRoot(): string {
    return this.#namespaceFiles.composedDeclaration("/");
  }

  stat(path: string): TreeNodeInfo {
    return nodeInfo(this.#node(normalizeTreePath(path), path));
  }

  /**
   * A directory's entries, made on each call and not kept: a mount's node table holds every
   * listing once it is in, and a walk lists each directory once (17 MB at 10,000 operations).
   */
  list(path: string): readonly TreeEntry[] {
    const normalized = normalizeTreePath(path);
    const node = this.#node(normalized, path);
    if (node.kind !== "directory") throw new TreeError("invalid_path", "not a directory", path);
    return this.#directoryNames(normalized, node).map((name) =>
      listingEntry(name, this.#node(childPath(normalized, name), path)),
    );
  }

  read(path: string): Uint8Array {
    const node = this.#node(normalizeTreePath(path), path);
    if (node.kind !== "file")
      throw new TreeError("invalid_path", node.kind === "directory" ? "is a directory" : "not a regular file", path);
    return node.bytes();
  }

  readlink(path: string): string {
    const node = this.#node(normalizeTreePath(path), path);
    if (node.kind !== "symlink") throw new TreeError("invalid_path", "not a symlink", path);
    return node.target;
  }

  openControl(path: string, caller?: string): ControlSession {
    const node = this.#node(normalizeTreePath(path), path);
    if (node.kind !== "control") throw new TreeError("read_only", "this filesystem is read-only", path);
    return this.#search.open(caller);
  }

  #node(normalized: string, original: string): TreeNode {
    const node = this.#layout.node(normalized) ?? this.#dynamicNode(normalized);
    if (node === undefined) throw new TreeError("not_found", "no such file or directory", original);
    return node;
  }

  /** Nodes that exist only on demand: a directory's "@" files and /.search. */
  #dynamicNode(path: string): TreeNode | undefined {
    // /.search first: a query may itself be named like a "@" file.
    if (QueryDirectories.contains(path)) return this.#queries.node(path);
    const slash = path.lastIndexOf("/");
    if (path.charCodeAt(slash + 1) !== 64) return undefined; // "@"
    return this.#namespaceFiles.of(path.slice(0, slash) || "/")?.get(path.slice(slash + 1));
  }

  #directoryNames(path: string, node: DirectoryNode): string[] {
    if (QueryDirectories.contains(path)) return this.#queries.names(path);
    return [...(this.#namespaceFiles.of(path)?.keys() ?? []), ...node.children];
  }
}
