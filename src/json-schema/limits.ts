/**
 * Bounds checked before any compilation work. They protect hosts that compile
 * schemas written by third parties (OpenAPI specs, App listings).
 */

/** Deepest JSON nesting (objects and arrays) a schema document may have. */
export const MAX_DOCUMENT_DEPTH = 64;

/** Most JSON values (every object, array and scalar) a schema document may hold. */
export const MAX_DOCUMENT_NODES = 50_000;

/**
 * Most schema nodes the document may expand to once every `$ref` is inlined.
 * Compilation shares one validator per location, so it stays cheap, but a
 * validator's work per instance grows with the expanded size: this stops a
 * small document whose references fan out (a "ref bomb").
 */
export const MAX_EXPANDED_NODES = 100_000;

/** Deepest schema nesting once every `$ref` is inlined; keeps validation recursion shallow. */
export const MAX_EXPANDED_DEPTH = 64;
