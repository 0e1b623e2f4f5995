import type { Forage, OperationDescription } from "../catalog/types.js";

/** Most optional input names an index line shows; the line's own length bound cuts the rest. */
const MAX_OPTIONAL_SHOWN = 16;

/**
 * The names of an operation's optional top-level inputs, for its index line. The sample call
 * already shows the required ones; these say what else it takes (a `headless` flag, a
 * `threadId`), which is what a reader would otherwise open the `.json` for.
 */
export function optionalInputs(forage: Forage, path: string): string[] {
  const { inputSchema } = forage.describe(path) as OperationDescription;
  if (typeof inputSchema !== "object" || inputSchema === null) return [];
  const { properties, required } = inputSchema as { properties?: unknown; required?: unknown };
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) return [];
  const needed = new Set(Array.isArray(required) ? required.map(String) : []);
  const names = Object.keys(properties).filter((name) => !needed.has(name));
  return names.length <= MAX_OPTIONAL_SHOWN ? names : [...names.slice(0, MAX_OPTIONAL_SHOWN), "…"];
}
