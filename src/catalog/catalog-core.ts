import { operationTypescript } from "../describe/declaration-text.js";
import { SearchIndex } from "../search/search-index.js";
import { type Steps, StepsOnce } from "../slices.js";
import { sha256Hex } from "./canonical-json.js";
import { metadataTextMaker, metadataTexts, type PreparedOperation, searchDocumentOf } from "./prepared-operation.js";
import type { OperationDescription } from "./types.js";

/** Everything a catalog prepares at creation; views read it and never change it. */
export interface CatalogCore {
  /** In list order. A document number everywhere below is an index into this array. */
  readonly operations: readonly PreparedOperation[];
  readonly stamp: string;
  readonly byPath: ReadonlyMap<string, number>;
  /**
   * Built on first use, or beforehand in steps (CatalogView.searchSteps), as is the one below: the same
   * whenever it is built, as the operations never change.
   */
  readonly index: StepsOnce<SearchIndex>;
  /** Per document, the documents equivalent to it (same metadata text, itself included), in list order. */
  readonly equivalents: StepsOnce<readonly (readonly number[])[]>;
  /** Per document, a digest of its path and metadata: a narrowed view's stamp digests the visible ones. */
  readonly digests: readonly string[];
}

/**
 * Operations indexed by path per step: a map entry is so cheap that a step per operation cost
 * more in resuming the generators than in work.
 */
const INDEXED_PER_STEP = 256;

/**
 * The core of sorted operations, as steps (src/slices.ts) that yield after every INDEXED_PER_STEP
 * operations they index by path: a reload that makes a large catalog between a mount's requests never holds the
 * event loop for the whole map. The search index, the equivalence groups and the
 * digests are made on first use, or the first two in steps beforehand (a mount builds
 * them between its requests once it serves), from the operations alone, so they are the
 * same whenever they are made: a catalog that is only listed and described never pays for them.
 */
export function* catalogCoreSteps(operations: readonly PreparedOperation[], stamp: string): Steps<CatalogCore> {
  const byPath = new Map<string, number>();
  for (const [doc, operation] of operations.entries()) {
    byPath.set(operation.path, doc);
    if (doc % INDEXED_PER_STEP === INDEXED_PER_STEP - 1) yield;
  }
  let digests: readonly string[] | undefined;
  return {
    operations,
    stamp,
    byPath,
    index: new StepsOnce(() => searchIndexSteps(operations)),
    equivalents: new StepsOnce(() => equivalenceGroupsSteps(operations)),
    get digests() {
      digests ??= metadataTexts(operations).map((text, doc) =>
        sha256Hex(`${(operations[doc] as PreparedOperation).path}\u0000${text}`),
      );
      return digests;
    },
  };
}

/** Operations read per step while search's structures are built: too little work each to yield after every one. */
const SEARCH_PREPARED_PER_STEP = 128;

/** The search index of `operations`, as steps. */
export function* searchIndexSteps(operations: readonly PreparedOperation[]): Steps<SearchIndex> {
  const documents = [];
  for (const operation of operations) {
    documents.push(searchDocumentOf(operation));
    if (documents.length % SEARCH_PREPARED_PER_STEP === 0) yield;
  }
  return yield* SearchIndex.buildSteps(documents);
}

/** Per document, the documents whose metadata text equals its own (itself included), in list order; as steps. */
function* equivalenceGroupsSteps(operations: readonly PreparedOperation[]): Steps<number[][]> {
  const groups = new Map<string, number[]>();
  const textOf = metadataTextMaker();
  const byDoc: number[][] = [];
  for (const [doc, operation] of operations.entries()) {
    const key = textOf(operation);
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = []));
    group.push(doc);
    byDoc.push(group);
    if (doc % SEARCH_PREPARED_PER_STEP === SEARCH_PREPARED_PER_STEP - 1) yield;
  }
  return byDoc;
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
