import { ForageError } from "../forage-error.js";
import { runToEnd, type Steps } from "../slices.js";
import { createCatalogSteps } from "./create-catalog.js";
import { prepareOperation } from "./prepared-operation.js";
import type { Catalog, CatalogDefinition } from "./types.js";

/** An operation the catalog refuses on its own, and why: what createCatalog would have thrown for it. */
export interface OperationRefusal {
  /** Its index in the definition's `operations`. */
  readonly index: number;
  /** The `invalid_catalog` error naming it (`details.path` carries its path when it has one). */
  readonly error: ForageError;
}

/** A catalog of every operation the catalog holds on its own, and each one it refused, in definition order. */
export interface CatalogReport {
  readonly catalog: Catalog;
  readonly refused: readonly OperationRefusal[];
}

/**
 * createCatalog in one pass that sets aside, rather than throws for, each operation refused on its own
 * (docs/catalog.md, "Every refusal in one pass"): a path, a text, a projection or a description over its
 * bound. What concerns the whole definition still throws as createCatalog does: a malformed revision,
 * too many operations, a duplicate path (two operations, neither refused alone), aggregate metadata
 * past its bound. The catalog is exactly createCatalog's over the operations it holds.
 */
export function createCatalogReport(definition: CatalogDefinition): CatalogReport {
  return runToEnd(createCatalogReportSteps(definition));
}

/** createCatalogReport as steps, for a caller that runs creation in slices (src/slices.ts). */
export function* createCatalogReportSteps(definition: CatalogDefinition): Steps<CatalogReport> {
  const refused: OperationRefusal[] = [];
  const catalog = yield* createCatalogSteps(definition, (operation, index, projections) => {
    try {
      return prepareOperation(operation, index, projections);
    } catch (error) {
      if (!(error instanceof ForageError) || error.code !== "invalid_catalog") throw error;
      refused.push({ index, error });
      return undefined;
    }
  });
  return { catalog, refused };
}
