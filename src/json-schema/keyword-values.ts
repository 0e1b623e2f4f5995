import type { JsonObject, JsonValue } from "../json-value.js";
import { isJsonObject } from "./json-document.js";
import { childPointer } from "./json-pointer.js";
import { malformedSchema } from "./refusal.js";

/**
 * Typed readers for keyword values. Each returns undefined when the keyword is
 * absent and throws "invalid_argument" when its value breaks the grammar, so
 * the compilers never guess at a malformed constraint.
 */

/** An own keyword value; `in` would also see Object.prototype members. */
export function keywordValue(node: JsonObject, keyword: string): JsonValue | undefined {
  return Object.hasOwn(node, keyword) ? node[keyword] : undefined;
}

/** A non-negative integer keyword such as `minLength` (2.0 counts as an integer). */
export function readCount(node: JsonObject, keyword: string, pointer: string): number | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be a non-negative integer`, keyword);
  }
  return value;
}

/** A finite number keyword such as `minimum`. */
export function readNumber(node: JsonObject, keyword: string, pointer: string): number | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (typeof value !== "number")
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be a number`, keyword);
  return value;
}

/** A boolean keyword such as `uniqueItems`. */
export function readBoolean(node: JsonObject, keyword: string, pointer: string): boolean | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (typeof value !== "boolean")
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be a boolean`, keyword);
  return value;
}

/** A string keyword such as `$ref`. */
export function readString(node: JsonObject, keyword: string, pointer: string): string | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be a string`, keyword);
  return value;
}

/** An array of strings such as `required`. */
export function readStringList(node: JsonObject, keyword: string, pointer: string): string[] | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === "string")) {
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be an array of strings`, keyword);
  }
  return value;
}

/** A non-empty array of subschemas such as `allOf`. */
export function readSchemaList(node: JsonObject, keyword: string, pointer: string): JsonValue[] | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be a non-empty array of schemas`, keyword);
  }
  return value;
}

/** An object whose members are subschemas, such as `properties`. */
export function readSchemaMap(node: JsonObject, keyword: string, pointer: string): JsonObject | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (!isJsonObject(value))
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be an object of schemas`, keyword);
  return value;
}

/** An array keyword with any JSON members, such as `enum`. */
export function readArray(node: JsonObject, keyword: string, pointer: string): JsonValue[] | undefined {
  const value = keywordValue(node, keyword);
  if (value === undefined) return undefined;
  if (!Array.isArray(value))
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be an array`, keyword);
  return value;
}
