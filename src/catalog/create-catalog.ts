import { ForageError } from "../forage-error.js";
import { MAX_CATALOG_METADATA, MAX_OPERATIONS } from "./bounds.js";
import { canonicalJson, sha256Hex } from "./canonical-json.js";
import { buildCatalogCore, type CatalogCore } from "./catalog-core.js";
import { CatalogView, forageOf } from "./catalog-view.js";
import { compareOperationPaths } from "./operation-path.js";
import { prepareOperation, type PreparedOperation } from "./prepared-operation.js";
import type { Catalog, CatalogDefinition } from "./types.js";

/** The prepared core behind each catalog, kept off the public object so it stays a plain frozen surface. */
const cores = new WeakMap<Catalog, CatalogCore>();

/** The prepared core of a catalog made by createCatalog; throws for anything else. */
export function coreOf(catalog: Catalog): CatalogCore {
  const core = cores.get(catalog);
  if (core === undefined) throw new ForageError("invalid_argument", "not a catalog made by createCatalog");
  return core;
}

/** Validates, orders and stamps a catalog, and prepares every description once. */
export function createCatalog(definition: CatalogDefinition): Catalog {
  const revision = checkedRevision(definition);
  const operations = prepareAll(definition.operations);
  const core = buildCatalogCore(operations, stampOf(operations));
  const view = forageOf(new CatalogView(core, operations.map((_operation, doc) => doc), "all"));
  const catalog: Catalog = Object.freeze({ ...view, revision, size: operations.length, stamp: () => core.stamp });
  cores.set(catalog, core);
  return catalog;
}

function checkedRevision(definition: CatalogDefinition): string {
  if (definition === null || typeof definition !== "object") throw new ForageError("invalid_catalog", "the catalog definition is not an object");
  const { revision } = definition;
  if (typeof revision !== "string" || revision.length === 0 || revision.length > 256) {
    throw new ForageError("invalid_catalog", "revision must be a non-empty string of at most 256 characters");
  }
  return revision;
}

function prepareAll(definitions: unknown): PreparedOperation[] {
  if (!Array.isArray(definitions)) throw new ForageError("invalid_catalog", "operations must be an array");
  if (definitions.length > MAX_OPERATIONS) {
    throw new ForageError("invalid_catalog", `${definitions.length} operations, over the bound of ${MAX_OPERATIONS}`);
  }
  const seen = new Set<string>();
  let metadata = 0;
  const prepared = definitions.map((definition, index) => {
    const operation = prepareOperation(definition, index);
    if (seen.has(operation.path)) {
      throw new ForageError("invalid_catalog", `operation ${JSON.stringify(operation.path)}: duplicate path`, { path: operation.path });
    }
    seen.add(operation.path);
    metadata += operation.metadataSize;
    if (metadata > MAX_CATALOG_METADATA) {
      throw new ForageError(
        "invalid_catalog",
        `aggregate metadata passes the catalog bound of ${MAX_CATALOG_METADATA} characters at operation ${JSON.stringify(operation.path)}`,
        { path: operation.path },
      );
    }
    return operation;
  });
  return prepared.sort((a, b) => compareOperationPaths(a.path, b.path));
}

/** Content identity: a digest of the sorted operations' metadata, paths and schema projections included. */
function stampOf(operations: readonly PreparedOperation[]): string {
  const entries = operations.map((operation) => `${operation.path}\u0000${operation.equivalenceKey}`);
  return `sha256:${sha256Hex(canonicalJson(entries))}`;
}
