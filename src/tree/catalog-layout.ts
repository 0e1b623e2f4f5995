import { compareCodeUnits, enclosingNamespaceOf, isUnderNamespace } from "../catalog/operation-path.js";
import type { Forage, Summary } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import type { Steps } from "../slices.js";
import { operationStem } from "./operation-files.js";
import type { SourceInfo } from "./source-info.js";
import { type DirectoryNode, fileNode, renderedFile, type TreeNode } from "./tree-nodes.js";
import {
  type UnvalidatedSubject,
  unvalidatedJson,
  unvalidatedTypescript,
} from "./unvalidated/unvalidated-operations.js";
import { TreeError } from "./virtual-tree.js";

/** What a catalog directory holds, for its index: its children in listing order and what lies below. */
export type DirectoryFacts = {
  readonly children: (
    | { kind: "operation"; summary: Summary }
    | { kind: "namespace"; name: string }
    | ({ kind: "unvalidated" } & UnvalidatedSubject)
  )[];
  /** Operations described below, nested ones included. */
  operations: number;
  /** Operations of the sources below shown not validated, from the sources' own schemas, nested ones included. */
  unvalidated: number;
  /** Operations the sources below left out, nested ones included. */
  unsupported: number;
  /** The source mounted at this directory's namespace, if any. */
  source?: SourceInfo;
};

/** Operations laid out per step: a step per operation cost more in resuming the generators than in work. */
const LAID_OUT_PER_STEP = 16;

/**
 * Lays out one catalog revision as a tree: the root, then what `addMountFiles` adds,
 * then the operations in list order and the sources' facts, yielding after each page of
 * the list and every LAID_OUT_PER_STEP operations (src/slices.ts). Throws `not_found` for a subtree with
 * neither operations nor sources.
 */
export function* catalogLayoutSteps(
  forage: Forage,
  subtree: string | undefined,
  allSources: readonly SourceInfo[],
  addMountFiles: (layout: CatalogLayout, operationCount: number, sources: readonly SourceInfo[]) => void,
): Steps<CatalogLayout> {
  const layout = new CatalogLayout(forage, subtree);
  const operations = yield* listEvery(forage, subtree);
  const sources = allSources.filter(({ namespace }) => layout.inScope(namespace));
  if (subtree !== undefined && operations.length === 0 && sources.length === 0) {
    throw new ForageError("not_found", `subtree ${JSON.stringify(subtree)} is not a namespace with operations`);
  }
  addMountFiles(layout, operations.length, sources);
  yield* layout.addOperations(operations, sources);
  for (const source of sources) layout.addSource(source);
  return layout;
}

/**
 * Every namespace with an operation below it: the dotted prefixes of each path. One pass over the
 * list, where asking each source whether some operation lies under it cost sources × operations
 * string comparisons (150 ms for 430 sources and 20,005 tools).
 */
function namespacesHolding(operations: readonly Summary[]): Set<string> {
  const namespaces = new Set<string>();
  for (const { path } of operations) {
    for (let dot = path.lastIndexOf("."); dot > 0; dot = path.lastIndexOf(".", dot - 1)) {
      const namespace = path.slice(0, dot);
      // The set holds every prefix of a namespace it holds, so the shorter ones are in already.
      if (namespaces.has(namespace)) break;
      namespaces.add(namespace);
    }
  }
  return namespaces;
}

/** The fixed nodes of a catalog tree, the facts of its catalog directories, and how catalog paths map to tree paths. */
export class CatalogLayout {
  readonly subtree: string | undefined;
  /** The view this layout shows, for what its files read on demand. */
  readonly forage: Forage;
  readonly #nodes = new Map<string, TreeNode>();
  readonly #directories = new Map<string, DirectoryFacts>();
  // Shared by every operation's files, which hold only the operation's path.
  readonly #typescript = (path: string): string => this.forage.describe(path).typescript;
  readonly #json = (path: string): string => operationJson(this.forage, path);

  constructor(forage: Forage, subtree: string | undefined) {
    this.forage = forage;
    this.subtree = subtree;
    this.addDirectory("/", subtree);
  }

  /** The fixed node at a normalized path, if any. */
  node(path: string): TreeNode | undefined {
    return this.#nodes.get(path);
  }

  /** The facts of a catalog directory; undefined for any other path. */
  facts(directory: string): DirectoryFacts | undefined {
    return this.#directories.get(directory);
  }

  /** The dotted namespace of a catalog directory ("" for the catalog root). */
  namespace(directory: string): string {
    return (this.#nodes.get(directory) as DirectoryNode).namespace ?? "";
  }

  /** True for a namespace at or under the subtree, if any. */
  inScope(namespace: string): boolean {
    return this.subtree === undefined || namespace === this.subtree || isUnderNamespace(namespace, this.subtree);
  }

  /** The directory of a namespace at or under the root. */
  namespaceDirectory(namespace: string): string {
    return namespace === this.subtree ? "/" : `/${this.#relativeSegments(namespace).join("/")}`;
  }

  /** The .d.ts path of an operation under the root; see operationStem for the one rename. */
  operationFile(path: string): string {
    const segments = this.#relativeSegments(path);
    const last = segments.length - 1;
    segments[last] = operationStem(segments[last] as string, last === 0);
    return `/${segments.join("/")}.d.ts`;
  }

  /**
   * Adds the operations in list order. A source namespace with no described operation
   * gets its directory where list order would put its first operation.
   */
  *addOperations(operations: readonly Summary[], sources: readonly SourceInfo[]): Steps<void> {
    const holding = namespacesHolding(operations);
    const empty = sources
      .map(({ namespace }) => namespace)
      .filter((namespace) => !holding.has(namespace))
      .sort(compareCodeUnits);
    let next = 0;
    let added = 0;
    for (const summary of operations) {
      const namespace = enclosingNamespaceOf(summary.path);
      while (next < empty.length && compareCodeUnits(empty[next] as string, namespace) < 0)
        this.#ensureDirectory(this.namespaceDirectory(empty[next++] as string));
      this.#addOperation(summary);
      if (++added % LAID_OUT_PER_STEP === 0) yield;
    }
    for (const namespace of empty.slice(next)) this.#ensureDirectory(this.namespaceDirectory(namespace));
  }

  /**
   * Records a source at its namespace's directory, adds the files of its not-validated operations
   * there (after the described ones), and counts both kinds in every directory above.
   */
  addSource(source: SourceInfo): void {
    const directory = this.namespaceDirectory(source.namespace);
    const facts = this.#directories.get(directory) as DirectoryFacts;
    facts.source = source;
    let shown = 0;
    for (const operation of source.unvalidated ?? []) {
      const subject = { path: `${source.namespace}.${operation.segment}`, operation };
      const file = this.operationFile(subject.path);
      // A described operation of the same path keeps its files; the source's other one stays in the count only.
      if (this.#nodes.has(file)) continue;
      facts.children.push({ kind: "unvalidated", ...subject });
      this.addNode(file, renderedFile(unvalidatedTypescript, subject));
      this.addNode(`${file.slice(0, -".d.ts".length)}.json`, renderedFile(unvalidatedJson, subject));
      shown += 1;
    }
    for (const above of ancestors(directory)) {
      (this.#directories.get(above) as DirectoryFacts).unsupported += source.unsupported.length;
      (this.#directories.get(above) as DirectoryFacts).unvalidated += shown;
    }
  }

  /** Adds a directory; one with a namespace (or the root) is a catalog directory with facts. */
  addDirectory(path: string, namespace: string | undefined): void {
    this.addNode(path, { kind: "directory", namespace: path === "/" ? (namespace ?? "") : namespace, children: [] });
    if (namespace !== undefined || path === "/")
      this.#directories.set(path, { children: [], operations: 0, unvalidated: 0, unsupported: 0 });
  }

  /** Adds a file whose text is made on demand. */
  addFile(path: string, text: () => string): void {
    this.addNode(path, fileNode(text));
  }

  /** Adds a node and names it in its parent directory's listing. */
  addNode(path: string, node: TreeNode): void {
    this.#nodes.set(path, node);
    const slash = path.lastIndexOf("/");
    if (path === "/") return;
    const parent = this.#nodes.get(slash === 0 ? "/" : path.slice(0, slash));
    if (parent?.kind === "directory") parent.children.push(path.slice(slash + 1));
  }

  #addOperation(summary: Summary): void {
    const file = this.operationFile(summary.path);
    const directory = file.slice(0, file.lastIndexOf("/")) || "/";
    this.#ensureDirectory(directory);
    (this.#directories.get(directory) as DirectoryFacts).children.push({ kind: "operation", summary });
    for (const above of ancestors(directory)) (this.#directories.get(above) as DirectoryFacts).operations += 1;
    this.addNode(file, renderedFile(this.#typescript, summary.path));
    this.addNode(`${file.slice(0, -".d.ts".length)}.json`, renderedFile(this.#json, summary.path));
  }

  /** Adds a namespace directory and any missing one above it. */
  #ensureDirectory(directory: string): void {
    if (this.#nodes.has(directory)) return;
    const slash = directory.lastIndexOf("/");
    const parent = directory.slice(0, slash) || "/";
    this.#ensureDirectory(parent);
    this.addDirectory(directory, this.#subtreePath(directory));
    (this.#directories.get(parent) as DirectoryFacts).children.push({
      kind: "namespace",
      name: directory.slice(slash + 1),
    });
  }

  #relativeSegments(path: string): string[] {
    return (this.subtree === undefined ? path : path.slice(this.subtree.length + 1)).split(".");
  }

  /** The dotted namespace a directory path stands for. */
  #subtreePath(directory: string): string {
    const relative = directory.slice(1).split("/").join(".");
    return this.subtree === undefined ? relative : `${this.subtree}.${relative}`;
  }
}

/**
 * The .json file of an operation: its description without the TypeScript, which has its own file
 * (and is rendered only when read, so this names the fields it keeps rather than reading the rest).
 */
function operationJson(forage: Forage, path: string): string {
  const described = forage.describe(path);
  if (described.kind !== "operation") throw new TreeError("internal", "an operation described as a namespace", path);
  const { description, capabilities, instructions, sample, inputSchema, outputSchema } = described;
  // Every operation's .json says whether Forage validated it; the catalog holds validated ones only.
  const json = {
    path: described.path,
    validated: true,
    description,
    capabilities,
    instructions,
    sample,
    inputSchema,
    outputSchema,
  };
  return `${JSON.stringify(json, null, 2)}\n`;
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

/** Every operation under `namespace`, following the list's pages to the end, a step per page. */
export function* listEvery(forage: Forage, namespace: string | undefined): Steps<Summary[]> {
  const all: Summary[] = [];
  let cursor: string | null = null;
  do {
    const page = forage.list({ namespace, cursor });
    all.push(...page.results);
    cursor = page.nextCursor;
    yield;
  } while (cursor !== null);
  return all;
}
