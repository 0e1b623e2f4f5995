import { createHash } from "node:crypto";
import { ForageError } from "../forage-error.js";
import { runToEnd, type Steps } from "../slices.js";
import { type CatalogCore, catalogCoreSteps } from "./catalog-core.js";
import { CatalogView, forageOf, registerView } from "./catalog-view.js";
import { MAX_CATALOG_METADATA, MAX_OPERATIONS } from "./limits.js";
import { compareCodeUnits } from "./operation-path.js";
import { type PreparedEntry, prepareOperation } from "./prepared-operation.js";
import { ProjectionCache } from "./projection-cache.js";
import type { Catalog, CatalogDefinition, OperationDefinition } from "./types.js";

/** The prepared core behind each catalog, kept off the public object so it stays a plain frozen surface. */
const cores = new WeakMap<Catalog, CatalogCore>();

/** The prepared core of a catalog made by createCatalog; throws for anything else. */
export function coreOf(catalog: Catalog): CatalogCore {
  const core = cores.get(catalog);
  if (core === undefined) {
    throw new ForageError(
      "invalid_argument",
      "not a catalog made by this copy of createCatalog (a second copy of the package?); pass its operations to createCatalog here instead",
    );
  }
  return core;
}

/** Validates, orders and stamps a catalog, measuring every description against its bound. */
export function createCatalog(definition: CatalogDefinition): Catalog {
  return runToEnd(createCatalogSteps(definition));
}

/**
 * Operations prepared per step: with a step per operation, resuming the generators cost more than
 * a small operation's work in cold code; eight still take well under a slice.
 */
const PREPARED_PER_STEP = 8;

/**
 * createCatalog as steps (src/slices.ts): it yields after every few operations it prepares, each
 * chunk it stamps and every few hundred operations it indexes by path, so that a caller that serves requests meanwhile (a mount's reload) may run it
 * in slices. The same work, errors and result as createCatalog. `prepare` is prepareOperation, or one that
 * sets a refused operation aside instead of throwing (createCatalogReport, src/catalog/catalog-report.ts).
 */
export function* createCatalogSteps(
  definition: CatalogDefinition,
  prepare: PrepareOperation = prepareOperation,
): Steps<Catalog> {
  const revision = checkedRevision(definition);
  const entries = yield* prepareAll(definition.operations, prepare);
  yield;
  const operations = entries.map((entry) => entry.operation);
  const stamp = yield* stampOf(entries);
  const core = yield* catalogCoreSteps(operations, stamp);
  const view = new CatalogView(
    core,
    operations.map((_operation, doc) => doc),
    "all",
  );
  const catalog: Catalog = Object.freeze({
    ...forageOf(view),
    revision,
    size: operations.length,
    stamp: () => core.stamp,
  });
  registerView(catalog, view);
  cores.set(catalog, core);
  return catalog;
}

function checkedRevision(definition: CatalogDefinition): string {
  if (definition === null || typeof definition !== "object")
    throw new ForageError("invalid_catalog", "the catalog definition is not an object");
  const { revision } = definition;
  if (typeof revision !== "string" || revision.length === 0 || revision.length > 256) {
    throw new ForageError("invalid_catalog", "revision must be a non-empty string of at most 256 characters");
  }
  return revision;
}

/** Prepares one definition: its entry, or undefined for one set aside; throws `invalid_catalog` otherwise. */
export type PrepareOperation = (
  definition: OperationDefinition,
  index: number,
  projections: ProjectionCache,
) => PreparedEntry | undefined;

function* prepareAll(definitions: unknown, prepare: PrepareOperation): Steps<PreparedEntry[]> {
  if (!Array.isArray(definitions)) throw new ForageError("invalid_catalog", "operations must be an array");
  if (definitions.length > MAX_OPERATIONS) {
    throw new ForageError("invalid_catalog", `${definitions.length} operations, over the bound of ${MAX_OPERATIONS}`);
  }
  const seen = new Set<string>();
  const projections = new ProjectionCache();
  let metadata = 0;
  const prepared: PreparedEntry[] = [];
  for (const [index, definition] of definitions.entries()) {
    const entry = prepare(definition, index, projections);
    if (entry === undefined) continue;
    const { operation } = entry;
    if (seen.has(operation.path)) {
      throw new ForageError("invalid_catalog", `operation ${JSON.stringify(operation.path)}: duplicate path`, {
        path: operation.path,
      });
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
    prepared.push(entry);
    if (prepared.length % PREPARED_PER_STEP === 0) yield;
  }
  // List order: by namespace (the first segment), then by full path, by UTF-16 code units; each namespace is computed once, not per comparison.
  return prepared.sort(
    (a, b) =>
      compareCodeUnits(a.operation.namespace, b.operation.namespace) ||
      compareCodeUnits(a.operation.path, b.operation.path),
  );
}

/** Bytes of UTF-8 hashed per update at most, and per step of stampOf. */
const STAMP_BLOCK_BYTES = 256 * 1024;
/**
 * UTF-8 bytes one UTF-16 code unit can take, at most: 3 for a character from U+0800 and for a lone
 * surrogate (written as U+FFFD); a surrogate pair is 4 bytes for 2 units.
 */
const UTF8_BYTES_PER_UNIT = 3;

/**
 * Content identity: SHA-256 over the sorted operations, each as its path, NUL,
 * its metadata text (schema projections included) and a newline. Paths
 * and JSON text hold neither NUL nor a raw newline, so the framing is
 * unambiguous.
 */
function* stampOf(entries: readonly PreparedEntry[]): Steps<string> {
  const digest = createHash("sha256");
  // Each entry's UTF-8 is written into one block, hashed when full: 2.5 times faster on a first run
  // than hashing strings joined in 64 KiB chunks (which V8 flattens, then Node encodes: 190 against
  // 75 ms over 20,005 real tools' 35 M characters), and one update per entry costs more in calls.
  const block = new Uint8Array(STAMP_BLOCK_BYTES);
  const encoder = new TextEncoder();
  let used = 0;
  for (const entry of entries) {
    const text = `${entry.operation.path}\u0000${entry.metadata}\n`;
    const room = text.length * UTF8_BYTES_PER_UNIT;
    if (used + room > block.length) {
      digest.update(block.subarray(0, used));
      used = 0;
      yield;
    }
    // An entry larger than a block is hashed on its own; the describe bound (64 Ki characters per
    // operation) keeps metadata under that today, but the stamp does not depend on it.
    if (room > block.length) digest.update(text);
    else used += encoder.encodeInto(text, block.subarray(used)).written;
  }
  return `sha256:${digest.update(block.subarray(0, used)).digest("hex")}`;
}
