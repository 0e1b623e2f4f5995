import { z } from "zod";
import type { JsonObject } from "../json-value.js";
import type { NodeScope } from "./compile-schema.js";
import { isJsonObject } from "./json-document.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue, readCount, readSchemaMap, readStringList } from "./keyword-values.js";
import { type Additional, guardObject, isInheritedName, needsGuard, type ObjectRules } from "./object-guard.js";
import { malformedSchema } from "./refusal.js";

/**
 * The object branch: a zod object (so the projection lists properties,
 * required and additionalProperties), guarded where zod's object is not exact.
 */
export function compileObjectBranch(node: JsonObject, pointer: string, scope: NodeScope<z.ZodType>): z.ZodType {
  const declared = compileProperties(node, pointer, scope);
  const required = new Set(readStringList(node, "required", pointer) ?? []);
  const rules: ObjectRules = {
    declared,
    inheritedDeclared: [...declared.keys()].filter(isInheritedName),
    inheritedRequired: [...required].filter(isInheritedName),
    additional: compileAdditional(node, pointer, scope),
    minProperties: readCount(node, "minProperties", pointer),
    maxProperties: readCount(node, "maxProperties", pointer),
  };
  const object = buildZodObject(rules, required);
  if (!needsGuard(rules)) return object;
  return guardedObject(object, rules);
}

/**
 * Pairs the zod object with a guard that sees the raw instance, which a check
 * on the object cannot: the object's output has already dropped "__proto__".
 * The guard projects as {"type": "object"}, so zod folds the pair back into
 * one object schema; the count bounds ride on the pair.
 */
function guardedObject(object: z.ZodType, rules: ObjectRules): z.ZodType {
  const guard = z
    .unknown()
    .superRefine((value, context) => guardObject(value, rules, context))
    .meta({ type: "object" });
  const meta: Record<string, number> = {};
  if (rules.minProperties !== undefined) meta.minProperties = rules.minProperties;
  if (rules.maxProperties !== undefined) meta.maxProperties = rules.maxProperties;
  const pair = z.intersection(guard, object);
  return Object.keys(meta).length === 0 ? pair : pair.meta(meta);
}

function compileProperties(node: JsonObject, pointer: string, scope: NodeScope<z.ZodType>): Map<string, z.ZodType> {
  const properties = readSchemaMap(node, "properties", pointer) ?? {};
  const base = childPointer(pointer, "properties");
  const declared = new Map<string, z.ZodType>();
  for (const name of Object.keys(properties)) {
    declared.set(name, scope.schema(properties[name] as JsonObject, childPointer(base, name)));
  }
  return declared;
}

function compileAdditional(node: JsonObject, pointer: string, scope: NodeScope<z.ZodType>): Additional {
  const value = readAdditionalProperties(node, pointer);
  if (value === undefined || value === true) return { mode: "open" };
  if (value === false) return { mode: "closed" };
  return { mode: "schema", schema: scope.schema(value, childPointer(pointer, "additionalProperties")) };
}

/** `additionalProperties`, which must be a boolean or a schema object. */
export function readAdditionalProperties(node: JsonObject, pointer: string): boolean | JsonObject | undefined {
  const value = keywordValue(node, "additionalProperties");
  if (value === undefined || typeof value === "boolean" || isJsonObject(value)) return value;
  throw malformedSchema(
    childPointer(pointer, "additionalProperties"),
    "additionalProperties must be a boolean or a schema",
    "additionalProperties",
  );
}

function buildZodObject(rules: ObjectRules, required: ReadonlySet<string>): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of rules.declared) {
    if (!isInheritedName(name)) shape[name] = required.has(name) ? schema : schema.optional();
  }
  // A required name that `properties` does not declare is still governed by additionalProperties.
  for (const name of required) {
    if (!rules.declared.has(name) && !isInheritedName(name)) shape[name] = undeclaredValue(rules.additional);
  }
  // With inherited declared names the catchall would wrongly treat e.g. an own
  // "constructor" as undeclared, so the guard applies additionalProperties instead.
  const catchall = rules.inheritedDeclared.length > 0 ? z.unknown() : catchallFor(rules.additional);
  return z.object(shape).catchall(catchall);
}

function undeclaredValue(additional: Additional): z.ZodType {
  if (additional.mode === "open") return z.unknown();
  if (additional.mode === "closed") return z.never();
  return additional.schema;
}

// A closed object rejects extra keys through an item schema, not zod's strict
// mode: z.intersection forgives an unrecognized key unless both sides reject
// it, which would make allOf of two closed objects wider than JSON Schema. It
// projects as {"not": {}}, which is `false`, and which zod's allOf folding
// (unlike `false`) treats as a constraint on every other member's keys too.
function catchallFor(additional: Additional): z.ZodType {
  if (additional.mode === "open") return z.unknown();
  if (additional.mode === "closed")
    return z.never({ message: "Unrecognized key: additional properties are not allowed" }).optional();
  return additional.schema;
}
