import type { JsonObject, JsonSchema, JsonValue } from "../json-value.js";
import { collectAnnotations } from "./annotations.js";
import { readArraySubschemas } from "./compile-array.js";
import { readMultipleOf, readNumberBounds } from "./compile-number.js";
import { readAdditionalProperties } from "./compile-object.js";
import type { NodeScope, SchemaBuilder } from "./compile-schema.js";
import { type JsonType, readTypes } from "./compile-type-branches.js";
import { setOwn } from "./json-document.js";
import { childPointer } from "./json-pointer.js";
import { KEYWORD_ORDER } from "./keyword-order.js";
import {
  keywordValue,
  readArray,
  readBoolean,
  readCount,
  readSchemaList,
  readSchemaMap,
  readStringList,
} from "./keyword-values.js";

type Scope = NodeScope<JsonSchema>;

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

/** The projection of `true`, written `{}` as the normal form writes a schema that accepts anything. */
const ACCEPTS_ANYTHING: JsonSchema = Object.freeze({});

/**
 * Builds what each schema node accepts as draft 2020-12 JSON Schema, from the node itself once
 * its subschemas are built (src/json-schema/README.md, "Projection"), checking every keyword
 * value on the way as the zod builder (compile-zod-node.ts) does, with the same readers: the
 * walk with this builder is the whole check of a schema, so the zod pieces can wait until the
 * validator first validates. Every `$ref` is inlined as its target's projection, each dialect's
 * spelling becomes 2020-12's (tuples as `prefixItems`, boolean exclusive bounds as numbers,
 * `nullable` as a `"null"` type), the compiled keywords and carried annotations are kept and
 * everything that never constrains is left out. Keywords come in the order of Forage's normal
 * form, so describe need not reorder them. Every object made is frozen: the projection is
 * shared by every holder of the validator, and its data values come from the compiler's frozen
 * private copy of the schema.
 */
export const projectionBuilder: SchemaBuilder<JsonSchema> = {
  node: projectNode,
  boolean: (value) => (value ? ACCEPTS_ANYTHING : false),
};

function projectNode(node: JsonObject, pointer: string, scope: Scope, ref: string | undefined): JsonSchema {
  // Read in the zod builder's order (types, each admitted type's keywords, enum, combinators, the
  // reference, annotations), so a schema with two faults is refused for the same one, unless both
  // are keywords of different declared types, which the zod builder reads in the declared order.
  const types = readTypes(node, pointer, scope.dialect);
  // A type's keywords are compiled (and their values checked) only when the type is admitted;
  // for any other type they constrain nothing, so they are left out.
  const admits = (type: JsonType): boolean => types === undefined || types.includes(type);
  const parts: JsonObject = {};
  if (admits("string")) projectStringKeywords(parts, node, pointer);
  if (admits("number") || admits("integer")) projectNumberKeywords(parts, node, pointer, scope);
  if (admits("object")) projectObjectKeywords(parts, node, pointer, scope);
  if (admits("array")) projectArrayKeywords(parts, node, pointer, scope);
  readArray(node, "enum", pointer);
  for (const keyword of COMBINATORS) projectCombinator(parts, keyword, node, pointer, scope);
  // A `$ref` beside other keywords (2020-12, OpenAPI 3.1) is one more constraint, its target one
  // more member of allOf; alone, it is its target.
  const reference = ref === undefined ? undefined : scope.ref(ref, childPointer(pointer, "$ref"));
  const annotations = collectAnnotations(node, pointer, scope.dialect) ?? {};
  if (reference !== undefined) {
    if (Object.keys(parts).length === 0 && !hasAny(node, ["type", "enum", "const"]) && isEmpty(annotations)) {
      return reference;
    }
    parts.allOf = frozenList([...((parts.allOf as JsonValue[] | undefined) ?? []), reference]);
  }
  return inNormalOrder(node, types, parts, annotations);
}

function projectStringKeywords(parts: JsonObject, node: JsonObject, pointer: string): void {
  for (const keyword of ["minLength", "maxLength"]) {
    const count = readCount(node, keyword, pointer);
    if (count !== undefined) parts[keyword] = count;
  }
}

function projectNumberKeywords(parts: JsonObject, node: JsonObject, pointer: string, scope: Scope): void {
  const { lower, upper } = readNumberBounds(node, pointer, scope.dialect);
  if (lower.inclusive !== undefined) parts.minimum = lower.inclusive;
  if (lower.exclusive !== undefined) parts.exclusiveMinimum = lower.exclusive;
  if (upper.inclusive !== undefined) parts.maximum = upper.inclusive;
  if (upper.exclusive !== undefined) parts.exclusiveMaximum = upper.exclusive;
  const multipleOf = readMultipleOf(node, pointer);
  if (multipleOf !== undefined) parts.multipleOf = multipleOf;
}

function projectObjectKeywords(parts: JsonObject, node: JsonObject, pointer: string, scope: Scope): void {
  const properties = readSchemaMap(node, "properties", pointer) ?? {};
  const base = childPointer(pointer, "properties");
  const names = Object.keys(properties);
  if (names.length > 0) {
    const projected: JsonObject = {};
    // setOwn: a property may be named "__proto__".
    for (const name of names)
      setOwn(projected, name, scope.schema(properties[name] as JsonValue, childPointer(base, name)));
    parts.properties = Object.freeze(projected);
  }
  const required = readStringList(node, "required", pointer);
  if (required !== undefined && required.length > 0) parts.required = required;
  const additional = readAdditionalProperties(node, pointer);
  if (additional === false) parts.additionalProperties = false;
  else if (additional !== undefined && additional !== true) {
    const projected = scope.schema(additional, childPointer(pointer, "additionalProperties"));
    if (!isEmpty(projected)) parts.additionalProperties = projected;
  }
  for (const keyword of ["minProperties", "maxProperties"]) {
    const count = readCount(node, keyword, pointer);
    if (count !== undefined) parts[keyword] = count;
  }
}

function projectArrayKeywords(parts: JsonObject, node: JsonObject, pointer: string, scope: Scope): void {
  const minItems = readCount(node, "minItems", pointer);
  const maxItems = readCount(node, "maxItems", pointer);
  const { tuple, rest } = readArraySubschemas(node, pointer, scope.dialect);
  if (tuple !== undefined) {
    parts.prefixItems = frozenList(
      tuple.members.map((member, index) => scope.schema(member, childPointer(tuple.pointer, index))),
    );
  }
  if (rest !== undefined) {
    const items = tuple !== undefined && rest.schema === false ? false : scope.schema(rest.schema, rest.pointer);
    if (!isEmpty(items)) parts.items = items;
  }
  if (minItems !== undefined) parts.minItems = minItems;
  if (maxItems !== undefined) parts.maxItems = maxItems;
  if (readBoolean(node, "uniqueItems", pointer) === true) parts.uniqueItems = true;
}

function projectCombinator(parts: JsonObject, keyword: string, node: JsonObject, pointer: string, scope: Scope): void {
  const members = readSchemaList(node, keyword, pointer);
  if (members === undefined) return;
  const base = childPointer(pointer, keyword);
  parts[keyword] = frozenList(members.map((member, index) => scope.schema(member, childPointer(base, index))));
}

function inNormalOrder(
  node: JsonObject,
  types: readonly JsonType[] | undefined,
  parts: JsonObject,
  annotations: JsonObject,
): JsonSchema {
  const written: JsonObject = { ...parts, ...annotations };
  if (types !== undefined) written.type = types.length === 1 ? (types[0] as JsonType) : frozenList([...types]);
  // enum and const are data, kept as written (the zod builder filters them; both accept the same).
  if (Object.hasOwn(node, "const")) written.const = node.const as JsonValue;
  if (Object.hasOwn(node, "enum")) written.enum = node.enum as JsonValue;
  const out: JsonObject = {};
  // Indexed, not for…of: run for every node of every schema, mostly before V8 optimizes it, the
  // iterator's result objects were a fifteenth of what a 5,000-tool folder's intake allocated.
  for (let rank = 0; rank < KEYWORD_ORDER.length; rank += 1) {
    const keyword = KEYWORD_ORDER[rank] as string;
    if (Object.hasOwn(written, keyword)) out[keyword] = written[keyword] as JsonValue;
  }
  return Object.freeze(out);
}

function hasAny(node: JsonObject, keywords: readonly string[]): boolean {
  return keywords.some((keyword) => keywordValue(node, keyword) !== undefined);
}

/** `true` or `{}`: a subschema that constrains nothing, which the normal form leaves out. */
function isEmpty(schema: JsonSchema | JsonObject): boolean {
  return schema === true || (typeof schema === "object" && Object.keys(schema).length === 0);
}

/** The list, frozen in place (typed as the mutable JSON array the projection's type spells). */
function frozenList<T>(list: T[]): T[] {
  return Object.freeze(list) as T[];
}
