/**
 * The JSON Schema keywords whose values hold subschemas, for any walk that must know
 * whether it stands on a schema or on data (a `$ref` pointer walk, a bounded copy).
 */

/** Keywords whose value is a map of names to subschemas. */
export const SUBSCHEMA_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/** Keywords whose value, when an array, is a list of subschemas (`items` in its tuple form too). */
export const SUBSCHEMA_LISTS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);

/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMAS: ReadonlySet<string> = new Set([
  "items",
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
