import type { Forage } from "../../catalog/types.js";
import { INDEX_STEM } from "../files/directory-index.js";
import { pageName } from "../text/text-pages.js";
import { fileNode, type TreeNode } from "../tree-nodes.js";
import { SEARCH_ROOT } from "../walk-tree.js";
import type { LeftOutSearch } from "./left-out-search.js";
import { type SearchListing, searchListing } from "./query-listing.js";

/** Query directories kept, most recent first; a revision is immutable, so a kept answer never goes stale. */
const MAX_CACHED_QUERIES = 256;
const RESULTS_FILE = "results.json";
/**
 * What the preparation asks once it is done, and forgets: verbs and nouns most catalogs hold, so the
 * ranking, the not-validated and left-out matches (where there are any) and the digest all run over
 * many postings.
 */
export const WARMING_QUERY = "list get create update delete search files messages users";

/** The `/.search/<query>/` directories, answered on demand and kept in a least-recently-used cache. */
export class QueryDirectories {
  readonly #forage: Forage;
  readonly #subtree: string | undefined;
  readonly #operationFile: (path: string) => string;
  readonly #leftOut: LeftOutSearch;
  readonly #queries = new Map<string, SearchListing>();

  /** `operationFile` maps an operation path to its .d.ts under the root, for the ranked symlinks. */
  constructor(
    forage: Forage,
    subtree: string | undefined,
    operationFile: (path: string) => string,
    leftOut: LeftOutSearch,
  ) {
    this.#forage = forage;
    this.#subtree = subtree;
    this.#operationFile = operationFile;
    this.#leftOut = leftOut;
  }

  /** True for a path inside /.search, which only this class answers. */
  static contains(path: string): boolean {
    return path.startsWith(`${SEARCH_ROOT}/`);
  }

  /** The node at a path inside /.search: a query directory, its index pages, results.json or one of its ranked symlinks. */
  node(path: string): TreeNode | undefined {
    const rest = path.slice(SEARCH_ROOT.length + 1);
    const slash = rest.indexOf("/");
    if (slash === -1) return { kind: "directory", namespace: undefined, children: [] };
    const name = rest.slice(slash + 1);
    if (name.includes("/")) return undefined;
    const listing = this.#listing(rest.slice(0, slash));
    if (name === RESULTS_FILE) return fileNode(() => listing.resultsJson);
    const page = indexPageNames(listing).indexOf(name);
    if (page !== -1) return fileNode(() => listing.indexPages[page] as string);
    const entry = listing.entries.find((candidate) => candidate.name === name);
    return entry === undefined ? undefined : { kind: "symlink", target: entry.target };
  }

  /** The names in a query directory: its index pages and results.json first, then the ranked entries. */
  names(path: string): string[] {
    const listing = this.#listing(path.slice(SEARCH_ROOT.length + 1));
    return [...indexPageNames(listing), RESULTS_FILE, ...listing.entries.map((entry) => entry.name)];
  }

  /**
   * Answers one query and keeps nothing of it, so the code that answers queries has run before the
   * first one comes: a user's first query took 25–43 ms at ~20,000 tools, the next ones 7–9 ms, the
   * difference being V8 running that code for the first time (BENCHMARKS.md, "A warmed first query").
   */
  warm(): void {
    searchListing(this.#forage, WARMING_QUERY, this.#subtree, this.#operationFile, this.#leftOut);
  }

  #listing(query: string): SearchListing {
    let listing = this.#queries.get(query);
    if (listing === undefined) {
      listing = searchListing(this.#forage, query, this.#subtree, this.#operationFile, this.#leftOut);
      if (this.#queries.size >= MAX_CACHED_QUERIES) this.#queries.delete(this.#queries.keys().next().value as string);
    } else this.#queries.delete(query);
    this.#queries.set(query, listing);
    return listing;
  }
}

function indexPageNames(listing: SearchListing): string[] {
  return listing.indexPages.map((_, page) => pageName(INDEX_STEM, page));
}
