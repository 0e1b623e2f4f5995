import { z } from "zod";
import type { JsonObject, JsonPrimitive, JsonValue } from "../json-value.js";
import { canonicalJson, jsonEqual } from "./json-equality.js";
import { keywordValue, readArray } from "./keyword-values.js";

// Keywords holding subschemas: with any of them, filtering an enum at compile
// time could cost as much as validating, so the enum is intersected instead.
const SUBSCHEMA_KEYWORDS = [
  "properties",
  "additionalProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "anyOf",
  "oneOf",
  "$ref",
];

/** True when the node has a keyword that holds subschemas. */
export function hasSubschemaKeywords(node: JsonObject): boolean {
  return SUBSCHEMA_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword));
}

/**
 * `enum` and `const` as one finite set of allowed values, compared with JSON
 * Schema equality. With `filter`, values the node's other keywords reject are
 * dropped now, so the result alone is exact.
 */
export function compileEnum(node: JsonObject, pointer: string, filter: z.ZodType | undefined): z.ZodType | undefined {
  const listed = readArray(node, "enum", pointer);
  const constant = keywordValue(node, "const");
  if (listed === undefined && constant === undefined) return undefined;
  let allowed: JsonValue[] = listed ?? [constant as JsonValue];
  if (listed !== undefined && constant !== undefined) allowed = listed.filter((value) => jsonEqual(value, constant));
  if (filter !== undefined) allowed = allowed.filter((value) => filter.safeParse(value).success);
  return allowedValues(dedupe(allowed), listed === undefined);
}

function allowedValues(values: readonly JsonValue[], fromConst: boolean): z.ZodType {
  if (values.length === 0) return z.never();
  if (values.every(isPrimitive)) {
    // zod compares literals with SameValueZero: 0 and -0 match, as JSON Schema wants.
    const [only] = values;
    return values.length === 1 && only !== undefined ? z.literal(only) : z.literal(values as JsonPrimitive[]);
  }
  // Objects and arrays need structural equality, which no zod literal has.
  const keys = new Set(values.map(canonicalJson));
  const projection = fromConst && values.length === 1 ? { const: values[0] as JsonValue } : { enum: [...values] };
  return z
    .unknown()
    .refine((value) => keys.has(canonicalJson(value)), {
      message: `Invalid value: expected one of ${describe(values)}`,
    })
    .meta(projection);
}

function dedupe(values: readonly JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = canonicalJson(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isPrimitive(value: JsonValue): value is JsonPrimitive {
  return value === null || typeof value !== "object";
}

function describe(values: readonly JsonValue[]): string {
  const text = JSON.stringify(values);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
