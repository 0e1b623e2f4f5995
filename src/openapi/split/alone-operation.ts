import type { JsonObject } from "../../json-value.js";
import { ComponentClosure } from "./component-closure.js";
import { partShell } from "./part-document.js";
import type { SplitOperation } from "./spec-operations.js";
import { MAX_UNEXPANDED_VALUES } from "./split-limits.js";
import type { WorkBudget } from "./work-budget.js";

/** An operation that fits no part, as a document of its own, or why it cannot have one. */
export type AloneOperation =
  | { readonly ok: true; readonly document: JsonObject }
  | { readonly ok: false; readonly reason: string };

/**
 * An operation that breaks an intake bound even alone (its references expand past the budget,
 * its components are too many values) is still shown, not validated, from its own schemas
 * with the components they reference kept as references (docs/intake.md, "Operations too
 * large to expand"). Its document holds the operation and those components, each taken whole,
 * shared with the spec, never copied; their values are counted against MAX_UNEXPANDED_VALUES
 * before the document is built.
 */
export class AloneOperations {
  readonly #root: JsonObject;
  readonly #closure: ComponentClosure;

  constructor(root: JsonObject, budget: WorkBudget) {
    this.#root = root;
    this.#closure = new ComponentClosure(root, budget);
  }

  document(operation: SplitOperation): AloneOperation {
    const shell = partShell(this.#root, [operation]);
    const { values, components } = this.#closure.of(shell.paths, "paths");
    if (values > MAX_UNEXPANDED_VALUES) {
      return {
        ok: false,
        reason: `its schemas and the ${components.size} components they reference hold ${values} JSON values, more than the ${MAX_UNEXPANDED_VALUES} an operation shown unexpanded may carry`,
      };
    }
    const kept: Record<string, Record<string, JsonObject>> = {};
    for (const component of components) {
      const slash = component.indexOf("/");
      const kind = component.slice(0, slash);
      kept[kind] ??= {};
      (kept[kind] as Record<string, JsonObject>)[component.slice(slash + 1)] = this.#closure.component(
        component,
      ) as JsonObject;
    }
    const schemes = (this.#root.components as JsonObject | undefined)?.securitySchemes;
    if (typeof schemes === "object" && schemes !== null) kept.securitySchemes = schemes as Record<string, JsonObject>;
    return { ok: true, document: Object.keys(kept).length > 0 ? { ...shell, components: kept } : shell };
  }
}
