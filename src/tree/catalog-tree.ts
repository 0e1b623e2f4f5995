import { compareCodeUnits, isUnderNamespace } from "../catalog/operation-path.js";
import type { Forage, Summary } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import { AfiSearchSession, PendingRequests } from "./afi-search-session.js";
import {
  contentSearchScope,
  MAX_CONTENT_SEARCH_LIMIT,
  parseContentSearchRequest,
  searchContent,
} from "./content-search.js";
import { INDEX_STEM, type IndexEntry, indexPages } from "./directory-index.js";
import {
  composedNamespaceDeclaration,
  type DeclaredChild,
  EDITOR_INDEX_FILE,
  EDITOR_PACKAGE_FILE,
  mountPackageJson,
} from "./editor-declarations.js";
import { buildManifest, type ManifestSource } from "./manifest.js";
import { mountReadme, mountTsconfig } from "./mount-guide.js";
import { operationStem } from "./operation-files.js";
import { type SearchListing, searchListing } from "./search-directory.js";
import {
  SOURCE_FILE,
  sourceCounts,
  sourceSummary,
  sourceText,
  UNSUPPORTED_FILE,
  UNSUPPORTED_STEM,
  unsupportedPages,
} from "./source-files.js";
import type { SourceInfo } from "./source-info.js";
import { pageName } from "./text-pages.js";
import { childPath, MAX_TREE_PATH_LENGTH, normalizeTreePath } from "./tree-path.js";
import { type ControlSession, type TreeEntry, TreeError, type TreeNodeInfo, type VirtualTree } from "./virtual-tree.js";
import { SEARCH_ROOT, walkTree } from "./walk-tree.js";

/** What a catalog tree shows besides the operations themselves. */
export interface CatalogTreeOptions {
  readonly revision: string;
  readonly stamp: string;
  readonly providerVersion: string;
  /** Mount only this namespace as the root. */
  readonly subtree?: string;
  /** Serve the `/.afi/search` control file (default true); false for read-only mounts, where nothing could write it. */
  readonly searchControl?: boolean;
  /** Serve the ranked `/.search/<query>/` directory (default true); false for an export, which cannot answer queries. */
  readonly rankedSearchDirectory?: boolean;
  /** What each intake source says about itself, shown in its namespace directory. */
  readonly sources?: readonly SourceInfo[];
}

/** The file in every namespace directory that describes the whole namespace; "@" keeps it apart from operation names. */
export const NAMESPACE_FILE = "@namespace.d.ts";
/** How a declaration file imports a namespace file: TypeScript maps `.js` to the `.d.ts` beside it. */
const NAMESPACE_MODULE = "@namespace.js";
const CONTROL_FILE = "/.afi/search";
/** Query directories kept, most recent first; a revision is immutable, so a kept answer never goes stale. */
const MAX_CACHED_QUERIES = 256;

/**
 * A file's text is made on demand and not kept: the kernel's page cache holds
 * what was read, and most texts are strings the catalog already prepared.
 * Only the byte size is remembered, once a read or a stat needed it. Listings
 * report it lazily, so that a walk that reads every file (the mount's node
 * table) renders each one once, not once for its size and again for its bytes.
 */
type FileNode = {
  readonly kind: "file";
  readonly text: () => string;
  readonly size: () => number;
  readonly bytes: () => Uint8Array;
};
type DirectoryNode = {
  readonly kind: "directory";
  readonly namespace: string | undefined;
  readonly children: string[];
  readonly unlisted?: boolean;
};
/** What a catalog directory holds, for its index: its children in listing order and what lies below. */
type DirectoryFacts = {
  readonly children: ({ kind: "operation"; summary: Summary } | { kind: "namespace"; name: string })[];
  /** Operations described below, nested ones included. */
  operations: number;
  /** Operations the sources below left out, nested ones included. */
  unsupported: number;
  /** The source mounted at this directory's namespace, if any. */
  source?: SourceInfo;
};
type Node =
  | FileNode
  | DirectoryNode
  | { readonly kind: "symlink"; readonly target: string }
  | { readonly kind: "control" };

const encoder = new TextEncoder();

/** Builds the virtual tree of one catalog revision: namespaces as directories, operations as .d.ts and .json files. */
export function createCatalogTree(forage: Forage, options: CatalogTreeOptions): VirtualTree {
  return new CatalogTree(forage, options);
}

class CatalogTree implements VirtualTree {
  readonly stamp: string;
  readonly #nodes = new Map<string, Node>();
  readonly #listings = new Map<string, readonly TreeEntry[]>();
  readonly #queries = new Map<string, SearchListing>();
  readonly #pending = new PendingRequests();
  readonly #subtree: string | undefined;
  readonly #directories = new Map<string, DirectoryFacts>();
  /** Each catalog directory's "@" files, made when the directory is first listed or looked into. */
  readonly #metadata = new Map<string, ReadonlyMap<string, FileNode>>();
  #sortedFiles: string[] | undefined;

  readonly #forage: Forage;

  constructor(forage: Forage, options: CatalogTreeOptions) {
    this.#forage = forage;
    this.stamp = options.stamp;
    this.#subtree = options.subtree;
    const operations = listEvery(forage, options.subtree);
    const sources = (options.sources ?? []).filter(({ namespace }) => this.#inScope(namespace));
    if (options.subtree !== undefined && operations.length === 0 && sources.length === 0) {
      throw new ForageError(
        "not_found",
        `subtree ${JSON.stringify(options.subtree)} is not a namespace with operations`,
      );
    }
    this.#addDirectory("/", options.subtree);
    this.#addMetadata(options, operations.length, sources);
    this.#addOperations(operations, sources);
    for (const source of sources) this.#addSource(source);
  }

  stat(path: string): TreeNodeInfo {
    return this.#info(this.#node(normalizeTreePath(path), path));
  }

  list(path: string): readonly TreeEntry[] {
    const normalized = normalizeTreePath(path);
    const node = this.#node(normalized, path);
    if (node.kind !== "directory") throw new TreeError("invalid_path", "not a directory", path);
    let entries = this.#listings.get(normalized);
    if (entries === undefined) {
      entries = this.#directoryNames(normalized, node).map((name) =>
        this.#entry(name, this.#node(childPath(normalized, name), path)),
      );
      if (!normalized.startsWith(SEARCH_ROOT)) this.#listings.set(normalized, entries);
    }
    return entries;
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
    return new AfiSearchSession(this.#pending, caller, (request) => this.#runContentSearch(request));
  }

  /** A listing entry; a file's size is computed when first asked for. */
  #entry(name: string, node: Node): TreeEntry {
    if (node.kind !== "file") return { name, ...this.#info(node) };
    return {
      name,
      kind: "file",
      get size() {
        return node.size();
      },
    };
  }

  #info(node: Node): TreeNodeInfo {
    switch (node.kind) {
      case "directory":
        return node.unlisted ? { kind: "directory", size: 0, unlisted: true } : { kind: "directory", size: 0 };
      case "file":
        return { kind: "file", size: node.size() };
      case "symlink":
        return { kind: "symlink", size: Buffer.byteLength(node.target), target: node.target };
      case "control":
        return { kind: "file", size: 0, writable: true };
    }
  }

  #node(normalized: string, original: string): Node {
    const node = this.#nodes.get(normalized) ?? this.#dynamicNode(normalized);
    if (node === undefined) throw new TreeError("not_found", "no such file or directory", original);
    return node;
  }

  /** Nodes that exist only on demand: a directory's "@" files and /.search. */
  #dynamicNode(path: string): Node | undefined {
    // /.search first: a query may itself be named like a "@" file.
    if (path.startsWith(`${SEARCH_ROOT}/`)) return this.#searchNode(path.slice(SEARCH_ROOT.length + 1));
    const slash = path.lastIndexOf("/");
    if (path.charCodeAt(slash + 1) !== 64) return undefined; // "@"
    return this.#metadataFiles(path.slice(0, slash) || "/")?.get(path.slice(slash + 1));
  }

  #directoryNames(path: string, node: DirectoryNode): string[] {
    if (path.startsWith(`${SEARCH_ROOT}/`)) {
      const listing = this.#queryListing(path.slice(SEARCH_ROOT.length + 1));
      return ["results.json", ...listing.entries.map((entry) => entry.name)];
    }
    return [...(this.#metadataFiles(path)?.keys() ?? []), ...node.children];
  }

  /**
   * A catalog directory's "@" files, in listing order: its index pages, its namespace
   * description, and, for a source's namespace, its source file and left-out pages.
   */
  #metadataFiles(directory: string): ReadonlyMap<string, FileNode> | undefined {
    const facts = this.#directories.get(directory);
    if (facts === undefined) return undefined;
    let files = this.#metadata.get(directory);
    if (files === undefined) {
      const made = new Map<string, FileNode>();
      const pages = indexPages(this.#indexSubject(directory, facts), this.#indexEntries(directory, facts));
      for (const [page, text] of pages.entries())
        made.set(
          pageName(INDEX_STEM, page),
          fileNode(() => text),
        );
      const described = this.#namespaceFile(directory);
      if (described !== undefined) made.set(NAMESPACE_FILE, described);
      const source = facts.source;
      if (source !== undefined) {
        made.set(
          SOURCE_FILE,
          fileNode(() => sourceText(source)),
        );
        if (source.unsupported.length > 0) {
          for (const [page, text] of unsupportedPages(source).entries())
            made.set(
              pageName(UNSUPPORTED_STEM, page),
              fileNode(() => text),
            );
        }
      }
      files = made;
      this.#metadata.set(directory, files);
    }
    return files;
  }

  /**
   * A namespace directory's composed declaration file (see composedNamespaceDeclaration), or undefined
   * when nothing lies below to declare. The root has none: index.d.ts is the root's, named for imports.
   */
  #namespaceFile(directory: string): FileNode | undefined {
    if (directory === "/" || (this.#directories.get(directory) as DirectoryFacts).operations === 0) return undefined;
    return fileNode(() => this.#composedDeclaration(directory));
  }

  /** The declaration of a directory's namespace, composed from its operations' files and its namespaces' files. */
  #composedDeclaration(directory: string): string {
    const facts = this.#directories.get(directory) as DirectoryFacts;
    const children: DeclaredChild[] = [];
    for (const child of facts.children) {
      if (child.kind === "operation") {
        const file = this.#operationFile(child.summary.path);
        const stem = file.slice(file.lastIndexOf("/") + 1, -".d.ts".length);
        const segment = child.summary.path.slice(child.summary.path.lastIndexOf(".") + 1);
        children.push({ kind: "operation", segment, specifier: `./${stem}.js` });
      } else if ((this.#directories.get(childPath(directory, child.name)) as DirectoryFacts).operations > 0) {
        children.push({ kind: "namespace", segment: child.name, specifier: `./${child.name}/${NAMESPACE_MODULE}` });
      }
    }
    return composedNamespaceDeclaration({
      namespace: (this.#nodes.get(directory) as DirectoryNode).namespace ?? "",
      operations: facts.operations,
      ...(facts.source === undefined ? {} : { sourceSummary: sourceSummary(facts.source) }),
      children,
    });
  }

  #indexSubject(directory: string, facts: DirectoryFacts) {
    const namespace = (this.#nodes.get(directory) as DirectoryNode).namespace ?? "";
    const title =
      directory !== "/"
        ? `namespace ${namespace}`
        : namespace === ""
          ? "the catalog root"
          : `namespace ${namespace} (the mount root)`;
    return { title, operations: facts.operations, unsupported: facts.unsupported };
  }

  #indexEntries(directory: string, facts: DirectoryFacts): IndexEntry[] {
    const entries: IndexEntry[] = facts.children.map((child) => {
      if (child.kind === "operation") return child;
      const path = childPath(directory, child.name);
      const below = this.#directories.get(path) as DirectoryFacts;
      return {
        kind: "namespace",
        name: child.name,
        summary: this.#namespaceSummary(below),
        operations: below.operations,
        unsupported: below.unsupported,
      };
    });
    const source = facts.source;
    for (const operation of source?.unsupported ?? [])
      entries.push({ kind: "unsupported", namespace: (source as SourceInfo).namespace, operation });
    return entries;
  }

  /**
   * A namespace's one line: its source's title and description, then the names of its first few
   * children (left-out ones when nothing is described), which say more than a title to an agent scanning the root.
   */
  #namespaceSummary(facts: DirectoryFacts): string {
    const shown = 6;
    const names = facts.children.map((child) =>
      child.kind === "namespace" ? `${child.name}/` : (child.summary.path.split(".").pop() as string),
    );
    const listed = names.length > 0 ? names : (facts.source?.unsupported ?? []).map(({ name }) => name);
    const contains =
      listed.length === 0 ? "" : `contains ${listed.slice(0, shown).join(", ")}${listed.length > shown ? ", …" : ""}`;
    if (facts.source === undefined) return contains;
    const summary = sourceSummary(facts.source);
    if (contains === "") return summary;
    return /[.!?]$/.test(summary) ? `${summary} C${contains.slice(1)}` : `${summary}; ${contains}`;
  }

  #searchNode(rest: string): Node | undefined {
    const slash = rest.indexOf("/");
    const query = slash === -1 ? rest : rest.slice(0, slash);
    if (slash === -1) return { kind: "directory", namespace: undefined, children: [] };
    const name = rest.slice(slash + 1);
    if (name.includes("/")) return undefined;
    const listing = this.#queryListing(query);
    if (name === "results.json") return fileNode(() => listing.resultsJson);
    const entry = listing.entries.find((candidate) => candidate.name === name);
    return entry === undefined ? undefined : { kind: "symlink", target: entry.target };
  }

  #queryListing(query: string): SearchListing {
    let listing = this.#queries.get(query);
    if (listing === undefined) {
      listing = searchListing(this.#forage, query, this.#subtree, (path) => this.#operationFile(path));
      if (this.#queries.size >= MAX_CACHED_QUERIES) this.#queries.delete(this.#queries.keys().next().value as string);
    } else this.#queries.delete(query);
    this.#queries.set(query, listing);
    return listing;
  }

  #addMetadata(options: CatalogTreeOptions, operationCount: number, sources: readonly SourceInfo[]): void {
    const searchable = options.searchControl ?? true;
    const rankedSearch = options.rankedSearchDirectory ?? true;
    const facts = {
      revision: options.revision,
      stamp: options.stamp,
      operationCount,
      subtree: options.subtree ?? null,
      searchable,
      sources: sources.map((source) => this.#manifestSource(source)),
      rankedSearch,
    };
    const manifest = buildManifest({
      ...facts,
      providerVersion: options.providerVersion,
      maxSearchResults: MAX_CONTENT_SEARCH_LIMIT,
      maxPathLength: MAX_TREE_PATH_LENGTH,
    });
    this.#addDirectory("/.afi", undefined);
    this.#addFile("/.afi/manifest.json", () => `${JSON.stringify(manifest, null, 2)}\n`);
    if (searchable) this.#addNode(CONTROL_FILE, { kind: "control" });
    if (rankedSearch)
      this.#addNode(SEARCH_ROOT, { kind: "directory", namespace: undefined, children: [], unlisted: true });
    this.#addFile("/README.md", () => mountReadme(facts));
    this.#addFile("/tsconfig.json", mountTsconfig);
    this.#addFile(`/${EDITOR_INDEX_FILE}`, () => this.#composedDeclaration("/"));
    this.#addFile(`/${EDITOR_PACKAGE_FILE}`, () => mountPackageJson(facts));
  }

  /** What the manifest and README say of a source: its counts and where its files are. */
  #manifestSource(source: SourceInfo): ManifestSource {
    const directory = this.#namespaceDirectory(source.namespace).slice(1);
    const unsupportedList =
      source.unsupported.length === 0 ? null : directory === "" ? UNSUPPORTED_FILE : `${directory}/${UNSUPPORTED_FILE}`;
    return {
      namespace: source.namespace,
      kind: source.kind,
      directory,
      ...sourceCounts(source),
      unsupportedList,
      source,
    };
  }

  /**
   * Adds the operations in list order. A source namespace with no described operation
   * gets its directory where list order would put its first operation.
   */
  #addOperations(operations: readonly Summary[], sources: readonly SourceInfo[]): void {
    const empty = sources
      .map(({ namespace }) => namespace)
      .filter((namespace) => !operations.some(({ path }) => isUnderNamespace(path, namespace)))
      .sort(compareCodeUnits);
    let next = 0;
    for (const summary of operations) {
      const namespace = summary.path.slice(0, summary.path.lastIndexOf("."));
      while (next < empty.length && compareCodeUnits(empty[next] as string, namespace) < 0)
        this.#ensureDirectory(this.#namespaceDirectory(empty[next++] as string));
      this.#addOperation(summary);
    }
    for (const namespace of empty.slice(next)) this.#ensureDirectory(this.#namespaceDirectory(namespace));
  }

  #addOperation(summary: Summary): void {
    const file = this.#operationFile(summary.path);
    const directory = file.slice(0, file.lastIndexOf("/")) || "/";
    this.#ensureDirectory(directory);
    (this.#directories.get(directory) as DirectoryFacts).children.push({ kind: "operation", summary });
    for (const above of ancestors(directory)) (this.#directories.get(above) as DirectoryFacts).operations += 1;
    this.#addFile(file, () => this.#forage.describe(summary.path).typescript);
    this.#addFile(`${file.slice(0, -".d.ts".length)}.json`, () => operationJson(this.#forage, summary.path));
  }

  #addSource(source: SourceInfo): void {
    const directory = this.#namespaceDirectory(source.namespace);
    (this.#directories.get(directory) as DirectoryFacts).source = source;
    for (const above of ancestors(directory))
      (this.#directories.get(above) as DirectoryFacts).unsupported += source.unsupported.length;
  }

  /** Adds a namespace directory and any missing one above it. */
  #ensureDirectory(directory: string): void {
    if (this.#nodes.has(directory)) return;
    const slash = directory.lastIndexOf("/");
    const parent = directory.slice(0, slash) || "/";
    this.#ensureDirectory(parent);
    this.#addDirectory(directory, this.#subtreePath(directory));
    (this.#directories.get(parent) as DirectoryFacts).children.push({
      kind: "namespace",
      name: directory.slice(slash + 1),
    });
  }

  /** True for a namespace at or under the subtree, if any. */
  #inScope(namespace: string): boolean {
    return this.#subtree === undefined || namespace === this.#subtree || isUnderNamespace(namespace, this.#subtree);
  }

  /** The directory of a namespace at or under the root. */
  #namespaceDirectory(namespace: string): string {
    return namespace === this.#subtree ? "/" : `/${this.#relativeSegments(namespace).join("/")}`;
  }

  /** The .d.ts path of an operation under the root; see operationStem for the one rename. */
  #operationFile(path: string): string {
    const segments = this.#relativeSegments(path);
    const last = segments.length - 1;
    segments[last] = operationStem(segments[last] as string, last === 0);
    return `/${segments.join("/")}.d.ts`;
  }

  #relativeSegments(path: string): string[] {
    return (this.#subtree === undefined ? path : path.slice(this.#subtree.length + 1)).split(".");
  }

  /** The dotted namespace a directory path stands for. */
  #subtreePath(directory: string): string {
    const relative = directory.slice(1).split("/").join(".");
    return this.#subtree === undefined ? relative : `${this.#subtree}.${relative}`;
  }

  #addDirectory(path: string, namespace: string | undefined): void {
    this.#addNode(path, { kind: "directory", namespace: path === "/" ? (namespace ?? "") : namespace, children: [] });
    if (namespace !== undefined || path === "/")
      this.#directories.set(path, { children: [], operations: 0, unsupported: 0 });
  }

  #addFile(path: string, text: () => string): void {
    this.#addNode(path, fileNode(text));
  }

  #addNode(path: string, node: Node): void {
    this.#nodes.set(path, node);
    const slash = path.lastIndexOf("/");
    if (path === "/") return;
    const parent = this.#nodes.get(slash === 0 ? "/" : path.slice(0, slash));
    if (parent?.kind === "directory") parent.children.push(path.slice(slash + 1));
  }

  /** Throws at once for a bad request; the search itself runs in slices (searchContent). */
  #runContentSearch(body: string): Promise<Uint8Array> {
    const request = parseContentSearchRequest(body);
    const scope = contentSearchScope(request.path);
    if (!this.#nodes.has(scope)) throw new TreeError("not_found", "opts.path does not exist", request.path);
    const files = this.#searchableFiles().filter(
      (path) => scope === "/" || path === scope || path.startsWith(`${scope}/`),
    );
    const searched = searchContent(
      files.map((path) => ({ path, text: () => (this.#node(path, path) as FileNode).text() })),
      request,
    );
    return searched.then((matches) =>
      encoder.encode(`${matches.map((match) => JSON.stringify(match)).join("\n")}${matches.length > 0 ? "\n" : ""}\n`),
    );
  }

  /** Every regular file, sorted by path, as AFI orders exact and regex matches. */
  #searchableFiles(): string[] {
    if (this.#sortedFiles === undefined) {
      const files = [...walkTree(this)]
        .filter(({ entry }) => entry.kind === "file" && !entry.writable)
        .map(({ path }) => path);
      this.#sortedFiles = files.sort(compareCodeUnits);
    }
    return this.#sortedFiles;
  }
}

/** The .json file of an operation: its description without the TypeScript, which has its own file. */
function operationJson(forage: Forage, path: string): string {
  const description = forage.describe(path);
  if (description.kind !== "operation") throw new TreeError("internal", "an operation described as a namespace", path);
  const { typescript: _typescript, catalogStamp: _stamp, kind: _kind, ...rest } = description;
  return `${JSON.stringify(rest, null, 2)}\n`;
}

/** A directory and every directory above it, up to the root. */
function ancestors(directory: string): string[] {
  const found = [directory];
  for (let at = directory; at !== "/"; ) {
    at = at.slice(0, at.lastIndexOf("/")) || "/";
    found.push(at);
  }
  return found;
}

function listEvery(forage: Forage, namespace: string | undefined): Summary[] {
  const all: Summary[] = [];
  let cursor: string | null = null;
  do {
    const page = forage.list({ namespace, cursor });
    all.push(...page.results);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}

function fileNode(text: () => string): FileNode {
  let size: number | undefined;
  return {
    kind: "file",
    text,
    size: () => (size ??= Buffer.byteLength(text())),
    bytes: () => {
      const bytes = encoder.encode(text());
      size = bytes.length;
      return bytes;
    },
  };
}
