import { refTokens, resolveTokens } from "../json-schema/json-pointer.js";
import type { JsonSchema, JsonValue } from "../json-value.js";
import { propertyKey } from "./typescript-type.js";

type SchemaObject = { readonly [keyword: string]: JsonValue };

/**
 * The sample argument of each frozen schema object: operations that share a validator share its
 * projection (catalog creation freezes it), so the argument, which depends on the schema alone,
 * is worked out once for all of them.
 */
const sampleArguments = new WeakMap<object, string>();

/** A short, valid TypeScript call of an operation, with placeholder values for required input. */
export function sampleCall(path: string, inputSchema: JsonSchema): string {
  return `await env.${path}(${sampleArgument(inputSchema)})`;
}

function sampleArgument(schema: JsonSchema): string {
  if (typeof schema !== "object" || !Object.isFrozen(schema)) return sampleValue(schema, schema, 0, 0);
  let argument = sampleArguments.get(schema);
  if (argument === undefined) sampleArguments.set(schema, (argument = sampleValue(schema, schema, 0, 0)));
  return argument;
}

/** Sample depth is capped so a deep or recursive schema still gives a short line. */
const MAX_SAMPLE_DEPTH = 3;

/**
 * Most `$ref`s followed in a row without reaching an object's properties. A
 * reference cycle with no object between (`$defs: { a: { $ref: "#/$defs/a" } }`)
 * would otherwise be followed forever; catalog creation refuses such schemas,
 * but the sample is bounded on its own. The cap is separate from the depth so
 * an acyclic chain of references to a scalar still samples as that scalar.
 */
const MAX_SAMPLE_REF_CHAIN = 32;

function sampleValue(
  schema: JsonSchema | JsonValue | undefined,
  root: JsonSchema,
  depth: number,
  chain: number,
): string {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "{}";
  const object = schema as SchemaObject;
  if ("const" in object) return JSON.stringify(object.const);
  if (Array.isArray(object.enum) && object.enum.length > 0) return JSON.stringify(object.enum[0]);
  if (typeof object.$ref === "string") {
    if (chain >= MAX_SAMPLE_REF_CHAIN) return "{}";
    return sampleValue(resolveLocal(object.$ref, root), root, depth + 1, chain + 1);
  }
  const alternative = (object.anyOf ?? object.oneOf) as JsonValue[] | undefined;
  if (Array.isArray(alternative) && alternative.length > 0) return sampleValue(alternative[0], root, depth, chain);
  // As in the declaration, items or prefixItems without a type imply an array.
  const type = Array.isArray(object.type)
    ? object.type[0]
    : (object.type ?? ("items" in object || "prefixItems" in object ? "array" : undefined));
  switch (type) {
    case "string":
      return '"…"';
    case "number":
    case "integer":
      return String(typeof object.minimum === "number" ? object.minimum : 0);
    case "boolean":
      return "false";
    case "null":
      return "null";
    case "array":
      return sampleArray(object, root, depth);
    default:
      return sampleObject(object, root, depth);
  }
}

/** `[]`, or for a tuple the elements its declaration requires: the first minItems of prefixItems. */
function sampleArray(schema: SchemaObject, root: JsonSchema, depth: number): string {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const required = Math.min(prefix.length, typeof schema.minItems === "number" ? schema.minItems : 0);
  if (required <= 0) return "[]";
  return `[${prefix
    .slice(0, required)
    .map((item) => sampleValue(item, root, depth + 1, 0))
    .join(", ")}]`;
}

function sampleObject(schema: SchemaObject, root: JsonSchema, depth: number): string {
  const properties = schema.properties;
  if (depth >= MAX_SAMPLE_DEPTH || properties === null || typeof properties !== "object" || Array.isArray(properties))
    return "{}";
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const fields = required
    .filter((name) => Object.hasOwn(properties, name))
    .map((name) => `${propertyKey(name)}: ${sampleValue(properties[name], root, depth + 1, 0)}`);
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
}

function resolveLocal(ref: string, root: JsonSchema): JsonValue | undefined {
  const tokens = refTokens(ref);
  return tokens === undefined || tokens.length === 0
    ? undefined
    : (resolveTokens(root, tokens) as JsonValue | undefined);
}
