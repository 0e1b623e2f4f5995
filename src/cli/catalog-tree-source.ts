import { createForage } from "../catalog/create-forage.js";
import type { Catalog, Forage } from "../catalog/types.js";
import { createCatalogTree } from "../tree/catalog-tree.js";
import type { VirtualTree } from "../tree/virtual-tree.js";
import { loadCatalog } from "./catalog-source.js";
import { CliError } from "./cli-error.js";
import type { MountArguments } from "./mount-arguments.js";
import { packageVersion } from "./package-version.js";

/** A loaded revision: its catalog and the tree that shows it. */
export interface LoadedRevision {
  readonly catalog: Catalog;
  /** The view the tree shows: the catalog, or its bound= narrowing. */
  readonly forage: Forage;
  readonly tree: VirtualTree;
  readonly operationCount: number;
}

/** Which kind of tree to build: a mount answers queries; an export is plain files and offers no search (profile 1). */
export type TreeTarget = "mount" | "export";

/** Loads the sources and builds the tree, narrowed by bound= and rooted at subtree= when given. */
export async function loadRevision(
  args: Pick<MountArguments, "sources" | "example" | "bound" | "subtree" | "readOnly">,
  target: TreeTarget = "mount",
): Promise<LoadedRevision> {
  const { catalog, sources } = await loadCatalog(args.sources, args.example);
  const forage = args.bound === undefined ? catalog : createForage(catalog, { bound: args.bound });
  const { total: operationCount, catalogStamp } = forage.list({ namespace: args.subtree, limit: 1 });
  if (args.bound !== undefined && operationCount === 0) {
    throw new CliError(
      "bound= selects no operation of this catalog: check its patterns (one per line: a.b.c, a.b.*, a.**)",
    );
  }
  // A bound view has its own stamp, so the mount never shows a change to an operation it hides.
  const tree = createCatalogTree(forage, {
    revision: catalog.revision,
    stamp: catalogStamp,
    providerVersion: packageVersion(),
    subtree: args.subtree,
    searchControl: target === "mount" && !args.readOnly,
    rankedSearchDirectory: target === "mount",
    // A bound view shows bound operations only: what its sources left out is not for it to see.
    sources: args.bound === undefined ? sources : [],
  });
  return { catalog, forage, tree, operationCount };
}
