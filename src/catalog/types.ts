import type { ForageValidator } from "../describe/schema-projection.js";
import type { JsonSchema } from "../json-value.js";

/** One operation as a host registers it. */
export interface OperationDefinition {
  /** Unique dotted path, e.g. "computers.local.files.read". */
  readonly path: string;
  /** Any Standard Schema validator that also implements Standard JSON Schema (`~standard.jsonSchema`). */
  readonly input: ForageValidator;
  readonly output?: ForageValidator;
  readonly description?: string;
  /** Capability notes: what the operation touches, in a few words each. */
  readonly capabilities?: readonly string[];
  readonly instructions?: string;
}

/** What createCatalog takes. */
export interface CatalogDefinition {
  /** Caller-supplied, opaque revision label. */
  readonly revision: string;
  readonly operations: readonly OperationDefinition[];
}

/** One operation in list and search results; `score` is 0 in list. */
export interface Summary {
  readonly path: string;
  readonly description: string;
  /** A short, valid TypeScript call, e.g. `await env.computers.local.files.read({ path: "…" })`. */
  readonly sample: string;
  readonly capabilities: readonly string[];
  readonly score: number;
  /** Search only: other paths of operations equivalent to this one (identical apart from the path). */
  readonly peers?: readonly string[];
}

export interface ListOptions {
  /** Page size, 1 to 50; default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
  /** Only operations under this namespace, nested ones included. */
  readonly namespace?: string;
}

export interface ListPage {
  readonly results: readonly Summary[];
  /** Every operation under the selected namespace, not just this page. */
  readonly total: number;
  readonly catalogStamp: string;
  readonly nextCursor: string | null;
}

export interface SearchOptions {
  /** Most results, 1 to 50; default 10. */
  readonly limit?: number;
  readonly namespace?: string;
}

export interface SearchResult {
  /** Ranked best first; every score is above 0. */
  readonly results: readonly Summary[];
  readonly catalogStamp: string;
}

export interface DescribeOptions {
  /** Describe only these operations of a namespace, as paths relative to it (e.g. "windows.open"). */
  readonly select?: readonly string[];
}

/** The description of one operation. */
export interface OperationDescription {
  readonly kind: "operation";
  readonly path: string;
  readonly description: string;
  readonly capabilities: readonly string[];
  readonly instructions: string | null;
  readonly sample: string;
  /** Projected from the input validator through Standard JSON Schema (draft 2020-12). */
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | null;
  /** TypeScript declaring `env` with this operation and its input and output types. */
  readonly typescript: string;
  readonly catalogStamp: string;
}

/** The description of a namespace: every operation under it, or the selected ones. */
export interface NamespaceDescription {
  readonly kind: "namespace";
  /** "" for the whole catalog. */
  readonly namespace: string;
  readonly operations: readonly string[];
  readonly typescript: string;
  readonly catalogStamp: string;
}

export type Description = OperationDescription | NamespaceDescription;

/** The discovery surface: the same for a whole catalog and for a host-narrowed view of it. */
export interface Forage {
  list(options?: ListOptions): ListPage;
  search(query: string, options?: SearchOptions): SearchResult;
  describe(pathOrNamespace: string, options?: DescribeOptions): Description;
}

/** An immutable, validated, ordered catalog. */
export interface Catalog extends Forage {
  readonly revision: string;
  /** Content identity of the sorted metadata; the revision label does not change it. */
  stamp(): string;
  /** Number of operations. */
  readonly size: number;
}
