import { declareEnv } from "../describe/env-declaration.js";
import { ForageError } from "../forage-error.js";
import { SearchIndex } from "../search/search-index.js";
import { sha256Hex } from "./canonical-json.js";
import { deepFreeze } from "./deep-freeze.js";
import { MAX_DESCRIPTION_RESPONSE } from "./limits.js";
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
  readonly descriptions: readonly OperationDescription[];
  /** Per document, a digest of its path and metadata: a narrowed view's stamp digests the visible ones. */
  readonly digests: readonly string[];
}

/**
 * Builds the equivalence groups and operation descriptions (the search index on first use) of
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
    descriptions: operations.map((operation) => describeOperation(operation, stamp)),
    digests: operations.map((operation, doc) => sha256Hex(`${operation.path}\u0000${metadata[doc] as string}`)),
  };
}

/** The header every generated declaration starts with: what it is, and that it grants nothing. */
export function declarationHeader(subject: string): string {
  return `// Forage description of ${subject}.\n// Declarations only: calling env is up to the host, which decides what may run.\n\n`;
}

function describeOperation(operation: PreparedOperation, catalogStamp: string): OperationDescription {
  const typescript = `${declarationHeader(`operation ${operation.path}`)}${operation.declaration.aliases}\n${declareEnv([operation.declaration])}`;
  if (typescript.length > MAX_DESCRIPTION_RESPONSE) {
    throw new ForageError(
      "invalid_catalog",
      `operation ${JSON.stringify(operation.path)}: its description is ${typescript.length} characters, over the response bound of ${MAX_DESCRIPTION_RESPONSE}; every operation must fit one complete description`,
      { path: operation.path },
    );
  }
  return deepFreeze({
    kind: "operation",
    path: operation.path,
    description: operation.description,
    capabilities: operation.capabilities,
    instructions: operation.instructions ?? null,
    sample: operation.sample,
    inputSchema: operation.inputSchema,
    outputSchema: operation.outputSchema ?? null,
    typescript,
    catalogStamp,
  });
}
