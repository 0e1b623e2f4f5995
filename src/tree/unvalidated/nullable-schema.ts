import { SINGLE_SUBSCHEMAS, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS } from "../../json-schema/subschema-keywords.js";
import type { JsonSchema, JsonValue } from "../../json-value.js";

/**
 * A source schema with OpenAPI 3.0's `nullable: true` spelled as JSON Schema says it (a `null`
 * type, or `anyOf` with `{ type: "null" }` when no type is named), so that a not-validated
 * operation's declaration admits the null its source allows. Only for the `.d.ts`: the `.json`
 * keeps the source's own spelling. A schema without `nullable` comes back as it is.
 */
export function withNullTypes(schema: JsonSchema): JsonSchema {
  return (JSON.stringify(schema).includes('"nullable"') ? rewrite(schema) : schema) as JsonSchema;
}

function rewrite(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "nullable") continue;
    if (SUBSCHEMA_MAPS.has(key) && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, rewrite(child)]));
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(rewrite);
    else out[key] = SINGLE_SUBSCHEMAS.has(key) ? rewrite(value) : value;
  }
  if (schema.nullable !== true) return out;
  if (typeof out.type === "string") return { ...out, type: [out.type, "null"] };
  if (Array.isArray(out.type)) return out.type.includes("null") ? out : { ...out, type: [...out.type, "null"] };
  // The description stays beside the union, where a property's JSDoc reads it.
  const { description, ...rest } = out;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: "null" }] };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
