import type { JsonObject, JsonValue } from "../../json-value.js";
import { MAX_UNVALIDATED_SCHEMA_BYTES, notCarriedReason, notCarriedSchema } from "../../unvalidated-schema-bound.js";
import { ComponentClosure } from "./component-closure.js";
import { partShell } from "./part-document.js";
import type { SplitOperation } from "./spec-operations.js";
import type { WorkBudget } from "./work-budget.js";

/** An operation that fits no part, as a document of its own, or why it cannot have one. */
export type AloneOperation =
  | { readonly ok: true; readonly document: JsonObject; readonly cut?: string }
  | { readonly ok: false; readonly reason: string };

/**
 * An operation that breaks an intake bound even alone (its references expand past the budget,
 * its components are too many values) is still shown, not validated, from its own schemas
 * with the components they reference kept as references (docs/intake.md, "Operations too
 * large to expand"). Its document holds the operation and those components, each taken whole,
 * shared with the spec, never copied; their bytes are counted against MAX_UNVALIDATED_SCHEMA_BYTES
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
    const { bytes, kept, cut } = this.#closure.of(shell.paths, "paths", MAX_UNVALIDATED_SCHEMA_BYTES);
    if (bytes > MAX_UNVALIDATED_SCHEMA_BYTES) {
      return {
        ok: false,
        reason: `its Path Item and the parameters, bodies and responses it references hold about ${bytes} bytes of JSON, more than the ${MAX_UNVALIDATED_SCHEMA_BYTES} an operation shown unexpanded may carry`,
      };
    }
    const components: Record<string, Record<string, JsonValue>> = {};
    const put = (component: string, value: JsonValue): void => {
      const slash = component.indexOf("/");
      const group = (components[component.slice(0, slash)] ??= {});
      group[component.slice(slash + 1)] = value;
    };
    for (const component of kept) put(component, this.#closure.component(component) as JsonValue);
    for (const component of cut) put(component, cutSchema(component));
    const schemes = (this.#root.components as JsonObject | undefined)?.securitySchemes;
    if (typeof schemes === "object" && schemes !== null) components.securitySchemes = schemes as JsonObject;
    const document = Object.keys(components).length > 0 ? { ...shell, components } : shell;
    return cut.size === 0 ? { ok: true, document } : { ok: true, document, cut: cutNote(cut) };
  }
}

/** Said with the operation's reason: the cut component schemas, by name. */
function cutNote(cut: ReadonlySet<string>): string {
  return notCarriedReason([...cut].map((component) => component.slice("schemas/".length)));
}

/** What stands for a component schema past the bound: any value, naming the component that is the whole. */
function cutSchema(component: string): JsonObject {
  return notCarriedSchema(`#/components/${component}`);
}
