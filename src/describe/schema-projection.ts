import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { MAX_SCHEMA_DEPTH } from "../catalog/limits.js";
import { isNormalFormProjection } from "../json-schema/normal-form-projections.js";
import type { JsonSchema, JsonValue } from "../json-value.js";
import { normalizeProjection } from "./projection-normal-form.js";

/** A validator Forage accepts: Standard Schema that can project itself through Standard JSON Schema. */
export type ForageValidator = StandardSchemaV1 & StandardJSONSchemaV1;

/** Which side of a validator to project: what a caller sends, or what the operation returns. */
export type ProjectionSide = "input" | "output";

/** A projection with its JSON text. */
export interface ProjectedJsonSchema {
  readonly schema: JsonSchema;
  /**
   * Exactly JSON.stringify(schema): the projection in normal form, properties
   * in the order its validator emitted them, which is also the order describe
   * shows them in.
   */
  readonly json: string;
}

/**
 * Projects a validator to JSON Schema (draft 2020-12) through Standard JSON Schema,
 * in normal form (see normalizeProjection).
 * Throws a plain Error saying why when the validator cannot be projected.
 */
export function projectJsonSchema(validator: unknown, side: ProjectionSide): JsonSchema {
  return projectJsonSchemaWithText(validator, side).schema;
}

/** projectJsonSchema, also returning the projection's JSON text, which the round trip makes anyway. */
export function projectJsonSchemaWithText(validator: unknown, side: ProjectionSide): ProjectedJsonSchema {
  const converter = (validator as { "~standard"?: { jsonSchema?: StandardJSONSchemaV1.Converter } } | null)?.[
    "~standard"
  ]?.jsonSchema;
  if (typeof converter?.[side] !== "function") {
    throw new Error("it is not a Standard Schema with ~standard.jsonSchema (Standard JSON Schema)");
  }
  const projected: unknown = converter[side]({ target: "draft-2020-12" });
  // Round-trip through JSON so the stored projection is plain, detached data; the text is kept as its identity.
  // A projection that is already frozen plain JSON (as compiled validators answer) cannot change and is kept
  // as it is: parsing it again would only make a second copy of every schema.
  let json: string | undefined = JSON.stringify(withoutDialect(projected));
  const depth = frozenJsonDepth(projected);
  let schema: unknown = depth !== undefined ? projected : json === undefined ? undefined : JSON.parse(json);
  if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) {
    throw new Error("its JSON Schema projection is not an object");
  }
  const deepest = depth ?? jsonDepth(schema);
  if (deepest > MAX_SCHEMA_DEPTH) throw new Error(`its JSON Schema projection is deeper than ${MAX_SCHEMA_DEPTH}`);
  if (typeof schema === "object" && "$schema" in schema) {
    // Only when the projection was not a plain object (a toJSON, a class) could the marker survive to here.
    const { $schema: _dialect, ...rest } = schema as Record<string, JsonValue>;
    schema = rest;
    json = JSON.stringify(rest);
  }
  // A projection the compiler marked is in normal form already (src/json-schema/README.md, "Projection").
  const normal = isNormalFormProjection(schema) ? (schema as JsonSchema) : normalizeProjection(schema as JsonSchema);
  // Most projections need no change; only a changed one is serialised again.
  return normal === schema
    ? { schema: normal, json: json as string }
    : { schema: normal, json: JSON.stringify(normal) };
}

/**
 * The $schema marker is the same for every projection, so it only adds noise.
 * Removing it from a plain object before the round trip saves a second
 * serialisation; anything else is serialised as it is.
 */
function withoutDialect(projected: unknown): unknown {
  if (projected === null || typeof projected !== "object" || !("$schema" in projected)) return projected;
  const prototype: unknown = Object.getPrototypeOf(projected);
  if ((prototype !== Object.prototype && prototype !== null) || "toJSON" in projected) return projected;
  const { $schema: _dialect, ...rest } = projected as Record<string, unknown>;
  return rest;
}

/**
 * The depth of `value` when it is frozen plain JSON all the way down (objects and arrays frozen,
 * with the plain prototypes, no `$schema` or `toJSON` member at the top, members JSON values),
 * else undefined.
 */
function frozenJsonDepth(value: unknown): number | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if ("$schema" in value || "toJSON" in value) return undefined;
  return frozenDepth(value);
}

function frozenDepth(value: unknown): number | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return 0;
  if (typeof value === "number") return Number.isFinite(value) ? 0 : undefined;
  if (typeof value !== "object" || !Object.isFrozen(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== (Array.isArray(value) ? Array.prototype : Object.prototype)) return undefined;
  let deepest = 0;
  for (const inner of Object.values(value)) {
    const depth = frozenDepth(inner);
    if (depth === undefined) return undefined;
    deepest = Math.max(deepest, depth);
  }
  return deepest + 1;
}

function jsonDepth(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, jsonDepth(inner));
  return deepest + 1;
}
