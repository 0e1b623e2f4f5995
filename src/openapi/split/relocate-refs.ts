import { formatPointer, refTokens, resolveTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import { walkRefs } from "./ref-walk.js";
import type { WorkBudget } from "./work-budget.js";

/** The component map a relocated target joins, by the key it sat under; anything else is a schema. */
const KINDS: Readonly<Record<string, string>> = {
  headers: "headers",
  parameters: "parameters",
  responses: "responses",
  examples: "examples",
  requestBody: "requestBodies",
  requestBodies: "requestBodies",
  links: "links",
  callbacks: "callbacks",
};

/**
 * A part carries components, never another part's Path Items, so a reference into `paths`
 * (one operation sharing another's header, say) would dangle in a part. Before splitting, each
 * such target is copied into `components` under a name made from its pointer
 * (`forage_paths_v2_1_clicks_get_...`), and every reference to it is rewritten to point there.
 * The spec is cloned first, so the caller's value is never changed; a spec without such
 * references is returned as it is. Extensions are skipped, as everywhere.
 */
export function relocatePathReferences(root: JsonObject, budget: WorkBudget): JsonObject {
  if (collectOutsideRefs(root, budget).length === 0) return root;
  const copy = structuredClone(root) as JsonObject;
  const components = (copy.components ??= {}) as JsonObject;
  const moved = new Map<string, string>();
  for (const holder of collectOutsideRefs(copy, budget)) {
    const ref = holder.$ref as string;
    let target = moved.get(ref);
    if (target === undefined) {
      const tokens = refTokens(ref) as string[];
      const kind = kindOf(tokens);
      const group = (components[kind] ??= {}) as JsonObject;
      const name = freeName(group, `forage_${tokens.join("/").replace(/[^A-Za-z0-9.-]+/g, "_")}`);
      group[name] = resolveTokens(copy, tokens) as JsonObject;
      target = `#${formatPointer(["components", kind, name])}`;
      moved.set(ref, target);
    }
    holder.$ref = target;
  }
  return copy;
}

/** Every object whose local `$ref` resolves outside `components`, in document order. */
function collectOutsideRefs(root: JsonObject, budget: WorkBudget): JsonObject[] {
  const found: JsonObject[] = [];
  walkRefs([{ value: root, key: undefined }], budget, (ref, holder) => {
    const tokens = refTokens(ref);
    const outside = tokens !== undefined && tokens.length > 0 && tokens[0] !== "components";
    if (outside && resolveTokens(root, tokens) !== undefined) found.push(holder);
    return undefined;
  });
  return found;
}

function kindOf(tokens: readonly string[]): string {
  return KINDS[tokens.at(-1) as string] ?? KINDS[tokens.at(-2) ?? ""] ?? "schemas";
}

function freeName(group: JsonObject, base: string): string {
  let name = base;
  for (let suffix = 2; Object.hasOwn(group, name); suffix += 1) name = `${base}_${suffix}`;
  return name;
}
