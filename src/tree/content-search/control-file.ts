import { compareCodeUnits } from "../../catalog/operation-path.js";
import { type ControlSession, TreeError, type VirtualTree } from "../virtual-tree.js";
import { walkTree } from "../walk-tree.js";
import { contentSearchScope, parseContentSearchRequest, searchContent, unlistedScopeFiles } from "./content-search.js";
import { AfiSearchSession, PendingRequests } from "./search-session.js";

/** The AFI search control file; writing a request to it and reading back answers a content search. */
export const CONTROL_FILE = "/.afi/search";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The `/.afi/search` content search over one tree's files. */
export class SearchControl {
  readonly #tree: VirtualTree;
  readonly #exists: (path: string) => boolean;
  readonly #text: (path: string) => string;
  readonly #pending = new PendingRequests();
  #sortedFiles: string[] | undefined;

  /** `exists` says whether a search scope names a node; `text` gives a regular file's text. */
  constructor(tree: VirtualTree, exists: (path: string) => boolean, text: (path: string) => string) {
    this.#tree = tree;
    this.#exists = exists;
    this.#text = text;
  }

  /** A session on the control file for one open of it. */
  open(caller: string | undefined): ControlSession {
    return new AfiSearchSession(this.#pending, caller, (request) => this.#run(request));
  }

  /** Throws at once for a bad request; the search itself runs in slices (searchContent). */
  #run(body: string): Promise<Uint8Array> {
    const request = parseContentSearchRequest(body);
    const scope = contentSearchScope(request.path);
    const unlisted = unlistedScopeFiles(this.#tree, scope);
    if (unlisted === undefined && !this.#exists(scope))
      throw new TreeError("not_found", "opts.path does not exist", request.path);
    const files =
      unlisted?.map((path) => ({ path, text: () => decoder.decode(this.#tree.read(path)) })) ??
      this.#searchableFiles()
        .filter((path) => scope === "/" || path === scope || path.startsWith(`${scope}/`))
        .map((path) => ({ path, text: () => this.#text(path) }));
    const searched = searchContent(files, request);
    return searched.then((matches) =>
      encoder.encode(`${matches.map((match) => JSON.stringify(match)).join("\n")}${matches.length > 0 ? "\n" : ""}\n`),
    );
  }

  /** Every regular file, sorted by path, as AFI orders exact and regex matches. */
  #searchableFiles(): string[] {
    if (this.#sortedFiles === undefined) {
      const files = [...walkTree(this.#tree)]
        .filter(({ entry }) => entry.kind === "file" && !entry.writable)
        .map(({ path }) => path);
      this.#sortedFiles = files.sort(compareCodeUnits);
    }
    return this.#sortedFiles;
  }
}
