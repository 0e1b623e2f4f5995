import type { CatalogLayout } from "../catalog-layout.js";
import { MAX_CONTENT_SEARCH_LIMIT } from "../content-search/content-search.js";
import { CONTROL_FILE } from "../content-search/control-file.js";
import type { SourceInfo } from "../source-info.js";
import { MAX_TREE_PATH_LENGTH } from "../tree-path.js";
import { SEARCH_ROOT } from "../walk-tree.js";
import { EDITOR_INDEX_FILE, EDITOR_PACKAGE_FILE, mountPackageJson } from "./editor-declarations.js";
import { buildManifest, type ManifestSource } from "./manifest.js";
import { mountReadme, mountTsconfig } from "./mount-guide.js";
import { sourceCounts, UNSUPPORTED_FILE } from "./source-files.js";

/** What the mount's own files say of the served revision and what it offers. */
export interface MountFileOptions {
  readonly revision: string;
  readonly stamp: string;
  readonly providerVersion: string;
  /** Mount only this namespace as the root. */
  readonly subtree?: string;
  /** Serve the `/.afi/search` control file (default true); false for read-only mounts, where nothing could write it. */
  readonly searchControl?: boolean;
  /** Serve the ranked `/.search/<query>/` directory (default true); false for an export, which cannot answer queries. */
  readonly rankedSearchDirectory?: boolean;
  /** The view was chosen by a bearer token (`--tokens`): the manifest declares auth required (default false). */
  readonly authRequired?: boolean;
}

/** Texts of the root's own files that the tree's namespace files make, asked for when a file is read. */
export interface RootTexts {
  /** The editor's index.d.ts. */
  readonly rootDeclaration: () => string;
}

/**
 * Adds the files that describe the mount rather than an operation: /.afi with its manifest
 * and search control file, /.search, the README, tsconfig.json,
 * and the editor's index.d.ts and package.json.
 */
export function addMetadataFiles(
  layout: CatalogLayout,
  options: MountFileOptions,
  operationCount: number,
  sources: readonly SourceInfo[],
  root: RootTexts,
): void {
  const searchable = options.searchControl ?? true;
  const rankedSearch = options.rankedSearchDirectory ?? true;
  const facts = {
    revision: options.revision,
    stamp: options.stamp,
    operationCount,
    subtree: options.subtree ?? null,
    searchable,
    sources: sources.map((source) => manifestSource(layout, source)),
    rankedSearch,
  };
  const manifest = buildManifest({
    ...facts,
    authRequired: options.authRequired ?? false,
    providerVersion: options.providerVersion,
    maxSearchResults: MAX_CONTENT_SEARCH_LIMIT,
    maxPathLength: MAX_TREE_PATH_LENGTH,
  });
  layout.addDirectory("/.afi", undefined);
  layout.addFile("/.afi/manifest.json", () => `${JSON.stringify(manifest, null, 2)}\n`);
  if (searchable) layout.addNode(CONTROL_FILE, { kind: "control" });
  if (rankedSearch)
    layout.addNode(SEARCH_ROOT, { kind: "directory", namespace: undefined, children: [], unlisted: true });
  layout.addFile("/README.md", () => mountReadme(facts));
  layout.addFile("/tsconfig.json", mountTsconfig);
  layout.addFile(`/${EDITOR_INDEX_FILE}`, root.rootDeclaration);
  layout.addFile(`/${EDITOR_PACKAGE_FILE}`, () => mountPackageJson(facts));
}

/** What the manifest and README say of a source: its counts and where its files are. */
function manifestSource(layout: CatalogLayout, source: SourceInfo): ManifestSource {
  const directory = layout.namespaceDirectory(source.namespace).slice(1);
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
