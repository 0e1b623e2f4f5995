import { KEYWORD_RANK } from "../json-schema/keyword-order.js";
import { SINGLE_SUBSCHEMAS, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS } from "../json-schema/subschema-keywords.js";
import type { JsonSchema, JsonValue } from "../json-value.js";

type SchemaObject = { readonly [keyword: string]: JsonValue };

/**
 * A projection in Forage's normal form, the same constraint spelled one way,
 * so that readers meet one spelling and compiling a projection back gives it
 * again (docs/describe.md, "One spelling per constraint"):
 * - a schema that accepts nothing is `false` (zod writes `{"not": {}}`);
 * - `additionalProperties` that accepts anything, `propertyNames: {"type": "string"}`
 *   (every JSON key is a string), empty `properties` and empty `required` are left out;
 * - OpenAPI's `example` becomes an entry of `examples`, its draft 2020-12 spelling;
 * - keywords come in one fixed order (src/json-schema/keyword-order.ts); property and definition names keep theirs.
 * Values of `const`, `enum`, `default` and `examples` are data and stay as they are.
 * Returns `schema` itself when it is already in normal form.
 */
export function normalizeProjection(schema: JsonSchema): JsonSchema {
  return normalizeSchema(schema) as JsonSchema;
}

/** True when a projected schema accepts nothing: `false`, or `{"not": {}}` / `{"not": true}` as zod writes it. */
export function isFalseSchema(schema: JsonValue | undefined): boolean {
  if (schema === false) return true;
  if (!isSchemaObject(schema)) return false;
  const keywords = Object.keys(schema);
  return keywords.length === 1 && keywords[0] === "not" && isTrueSchema(schema.not);
}

/** True when a schema accepts anything: `true` or `{}`. */
function isTrueSchema(schema: JsonValue | undefined): boolean {
  return schema === true || (isSchemaObject(schema) && Object.keys(schema).length === 0);
}

function normalizeSchema(schema: JsonValue): JsonValue {
  if (!isSchemaObject(schema)) return schema;
  if (isFalseSchema(schema)) return false;
  const entries: [string, JsonValue][] = [];
  let changed = false;
  for (const [keyword, value] of Object.entries(schema)) {
    const normal = normalizeKeyword(keyword, value);
    if (normal !== value) changed = true;
    if (normal === undefined) continue;
    entries.push([keyword, normal]);
  }
  const example = exampleMerged(schema);
  if (example !== undefined) {
    changed = true;
    const at = entries.findIndex(([keyword]) => keyword === "examples");
    if (at === -1) entries.push(["examples", example]);
    else entries[at] = ["examples", example];
  }
  const ordered = entries
    .map((entry, index) => ({ entry, rank: KEYWORD_RANK.get(entry[0]) ?? KEYWORD_RANK.size + index }))
    .sort((a, b) => a.rank - b.rank);
  if (ordered.some(({ entry }, index) => entry !== entries[index])) changed = true;
  return changed ? Object.fromEntries(ordered.map(({ entry }) => entry)) : schema;
}

/** The keyword's value in normal form, or undefined when the keyword is left out. */
function normalizeKeyword(keyword: string, value: JsonValue): JsonValue | undefined {
  if (keyword === "example") return undefined;
  if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) return normalizeList(value);
  if (SUBSCHEMA_MAPS.has(keyword) && isSchemaObject(value)) {
    const map = normalizeMap(value);
    return Object.keys(map).length === 0 && keyword === "properties" ? undefined : map;
  }
  if (keyword === "required" && Array.isArray(value) && value.length === 0) return undefined;
  if (!SINGLE_SUBSCHEMAS.has(keyword)) return value;
  const normal = normalizeSchema(value);
  if (keyword === "additionalProperties" && isTrueSchema(normal)) return undefined;
  if (keyword === "propertyNames" && (isTrueSchema(normal) || isStringSchema(normal))) return undefined;
  return normal;
}

function normalizeList(list: readonly JsonValue[]): JsonValue[] {
  const normal = list.map(normalizeSchema);
  return normal.some((item, index) => item !== list[index]) ? normal : (list as JsonValue[]);
}

function normalizeMap(map: SchemaObject): SchemaObject {
  const normal = Object.entries(map).map(([name, value]) => [name, normalizeSchema(value)] as const);
  return normal.some(([name, value]) => value !== map[name]) ? Object.fromEntries(normal) : map;
}

/** `examples` with the OpenAPI `example` appended (unless already listed), or undefined when there is no `example`. */
function exampleMerged(schema: SchemaObject): JsonValue[] | undefined {
  if (!("example" in schema)) return undefined;
  const example = schema.example as JsonValue;
  const examples = Array.isArray(schema.examples) ? schema.examples : [];
  const text = JSON.stringify(example);
  return examples.some((listed) => JSON.stringify(listed) === text) ? [...examples] : [...examples, example];
}

/** `{"type": "string"}` alone: every JSON object key satisfies it. */
function isStringSchema(schema: JsonValue): boolean {
  return isSchemaObject(schema) && Object.keys(schema).length === 1 && schema.type === "string";
}

function isSchemaObject(value: JsonValue | undefined): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
