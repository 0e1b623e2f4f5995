/**
 * Intake bounds. Every one is checked before reference resolution or schema
 * compilation, so a hostile spec costs time linear in the bytes it may have.
 */

/** Largest spec text, in UTF-8 bytes. */
export const MAX_SPEC_BYTES = 2 * 1024 * 1024;

/** Deepest nesting of objects and arrays in the parsed spec (the root object is depth 1). */
export const MAX_SPEC_DEPTH = 32;

/** Most JSON values (objects, arrays and scalars; not keys) in the parsed spec. */
export const MAX_SPEC_NODES = 50_000;

/**
 * Most lexical tokens (scalars, indicators, indentation, comments, line
 * breaks) a YAML spec may have. YAML's parser costs microseconds per token
 * even for comments and blank lines, which carry no values, so the node limit
 * alone would let 2 MiB of them cost seconds. A spec at the node limit has
 * about 400,000 tokens; the largest YAML spec in the test corpus, 69,000.
 */
export const MAX_YAML_TOKENS = 500_000;

/** Most operations (method + path pairs) a spec may declare. */
export const MAX_SPEC_OPERATIONS = 500;

/**
 * Most nodes the spec may expand to when every `$ref` occurrence is counted as
 * a copy of its target. References are shared objects after dereferencing, but
 * each occurrence is decoded and compiled on its own, so a small spec whose
 * references fan out would otherwise cost millions of nodes. Compiling costs
 * tens of microseconds per node, so this also bounds the whole intake's time.
 * The same figure as the compiler's own budget; the largest real spec in the
 * test corpus (star-trek, 497 KB) expands to about 72,000.
 */
export const MAX_EXPANDED_NODES = 100_000;

/** Deepest nesting once every `$ref` is inlined; keeps every later walk shallow. */
export const MAX_EXPANDED_DEPTH = 128;

/** Longest description or string annotation, in UTF-16 code units. */
export const MAX_DESCRIPTION_LENGTH = 2_048;

/** Longest title or summary, in UTF-16 code units. */
export const MAX_TITLE_LENGTH = 200;

/** Most tags kept per operation. */
export const MAX_TAGS = 16;

/** Longest tag, in UTF-16 code units. */
export const MAX_TAG_LENGTH = 64;

/** Largest non-string annotation value (default, example, examples), as JSON text. */
export const MAX_ANNOTATION_JSON_LENGTH = 2_048;

/** Longest generated method name. */
export const MAX_METHOD_NAME_LENGTH = 64;

/** Fewest and most methods in one selected table. */
export const MIN_TABLE_METHODS = 1;
export const MAX_TABLE_METHODS = 64;

/** Largest selected table, as canonical JSON in UTF-8 bytes. */
export const MAX_TABLE_BYTES = 512 * 1024;
