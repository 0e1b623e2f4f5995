/**
 * The splitter's own bounds (docs/intake.md, "Splitting a large spec"). They are wider than
 * intake's (src/openapi/limits.ts), which every part must still meet, and each is checked
 * before the work it guards: the bytes before parsing, the nesting before JSON.parse builds
 * anything, the values and operations before any part is built.
 */

/** Largest spec text the splitter reads, in UTF-8 bytes (GitHub's REST spec is about 13 MB). */
export const MAX_SPLIT_BYTES = 64 * 1024 * 1024;

/**
 * Largest YAML spec text the splitter reads. YAML's parser costs about ten times JSON's per
 * byte and builds a syntax tree first, so large specs are read as JSON.
 */
export const MAX_SPLIT_YAML_BYTES = 8 * 1024 * 1024;

/** Deepest nesting of the whole spec; every part must still nest within intake's 32. */
export const MAX_SPLIT_DEPTH = 64;

/** Most JSON values in the whole parsed spec (GitHub's REST spec has about 1.1 million). */
export const MAX_SPLIT_NODES = 8_000_000;

/** Most operations (method + path pairs) the whole spec may declare. */
export const MAX_SPLIT_OPERATIONS = 20_000;

/**
 * Most units of work one split may take, counted in steps (a value visited while counting,
 * building or measuring a part), never in wall-clock time, so a split that would run away is
 * refused at the same point on any machine. Splitting GitHub's REST spec (13 MB) takes about 1 million.
 */
export const MAX_SPLIT_STEPS = 50_000_000;
