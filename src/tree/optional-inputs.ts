import type { Forage, OperationDescription } from "../catalog/types.js";
import type { JsonSchema } from "../json-value.js";

/** Most optional input names an index line shows; the line's own length bound cuts the rest. */
const MAX_OPTIONAL_SHOWN = 16;

/**
 * The names of an operation's optional top-level inputs, for its index line. The sample call
 * already shows the required ones; these say what else it takes (a `headless` flag, a
 * `threadId`), which is what a reader would otherwise open the `.json` for.
 */
export function optionalInputs(forage: Forage, path: string): string[] {
  return optionalInputNames((forage.describe(path) as OperationDescription).inputSchema);
}

/** The optional top-level input names an input schema declares, as optionalInputs shows them. */
export function optionalInputNames(inputSchema: JsonSchema): string[] {
  if (typeof inputSchema !== "object" || inputSchema === null) return [];
  const { properties, required } = inputSchema as { properties?: unknown; required?: unknown };
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return [];
  const needed = new Set(Array.isArray(required) ? required.map(String) : []);
  const names = Object.keys(properties).filter((name) => !needed.has(name));
  return names.length <= MAX_OPTIONAL_SHOWN ? names : [...names.slice(0, MAX_OPTIONAL_SHOWN), "…"];
}
