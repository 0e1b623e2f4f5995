import { operationTypescript } from "../describe/declaration-text.js";
import { SearchIndex } from "../search/search-index.js";
import { sha256Hex } from "./canonical-json.js";
import { type PreparedOperation, searchDocumentOf } from "./prepared-operation.js";
import type { OperationDescription } from "./types.js";

/** Everything a catalog prepares at creation; views read it and never change it. */
export interface CatalogCore {
  /** In list order. A document number everywhere below is an index into this array. */
  readonly operations: readonly PreparedOperation[];
  readonly stamp: string;
  readonly byPath: ReadonlyMap<string, number>;
  /** Built on first use: the same index whenever it is built, as the operations never change. */
  readonly index: SearchIndex;
  /** Per document, the documents equivalent to it (itself included), in list order. */
  readonly equivalents: readonly (readonly number[])[];
  /** Per document, a digest of its path and metadata: a narrowed view's stamp digests the visible ones. */
  readonly digests: readonly string[];
}

/**
 * Builds the equivalence groups (the search index on first use) of
 * sorted operations. `metadata[doc]` is the metadata text of
 * operation `doc`: equal texts mean equivalent operations.
 */
export function buildCatalogCore(
  operations: readonly PreparedOperation[],
  stamp: string,
  metadata: readonly string[],
): CatalogCore {
  const groups = new Map<string, number[]>();
  const equivalents = operations.map((_operation, doc) => {
    const key = metadata[doc] as string;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = []));
    group.push(doc);
    return group;
  });
  let index: SearchIndex | undefined;
  return {
    operations,
    stamp,
    byPath: new Map(operations.map((operation, doc) => [operation.path, doc])),
    get index() {
      index ??= SearchIndex.build(operations.map(searchDocumentOf));
      return index;
    },
    equivalents,
    digests: operations.map((operation, doc) => sha256Hex(`${operation.path}\u0000${metadata[doc] as string}`)),
  };
}

/**
 * The description of one operation, made for each call rather than kept: its TypeScript is
 * rendered when first read (creation checked that it fits the response bound), so a caller
 * that wants only the schemas, as a mount's `.json` file and index lines do, never renders it.
 */
export function describeOperation(operation: PreparedOperation, catalogStamp: string): OperationDescription {
  let typescript: string | undefined;
  return Object.freeze({
    kind: "operation",
    path: operation.path,
    description: operation.description,
    capabilities: operation.capabilities,
    instructions: operation.instructions ?? null,
    sample: operation.sample,
    inputSchema: operation.inputSchema,
    outputSchema: operation.outputSchema ?? null,
    get typescript() {
      typescript ??= operationTypescript(operation);
      return typescript;
    },
    catalogStamp,
  });
}
