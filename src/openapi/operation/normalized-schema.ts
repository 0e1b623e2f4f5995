import { ForageError } from "../../forage-error.js";
import { SINGLE_SUBSCHEMAS, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS } from "../../json-schema/subschema-keywords.js";
import type { JsonValue } from "../../json-value.js";
import { MAX_ANNOTATION_JSON_LENGTH, MAX_EXPANDED_DEPTH } from "../limits.js";
import { boundDescription, boundTitle } from "../text-limits.js";

// Annotations that say nothing a validator or a caller needs; dropped because they are unbounded provider data.
const DROPPED = new Set(["$comment", "externalDocs", "xml", "discriminator"]);
// Annotation values kept only when small: they are data, which cannot be cut like text.
const SIZED = new Set(["default", "example", "examples"]);

/**
 * A private, tree-shaped copy of a dereferenced schema with provider text
 * bounded: titles to 200, descriptions to 2,048, examples and defaults kept
 * only when their JSON is at most 2,048 characters, and extensions and
 * documentation-only annotations dropped. Constraint keywords (and unknown
 * ones, which the compiler must see to refuse) are copied unchanged, so the
 * copy never accepts more than the original.
 */
export function normalizeSchema(schema: unknown): JsonValue {
  return copySchema(schema, 0, new Set());
}

function copySchema(schema: unknown, depth: number, path: Set<object>): JsonValue {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return copyData(schema);
  guard(schema, depth, path);
  path.add(schema);
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(schema)) {
    const copied = copyKeyword(key, value, depth, path);
    if (copied !== undefined) out[key] = copied;
  }
  path.delete(schema);
  return out;
}

function copyKeyword(key: string, value: unknown, depth: number, path: Set<object>): JsonValue | undefined {
  if (key.startsWith("x-") || DROPPED.has(key)) return undefined;
  if (key === "title" && typeof value === "string") return boundTitle(value);
  if (key === "description" && typeof value === "string") return boundDescription(value);
  if (SIZED.has(key)) return JSON.stringify(value).length <= MAX_ANNOTATION_JSON_LENGTH ? copyData(value) : undefined;
  if (SUBSCHEMA_MAPS.has(key) && isRecord(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [name, child] of Object.entries(value)) out[name] = copySchema(child, depth + 1, path);
    return out;
  }
  if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) {
    return value.map((child) => copySchema(child, depth + 1, path));
  }
  if (SINGLE_SUBSCHEMAS.has(key)) return copySchema(value, depth + 1, path);
  return copyData(value);
}

/** A deep copy of literal JSON data (enum values, const, required lists). */
function copyData(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}

function guard(schema: object, depth: number, path: Set<object>): void {
  // Recursive operations never reach here; this keeps a mistake from looping.
  if (path.has(schema) || depth > MAX_EXPANDED_DEPTH) {
    throw new ForageError("unsupported", "The schema is recursive or nests too deeply once references are inlined");
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
