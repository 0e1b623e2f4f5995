import { z } from "zod";
import type { JsonObject } from "../json-value.js";
import { compileArrayBranch } from "./compile-array.js";
import { compileNumberBranch } from "./compile-number.js";
import { compileObjectBranch } from "./compile-object.js";
import type { NodeScope } from "./compile-schema.js";
import { compileStringBranch } from "./compile-string.js";
import type { DialectProfile } from "./dialect.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue, readBoolean } from "./keyword-values.js";
import { malformedSchema } from "./refusal.js";

/** A JSON Schema instance type. */
export type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";

const TYPE_NAMES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

// "integer" is left out: "number" already admits every integer.
const EVERY_TYPE: readonly JsonType[] = ["string", "number", "boolean", "null", "object", "array"];

// The keywords that constrain each type. JSON Schema applies them only to
// instances of that type: {"minLength": 2} accepts 5, {"properties": {...}} accepts "a".
const TYPE_KEYWORDS: Readonly<Record<"string" | "number" | "object" | "array", readonly string[]>> = {
  string: ["minLength", "maxLength"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  object: ["properties", "required", "additionalProperties", "minProperties", "maxProperties"],
  array: ["items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems"],
};

/**
 * The node's type-specific keywords as one union with a branch per admitted
 * type, or undefined when the node constrains no type at all.
 */
export function compileTypeBranches(
  node: JsonObject,
  pointer: string,
  scope: NodeScope<z.ZodType>,
): z.ZodType | undefined {
  const declared = readTypes(node, pointer, scope.dialect);
  if (
    declared === undefined &&
    !Object.values(TYPE_KEYWORDS)
      .flat()
      .some((keyword) => Object.hasOwn(node, keyword))
  ) {
    return undefined;
  }
  const types = declared ?? EVERY_TYPE;
  const effective = types.includes("number") ? types.filter((type) => type !== "integer") : types;
  const branches = effective.map((type) => compileBranch(type, node, pointer, scope));
  const [only] = branches;
  return branches.length === 1 && only !== undefined ? only : z.union(branches);
}

function compileBranch(type: JsonType, node: JsonObject, pointer: string, scope: NodeScope<z.ZodType>): z.ZodType {
  switch (type) {
    case "string":
      return compileStringBranch(node, pointer);
    case "number":
    case "integer":
      return compileNumberBranch(node, pointer, scope.dialect, type === "integer");
    case "boolean":
      return z.boolean();
    case "null":
      return z.null();
    case "object":
      return compileObjectBranch(node, pointer, scope);
    case "array":
      return compileArrayBranch(node, pointer, scope);
  }
}

/** The declared types, with OpenAPI 3.0 `nullable: true` adding "null" to a declared type. */
export function readTypes(node: JsonObject, pointer: string, dialect: DialectProfile): JsonType[] | undefined {
  const value = keywordValue(node, "type");
  const where = childPointer(pointer, "type");
  let types: JsonType[] | undefined;
  if (value === undefined) types = undefined;
  else if (typeof value === "string") types = [asType(value, where)];
  else if (Array.isArray(value) && dialect.typeArrays) types = value.map((item) => asType(item, where));
  else
    throw malformedSchema(
      where,
      dialect.typeArrays ? "type must be a type name or an array of them" : "type must be one type name",
      "type",
    );
  // A single type name (most nodes) cannot repeat: no Set is made for it.
  if (types !== undefined && (types.length === 0 || (types.length > 1 && new Set(types).size !== types.length))) {
    throw malformedSchema(where, "type must list unique type names", "type");
  }
  // OpenAPI 3.0.3: nullable adds "null" only to a type declared in the same schema;
  // other keywords (enum included) still apply to null.
  const nullable = dialect.constraints.has("nullable") ? readBoolean(node, "nullable", pointer) : undefined;
  if (nullable === true && types !== undefined && !types.includes("null")) types = [...types, "null"];
  return types;
}

function asType(value: unknown, pointer: string): JsonType {
  if (typeof value !== "string" || !TYPE_NAMES.has(value)) {
    throw malformedSchema(pointer, `${JSON.stringify(value)} is not a JSON Schema type`, "type");
  }
  return value as JsonType;
}
