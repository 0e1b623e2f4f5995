/** What the manifest reports about the served catalog. */
export interface ManifestFacts {
  readonly providerVersion: string;
  readonly revision: string;
  readonly stamp: string;
  readonly operationCount: number;
  readonly subtree: string | null;
  readonly maxSearchResults: number;
  readonly maxPathLength: number;
}

/** The AFI discovery manifest (seed 004) for a profile-2 provider, served at /.afi/manifest.json. */
export function buildManifest(facts: ManifestFacts): Record<string, unknown> {
  return {
    afi_version: "0.1",
    provider: "forage",
    provider_version: facts.providerVersion,
    profile: 2,
    capabilities: ["stat", "list", "read", "search"],
    search: {
      modes: ["exact", "regex"],
      max_results: facts.maxSearchResults,
      "x-ordering": "exact and regex: by (path, line); /.search/<query>/: ranked by relevance, best first",
    },
    path: { case_sensitive: true, max_length: facts.maxPathLength },
    auth: { required: false, methods: [] },
    "x-list-ordering": "metadata entries first, then catalog list order: namespace, then operation path, by UTF-16 code units",
    "x-forage-revision": facts.revision,
    "x-forage-stamp": facts.stamp,
    "x-forage-operations": facts.operationCount,
    "x-forage-subtree": facts.subtree,
  };
}
