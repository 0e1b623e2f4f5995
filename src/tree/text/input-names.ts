import type { Forage, OperationDescription } from "../../catalog/types.js";
import type { JsonSchema } from "../../json-value.js";

/** The top-level input names of an operation, for its index line's signature. */
export interface InputNames {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/** An operation's input names (see inputNames). */
export function operationInputs(forage: Forage, path: string): InputNames | undefined {
  return inputNames((forage.describe(path) as OperationDescription).inputSchema);
}

/**
 * The names of an object schema's top-level properties, required ones first, in the schema's
 * order: what an index line's signature shows, so a reader can tell whether an operation takes,
 * say, a `headless` flag without opening its `.json`. Undefined for an input that is not an object
 * with properties; the signature then shows the sample call's input.
 */
export function inputNames(schema: JsonSchema): InputNames | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const { properties, required } = schema as { properties?: unknown; required?: unknown };
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return undefined;
  const needed = new Set(Array.isArray(required) ? required.map(String) : []);
  const names = Object.keys(properties);
  return { required: names.filter((name) => needed.has(name)), optional: names.filter((name) => !needed.has(name)) };
}
