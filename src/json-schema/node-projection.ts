import type { JsonObject, JsonSchema, JsonValue } from "../json-value.js";
import { readNumberBounds } from "./compile-number.js";
import type { NodeScope } from "./compile-schema.js";
import { type JsonType, readTypes } from "./compile-type-branches.js";
import { setOwn } from "./json-document.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue, readBoolean } from "./keyword-values.js";

/** Keywords copied as they are written: their values are data or counts, the same in every dialect. */
const COPIED_BEFORE_MEMBERS = ["title", "description"];
const COPIED_PROPERTY_COUNTS = ["minProperties", "maxProperties"];
const COPIED_ARRAY_BOUNDS = ["minItems", "maxItems"];
const COPIED_STRING_BOUNDS = ["minLength", "maxLength"];
const COPIED_ANNOTATIONS = ["default", "examples", "example", "deprecated", "readOnly", "writeOnly"];
const COMBINATORS = ["anyOf", "oneOf", "allOf"];

/**
 * What one compiled schema node accepts, as draft 2020-12 JSON Schema, built from the node it
 * was compiled from once its subschemas are compiled (src/json-schema/README.md, "Projection"):
 * every `$ref` inlined as its target's projection, each dialect's spelling made 2020-12's (tuples
 * as `prefixItems`, boolean exclusive bounds as numbers, `nullable` as a `"null"` type), the
 * compiled keywords and carried annotations kept, everything that never constrains left out.
 * Keywords come in the order Forage's normal form writes them, so the describe side need not
 * reorder them. Every object it makes is frozen: the projection is shared by every holder of
 * the validator, and its data values come from the compiler's frozen private copy.
 */
export function projectNode(node: JsonObject, pointer: string, scope: NodeScope): JsonSchema {
  const out: JsonObject = {};
  copy(out, node, COPIED_BEFORE_MEMBERS);
  const types = readTypes(node, pointer, scope.dialect);
  if (types !== undefined) out.type = types.length === 1 ? (types[0] as string) : frozenList(types);
  if (Object.hasOwn(node, "const")) out.const = node.const as JsonValue;
  if (Object.hasOwn(node, "enum")) out.enum = node.enum as JsonValue;
  // A type's keywords are compiled (and their values checked) only when the type is admitted;
  // for any other type they constrain nothing, so they are left out.
  const admits = (type: JsonType): boolean => types === undefined || types.includes(type);
  if (admits("object")) projectObjectKeywords(out, node, pointer, scope);
  if (admits("array")) projectArrayKeywords(out, node, pointer, scope);
  if (admits("string")) copy(out, node, COPIED_STRING_BOUNDS);
  if (admits("number") || admits("integer")) projectNumberKeywords(out, node, pointer, scope);
  // A `$ref` beside other keywords (2020-12, OpenAPI 3.1) is one more constraint, its target one
  // more member of allOf; alone, it is its target.
  const reference = Object.hasOwn(node, "$ref") ? scope.projection(childPointer(pointer, "$ref")) : undefined;
  projectCombinators(out, node, pointer, scope, reference);
  copy(out, node, COPIED_ANNOTATIONS);
  if (reference !== undefined && Object.keys(out).length === 1 && (out.allOf as JsonValue[]).length === 1) {
    return reference;
  }
  return Object.freeze(out);
}

function copy(out: JsonObject, node: JsonObject, keywords: readonly string[]): void {
  for (const keyword of keywords) {
    const value = keywordValue(node, keyword);
    if (value !== undefined) out[keyword] = value;
  }
}

function projectObjectKeywords(out: JsonObject, node: JsonObject, pointer: string, scope: NodeScope): void {
  const properties = keywordValue(node, "properties") as JsonObject | undefined;
  if (properties !== undefined && Object.keys(properties).length > 0) {
    const base = childPointer(pointer, "properties");
    const projected: JsonObject = {};
    // setOwn: a property may be named "__proto__".
    for (const name of Object.keys(properties)) setOwn(projected, name, scope.projection(childPointer(base, name)));
    out.properties = Object.freeze(projected);
  }
  const required = keywordValue(node, "required") as JsonValue[] | undefined;
  if (required !== undefined && required.length > 0) out.required = required;
  const additional = keywordValue(node, "additionalProperties");
  if (additional === false) out.additionalProperties = false;
  else if (additional !== undefined && additional !== true) {
    const projected = scope.projection(childPointer(pointer, "additionalProperties"));
    if (!acceptsAnything(projected)) out.additionalProperties = projected;
  }
  copy(out, node, COPIED_PROPERTY_COUNTS);
}

function projectArrayKeywords(out: JsonObject, node: JsonObject, pointer: string, scope: NodeScope): void {
  const tupleKeyword = scope.dialect.tupleKeyword;
  const tuple = tupleKeyword === undefined ? undefined : keywordValue(node, tupleKeyword);
  if (Array.isArray(tuple) && tupleKeyword !== undefined) {
    const base = childPointer(pointer, tupleKeyword);
    out.prefixItems = frozenList(tuple.map((_, index) => scope.projection(childPointer(base, index))));
    // The schema for items after the tuple: 2020-12 `items`, draft 4/7 `additionalItems`.
    const restKeyword = tupleKeyword === "prefixItems" ? "items" : "additionalItems";
    const rest = keywordValue(node, restKeyword);
    if (rest === false) out.items = false;
    else if (rest !== undefined && rest !== true) out.items = scope.projection(childPointer(pointer, restKeyword));
  } else if (keywordValue(node, "items") !== undefined) {
    out.items = scope.projection(childPointer(pointer, "items"));
  }
  copy(out, node, COPIED_ARRAY_BOUNDS);
  if (readBoolean(node, "uniqueItems", pointer) === true) out.uniqueItems = true;
}

function projectNumberKeywords(out: JsonObject, node: JsonObject, pointer: string, scope: NodeScope): void {
  const { lower, upper } = readNumberBounds(node, pointer, scope.dialect);
  if (lower.inclusive !== undefined) out.minimum = lower.inclusive;
  if (lower.exclusive !== undefined) out.exclusiveMinimum = lower.exclusive;
  if (upper.inclusive !== undefined) out.maximum = upper.inclusive;
  if (upper.exclusive !== undefined) out.exclusiveMaximum = upper.exclusive;
  const multipleOf = keywordValue(node, "multipleOf");
  if (multipleOf !== undefined) out.multipleOf = multipleOf;
}

function projectCombinators(
  out: JsonObject,
  node: JsonObject,
  pointer: string,
  scope: NodeScope,
  reference: JsonSchema | undefined,
): void {
  for (const keyword of COMBINATORS) {
    const members = keywordValue(node, keyword) as JsonValue[] | undefined;
    const projected: JsonValue[] = [];
    const base = childPointer(pointer, keyword);
    for (let index = 0; index < (members?.length ?? 0); index += 1) {
      projected.push(scope.projection(childPointer(base, index)));
    }
    if (keyword === "allOf" && reference !== undefined) projected.push(reference);
    if (projected.length > 0) out[keyword] = frozenList(projected);
  }
}

/** The list, frozen in place (typed as the mutable JSON array the projection's type spells). */
function frozenList<T>(list: T[]): T[] {
  return Object.freeze(list) as T[];
}

/** `true` or `{}`: a subschema that constrains nothing, which the normal form leaves out. */
function acceptsAnything(schema: JsonSchema): boolean {
  return schema === true || (typeof schema === "object" && Object.keys(schema).length === 0);
}
