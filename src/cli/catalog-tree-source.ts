import { createCatalogReportSteps } from "../catalog/catalog-report.js";
import { createCatalog, createCatalogSteps } from "../catalog/create-catalog.js";
import { createForage } from "../catalog/create-forage.js";
import type { Catalog, Forage } from "../catalog/types.js";
import { runToEnd, type Steps } from "../slices.js";
import { type LoadedCatalog, type LoadOptions, loadCatalog } from "../sources/load-catalog.js";
import type { SourceSpec } from "../sources/source-spec.js";
import { catalogTreeSteps } from "../tree/catalog-tree.js";
import type { SourceInfo } from "../tree/source-info.js";
import type { VirtualTree } from "../tree/virtual-tree.js";
import { CliError } from "./cli-error.js";
import type { MountArguments } from "./mount-arguments.js";
import { packageVersion } from "./package-version.js";
import { sourceNotes } from "./source-notes.js";

/** A loaded revision: its catalog and the tree that shows it. */
export interface LoadedRevision {
  readonly catalog: Catalog;
  /** The view the tree shows: the catalog, or its bound= narrowing. */
  readonly forage: Forage;
  readonly tree: VirtualTree;
  readonly operationCount: number;
  /** Operations the tree shows not validated, from their sources' own schemas (docs/mount.md, "Not validated operations"). */
  readonly unvalidatedCount: number;
}

/** Which kind of tree to build: a mount answers queries; an export is plain files and offers no search (profile 1). */
export type TreeTarget = "mount" | "export";

/** What shapes one view's tree: bound= (or a token's patterns), subtree=, ro, and whether a token chose it. */
export type ViewArguments = Pick<MountArguments, "bound" | "subtree" | "readOnly"> & {
  /** Where `bound` came from, for the message when it selects nothing; "bound=" by default. */
  readonly boundOrigin?: string;
  /** A bearer token chose this view (`--tokens`): the manifest says auth is required. */
  readonly authRequired?: boolean;
};

/**
 * How a revision's long steps (the catalog, the tree) run: at once (runToEnd, the default), or
 * in slices between a mount's requests (runInSlices, for a --watch reload).
 */
export type StepRunner = <T>(steps: Steps<T>) => T | Promise<T>;

/** Loads the sources and builds the tree, narrowed by bound= and rooted at subtree= when given. */
export async function loadRevision(
  args: Pick<MountArguments, "sources" | "example"> & ViewArguments,
  target: TreeTarget = "mount",
  run: StepRunner = runToEnd,
): Promise<LoadedRevision> {
  const loaded = await loadSourcesCatalog(args.sources, args.example, {
    make: (definition) => run(createCatalogSteps(definition)),
    report: (definition) => run(createCatalogReportSteps(definition)),
  });
  return run(viewRevisionSteps(loaded, args, target));
}

/**
 * One catalog from the sources, or the built-in example; what each source left out is said on
 * stderr, pointing at the file of the mount that lists it.
 */
export async function loadSourcesCatalog(
  sources: readonly SourceSpec[],
  example: boolean,
  build: Pick<LoadOptions, "make" | "report"> = {},
): Promise<LoadedCatalog> {
  if (example) {
    const { exampleOperations } = await import("../example/example-operations.js");
    const definition = { revision: "example.1", operations: exampleOperations };
    return { catalog: await (build.make ?? createCatalog)(definition), sources: [] };
  }
  const loaded = await loadCatalog(sources, {
    ...build,
    client: { name: "forage", version: packageVersion() },
    note: (line) => process.stderr.write(`forage: ${line}\n`),
  });
  for (const line of sourceNotes(loaded.sources)) process.stderr.write(`forage: ${line}\n`);
  return loaded;
}

/** The tree of one view of a loaded catalog; several views (one per token) share one load. */
export function viewRevision(loaded: LoadedCatalog, args: ViewArguments, target: TreeTarget = "mount"): LoadedRevision {
  return runToEnd(viewRevisionSteps(loaded, args, target));
}

function* viewRevisionSteps(
  { catalog, sources }: LoadedCatalog,
  args: ViewArguments,
  target: TreeTarget,
): Steps<LoadedRevision> {
  const forage = args.bound === undefined ? catalog : createForage(catalog, { bound: args.bound });
  const { total: operationCount, catalogStamp } = forage.list({ namespace: args.subtree, limit: 1 });
  if (args.bound !== undefined && operationCount === 0) {
    throw new CliError(
      `${args.boundOrigin ?? "bound="} selects no operation of this catalog: check its patterns (a.b.c, a.b.*, a.**)`,
    );
  }
  // A bound view has its own stamp, so the mount never shows a change to an operation it hides.
  const tree = yield* catalogTreeSteps(forage, {
    revision: catalog.revision,
    stamp: catalogStamp,
    providerVersion: packageVersion(),
    subtree: args.subtree,
    searchControl: target === "mount" && !args.readOnly,
    rankedSearchDirectory: target === "mount",
    authRequired: args.authRequired ?? false,
    // A bound view shows bound operations only: what its sources left out is not for it to see.
    sources: args.bound === undefined ? sources : [],
  });
  const shownSources = args.bound === undefined ? sources : [];
  return { catalog, forage, tree, operationCount, unvalidatedCount: unvalidatedBelow(shownSources, args.subtree) };
}

/** How many not-validated operations the sources show at or below `subtree` (all of them without one). */
function unvalidatedBelow(sources: readonly SourceInfo[], subtree: string | undefined): number {
  const within = (path: string): boolean => subtree === undefined || path === subtree || path.startsWith(`${subtree}.`);
  return sources.reduce(
    (total, info) =>
      total + (info.unvalidated ?? []).filter(({ segment }) => within(`${info.namespace}.${segment}`)).length,
    0,
  );
}
