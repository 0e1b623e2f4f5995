/**
 * The hard bounds of a catalog. They are checked when a catalog is created, so
 * every later call works within them. Lengths count UTF-16 code units, the unit
 * JavaScript strings and the TypeScript compiler use.
 */

/** Longest operation description, in characters. */
export const MAX_DESCRIPTION_LENGTH = 4_096;

/** Most capability notes per operation, and the longest note. */
export const MAX_CAPABILITIES = 16;
export const MAX_CAPABILITY_LENGTH = 256;

/** Longest instructions text per operation. */
export const MAX_INSTRUCTIONS_LENGTH = 4_096;

/** Longest dotted path, and most segments in it. */
export const MAX_PATH_LENGTH = 256;
export const MAX_PATH_SEGMENTS = 16;

/** Deepest JSON Schema projection an operation may have. */
export const MAX_SCHEMA_DEPTH = 32;

/**
 * The describe response bound, in characters of TypeScript. Every operation
 * must fit one complete description; a namespace description over it fails
 * with `too_large` instead of being truncated.
 */
export const MAX_DESCRIPTION_RESPONSE = 64 * 1_024;

/** Most operations in one catalog. */
export const MAX_OPERATIONS = 100_000;

/**
 * Aggregate metadata bound: the sum over operations of description, notes,
 * instructions and schema projections, in characters. A typical operation
 * carries under 1,000, so this admits tens of thousands of operations.
 */
export const MAX_CATALOG_METADATA = 64 * 1_024 * 1_024;

/** list() page size: default, minimum and maximum. */
export const DEFAULT_LIST_LIMIT = 50;
export const MIN_LIST_LIMIT = 1;
export const MAX_LIST_LIMIT = 50;

/** search() result count: default and maximum, and the longest query accepted. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;
export const MAX_QUERY_LENGTH = 1_024;
