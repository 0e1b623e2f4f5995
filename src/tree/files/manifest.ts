import type { SourceInfo } from "../source-info.js";

/** One intake source as the manifest and README count it. */
export interface ManifestSource {
  readonly namespace: string;
  readonly kind: string;
  /** Its directory relative to the root, "" for the root itself. */
  readonly directory: string;
  readonly declared: number;
  readonly described: number;
  /** Shown from the source's own schemas, not validated by Forage. */
  readonly unvalidated: number;
  readonly unsupported: number;
  /** The left-out list relative to the root, null when nothing was left out. */
  readonly unsupportedList: string | null;
  readonly source: SourceInfo;
}

/** What the manifest reports about the served catalog. */
export interface ManifestFacts {
  readonly providerVersion: string;
  readonly revision: string;
  readonly stamp: string;
  readonly operationCount: number;
  readonly subtree: string | null;
  readonly maxSearchResults: number;
  readonly maxPathLength: number;
  /** False on a read-only mount: nothing can write the search control file, so AFI search is absent (profile 1). */
  readonly searchable: boolean;
  /** The intake sources at or under the root, in command-line order. */
  readonly sources: readonly ManifestSource[];
  /** False when there is no ranked /.search/<query>/ directory (an export); default true. */
  readonly rankedSearch?: boolean;
  /** True when a bearer token chose this view (`--tokens`): the manifest then says auth is required. */
  readonly authRequired?: boolean;
}

/**
 * The AFI discovery manifest (seed 004), served at /.afi/manifest.json: profile 2, or
 * profile 1 (no `search` capability, no modes) on a read-only mount.
 */
export function buildManifest(facts: ManifestFacts): Record<string, unknown> {
  const ranked = "/.search/<query>/: ranked by relevance, best first";
  return {
    afi_version: "0.1",
    provider: "forage",
    provider_version: facts.providerVersion,
    profile: facts.searchable ? 2 : 1,
    capabilities: facts.searchable ? ["stat", "list", "read", "search"] : ["stat", "list", "read"],
    search: facts.searchable
      ? {
          modes: ["exact", "regex"],
          max_results: facts.maxSearchResults,
          "x-ordering": `exact and regex: by (path, line); ${ranked}`,
        }
      : { modes: [], max_results: 0, ...(facts.rankedSearch === false ? {} : { "x-ordering": ranked }) },
    path: { case_sensitive: true, max_length: facts.maxPathLength },
    auth: facts.authRequired === true ? { required: true, methods: ["bearer"] } : { required: false, methods: [] },
    "x-list-ordering":
      "metadata entries first, then catalog list order: namespace, then operation path, by UTF-16 code units",
    "x-forage-revision": facts.revision,
    "x-forage-stamp": facts.stamp,
    "x-forage-operations": facts.operationCount,
    "x-forage-subtree": facts.subtree,
    "x-forage-index": "@index.txt in every namespace directory: one line per child (see README.md)",
    "x-forage-sources": facts.sources.map((source) => ({
      namespace: source.namespace,
      kind: source.kind,
      directory: source.directory,
      declared: source.declared,
      described: source.described,
      not_validated: source.unvalidated,
      unsupported: source.unsupported,
      unsupported_list: source.unsupportedList,
    })),
  };
}
