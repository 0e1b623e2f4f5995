import type { JsonObject } from "../../json-value.js";
import { isExtensionKey } from "../extension-keys.js";
import type { WorkBudget } from "./work-budget.js";

/** A value to walk and the key it sits under (an `x-` key under it is documentation, not schema). */
export interface WalkNode {
  readonly value: unknown;
  readonly key: string | number | undefined;
}

/**
 * Walks every object and array below `roots`, depth first, never into an `x-*` extension (whose
 * `$ref`s are documentation), and charges the budget one step per value visited. `onRef` sees each
 * `$ref` with the object holding it, and may give back a further value to walk: a component the
 * reference reaches, which would not be visited otherwise.
 */
export function walkRefs(
  roots: readonly WalkNode[],
  budget: WorkBudget,
  onRef: (ref: string, holder: JsonObject) => WalkNode | undefined,
): void {
  const stack = [...roots];
  let visited = 0;
  while (stack.length > 0) {
    const { value, key } = stack.pop() as WalkNode;
    visited += 1;
    if (typeof value !== "object" || value === null) continue;
    const ref = Array.isArray(value) ? undefined : (value as JsonObject).$ref;
    const reached = typeof ref === "string" ? onRef(ref, value as JsonObject) : undefined;
    if (reached !== undefined) stack.push(reached);
    for (const [member, child] of Object.entries(value)) {
      if (typeof child === "object" && child !== null && !isExtensionKey(member, key))
        stack.push({ value: child, key: Array.isArray(value) ? Number(member) : member });
    }
  }
  budget.charge(visited);
}
