/**
 * The one order Forage writes JSON Schema keywords in (docs/describe.md, "One spelling per
 * constraint"): what a schema is, then its members, then its bounds, then its combinators, then
 * annotations, then definitions. The compiler's projection (node-projection.ts) writes its
 * keywords in this order, and describe's normal form (src/describe/projection-normal-form.ts)
 * puts any schema's keywords in it, so a compiled projection is already in order. `example` is
 * here for the projection, which keeps OpenAPI's spelling; the normal form merges it into
 * `examples`, so it never writes it.
 */
export const KEYWORD_ORDER: readonly string[] = Object.freeze([
  "$ref",
  "title",
  "description",
  "type",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "patternProperties",
  "minProperties",
  "maxProperties",
  "prefixItems",
  "items",
  "additionalItems",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "default",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$defs",
  "definitions",
]);

/** Each keyword's place in KEYWORD_ORDER; a keyword not listed has none. */
export const KEYWORD_RANK: ReadonlyMap<string, number> = new Map(
  KEYWORD_ORDER.map((keyword, index) => [keyword, index]),
);
