import type { CatalogLayout, DirectoryFacts } from "../catalog-layout.js";
import type { SourceInfo } from "../source-info.js";
import { operationInputs } from "../text/input-names.js";
import { pageName } from "../text/text-pages.js";
import { type FileNode, fileNode, renderedFile } from "../tree-nodes.js";
import { childPath } from "../tree-path.js";
import { INDEX_STEM, type IndexEntry, indexPages } from "./directory-index.js";
import { composedNamespaceDeclaration, type DeclaredChild } from "./editor-declarations.js";
import {
  SOURCE_FILE,
  sourcePurpose,
  sourceSummary,
  sourceText,
  UNSUPPORTED_STEM,
  unsupportedPages,
} from "./source-files.js";

/** The file in every namespace directory that describes the whole namespace; "@" keeps it apart from operation names. */
export const NAMESPACE_FILE = "@namespace.d.ts";
/** How a declaration file imports a namespace file: TypeScript maps `.js` to the `.d.ts` beside it. */
const NAMESPACE_MODULE = "@namespace.js";

/** One page of a directory's index. */
type IndexPage = { readonly directory: string; readonly page: number };

/**
 * Each catalog directory's "@" files, made when the directory is first listed or looked into.
 * Their texts are rendered on read and not kept once read (11.5 MB of index pages at 10,000
 * operations): a mount's node table holds them once it is in.
 */
export class NamespaceFiles {
  readonly #layout: CatalogLayout;
  readonly #made = new Map<string, ReadonlyMap<string, FileNode>>();
  /**
   * Index pages rendered to list their directory (which names as many pages as there are), kept
   * until first read: a mount's node table lists every directory, then reads every file, and so
   * renders each index once.
   */
  readonly #unread = new Map<string, readonly string[]>();
  /** The index pages last read: a walk stats and reads a directory's pages one after another. */
  #lastIndex: { readonly directory: string; readonly pages: readonly string[] } | undefined;
  readonly #indexPage = ({ directory, page }: IndexPage): string => this.#indexPages(directory)[page] as string;
  readonly #declaration = (directory: string): string => this.composedDeclaration(directory);

  constructor(layout: CatalogLayout) {
    this.#layout = layout;
  }

  /**
   * A catalog directory's "@" files, in listing order: its index pages, its namespace
   * description, and, for a source's namespace, its source file and left-out pages.
   */
  of(directory: string): ReadonlyMap<string, FileNode> | undefined {
    const facts = this.#layout.facts(directory);
    if (facts === undefined) return undefined;
    let files = this.#made.get(directory);
    if (files === undefined) {
      files = this.#make(directory, facts);
      this.#made.set(directory, files);
    }
    return files;
  }

  /** The declaration of a directory's namespace, composed from its operations' files and its namespaces' files. */
  composedDeclaration(directory: string): string {
    const facts = this.#facts(directory);
    const children: DeclaredChild[] = [];
    for (const child of facts.children) {
      if (child.kind !== "namespace") {
        const path = child.kind === "operation" ? child.summary.path : child.path;
        const segment = path.slice(path.lastIndexOf(".") + 1);
        children.push({ kind: "operation", segment, specifier: `./${this.#fileStem(path)}.js` });
      } else if (declaredBelow(this.#facts(childPath(directory, child.name))) > 0) {
        children.push({ kind: "namespace", segment: child.name, specifier: `./${child.name}/${NAMESPACE_MODULE}` });
      }
    }
    return composedNamespaceDeclaration({
      namespace: this.#layout.namespace(directory),
      operations: declaredBelow(facts),
      ...(facts.source === undefined ? {} : { sourceSummary: sourceSummary(facts.source) }),
      children,
    });
  }

  #make(directory: string, facts: DirectoryFacts): Map<string, FileNode> {
    const made = new Map<string, FileNode>();
    const pages = this.#renderIndex(directory, facts);
    this.#unread.set(directory, pages);
    for (let page = 0; page < pages.length; page++)
      made.set(pageName(INDEX_STEM, page), renderedFile(this.#indexPage, { directory, page }));
    // The root has none: index.d.ts is the root's, named for imports.
    if (directory !== "/" && declaredBelow(facts) > 0)
      made.set(NAMESPACE_FILE, renderedFile(this.#declaration, directory));
    const source = facts.source;
    if (source !== undefined) {
      made.set(SOURCE_FILE, renderedFile(sourceText, source));
      if (source.unsupported.length > 0) {
        for (const [page, text] of unsupportedPages(source).entries())
          made.set(
            pageName(UNSUPPORTED_STEM, page),
            fileNode(() => text),
          );
      }
    }
    return made;
  }

  #indexPages(directory: string): readonly string[] {
    if (this.#lastIndex?.directory !== directory) {
      const pages = this.#unread.get(directory) ?? this.#renderIndex(directory, this.#facts(directory));
      this.#unread.delete(directory);
      this.#lastIndex = { directory, pages };
    }
    return this.#lastIndex.pages;
  }

  #renderIndex(directory: string, facts: DirectoryFacts): string[] {
    // A directory's index names each operation as `ls` names its files: by its file stem.
    return indexPages(this.#indexSubject(directory, facts), this.#indexEntries(directory, facts), (path) =>
      this.#fileStem(path),
    );
  }

  /** An operation's file name without `.d.ts`, as `ls` shows it in its directory. */
  #fileStem(path: string): string {
    const file = this.#layout.operationFile(path);
    return file.slice(file.lastIndexOf("/") + 1, -".d.ts".length);
  }

  #facts(directory: string): DirectoryFacts {
    return this.#layout.facts(directory) as DirectoryFacts;
  }

  #indexSubject(directory: string, facts: DirectoryFacts) {
    const namespace = this.#layout.namespace(directory);
    const title =
      directory !== "/"
        ? `namespace ${namespace}`
        : namespace === ""
          ? "the catalog root"
          : `namespace ${namespace} (the mount root)`;
    return { title, operations: facts.operations, unvalidated: facts.unvalidated, unsupported: facts.unsupported };
  }

  #indexEntries(directory: string, facts: DirectoryFacts): IndexEntry[] {
    const entries: IndexEntry[] = facts.children.map((child) => {
      if (child.kind === "operation")
        return { ...child, inputs: operationInputs(this.#layout.forage, child.summary.path) };
      return child.kind === "unvalidated" ? child : this.#namespaceEntry(directory, child.name);
    });
    const source = facts.source;
    for (const operation of source?.unsupported ?? [])
      entries.push({ kind: "unsupported", namespace: (source as SourceInfo).namespace, operation });
    return entries;
  }

  #namespaceEntry(directory: string, name: string): IndexEntry {
    const below = this.#facts(childPath(directory, name));
    return {
      kind: "namespace",
      name,
      summary: namespaceSummary(name, below),
      operations: below.operations,
      unvalidated: below.unvalidated,
      unsupported: below.unsupported,
    };
  }
}

/** The names a namespace line shows of what it contains. */
const CONTAINS_SHOWN = 4;

/** Operations declared below a directory: described ones and not-validated ones, which have files too. */
function declaredBelow(facts: DirectoryFacts): number {
  return facts.operations + facts.unvalidated;
}

/**
 * What a namespace is for, in a few words: its source's own (see sourcePurpose), then the names of
 * its first few children (left-out ones when nothing is described), which say what it holds when
 * its name misleads.
 */
function namespaceSummary(name: string, facts: DirectoryFacts): string {
  const names = facts.children.map((child) => {
    if (child.kind === "namespace") return `${child.name}/`;
    return child.kind === "operation" ? (child.summary.path.split(".").pop() as string) : child.operation.segment;
  });
  const listed = names.length > 0 ? names : (facts.source?.unsupported ?? []).map(({ name }) => name);
  const more = listed.length > CONTAINS_SHOWN ? ", …" : "";
  const contains = listed.length === 0 ? "" : `contains ${listed.slice(0, CONTAINS_SHOWN).join(", ")}${more}`;
  // A sentence's full stop would read badly before "; contains".
  const purpose = facts.source === undefined ? "" : sourcePurpose(name, facts.source).replace(/\.$/, "");
  return [purpose, contains].filter((part) => part !== "").join("; ");
}
