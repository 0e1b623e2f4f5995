import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { MAX_SCHEMA_DEPTH } from "../catalog/bounds.js";

/** A JSON value, as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema document: an object or a boolean schema. */
export type JsonSchema = boolean | { readonly [keyword: string]: JsonValue };

/** A validator Forage accepts: Standard Schema that can project itself through Standard JSON Schema. */
export type ForageValidator = StandardSchemaV1 & StandardJSONSchemaV1;

/** Which side of a validator to project: what a caller sends, or what the operation returns. */
export type ProjectionSide = "input" | "output";

/**
 * Projects a validator to JSON Schema (draft 2020-12) through Standard JSON Schema.
 * Throws a plain Error saying why when the validator cannot be projected.
 */
export function projectJsonSchema(validator: unknown, side: ProjectionSide): JsonSchema {
  const converter = (validator as { "~standard"?: { jsonSchema?: StandardJSONSchemaV1.Converter } } | null)?.["~standard"]?.jsonSchema;
  if (typeof converter?.[side] !== "function") {
    throw new Error("it is not a Standard Schema with ~standard.jsonSchema (Standard JSON Schema)");
  }
  const projected = converter[side]({ target: "draft-2020-12" });
  // Round-trip through JSON so the stored projection is plain, detached data.
  const schema = JSON.parse(JSON.stringify(projected)) as JsonSchema;
  if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) {
    throw new Error("its JSON Schema projection is not an object");
  }
  const depth = jsonDepth(schema);
  if (depth > MAX_SCHEMA_DEPTH) throw new Error(`its JSON Schema projection is deeper than ${MAX_SCHEMA_DEPTH}`);
  return stripDialect(schema);
}

/** The $schema marker is the same for every projection, so it only adds noise. */
function stripDialect(schema: JsonSchema): JsonSchema {
  if (typeof schema === "boolean" || !("$schema" in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function jsonDepth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, jsonDepth(inner));
  return deepest + 1;
}
