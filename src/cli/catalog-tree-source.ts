import { createForage } from "../catalog/create-forage.js";
import type { Catalog } from "../catalog/types.js";
import { createCatalogTree } from "../tree/catalog-tree.js";
import type { VirtualTree } from "../tree/virtual-tree.js";
import { loadCatalog } from "./catalog-source.js";
import type { MountArguments } from "./mount-arguments.js";
import { packageVersion } from "./package-version.js";

/** A loaded revision: its catalog and the tree that shows it. */
export interface LoadedRevision {
  readonly catalog: Catalog;
  readonly tree: VirtualTree;
  readonly operationCount: number;
}

/** Loads the sources and builds the tree, narrowed by bound= and rooted at subtree= when given. */
export async function loadRevision(args: MountArguments): Promise<LoadedRevision> {
  const catalog = await loadCatalog(args.sources, args.example);
  const forage = args.bound === undefined ? catalog : createForage(catalog, { bound: args.bound });
  const tree = createCatalogTree(forage, { revision: catalog.revision, stamp: catalog.stamp(), providerVersion: packageVersion(), subtree: args.subtree });
  const operationCount = forage.list({ namespace: args.subtree, limit: 1 }).total;
  return { catalog, tree, operationCount };
}
