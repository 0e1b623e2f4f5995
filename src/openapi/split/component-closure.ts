import { refTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import { isExtensionKey } from "../extension-keys.js";
import type { WorkBudget } from "./work-budget.js";

/** What a subtree holds and references: its JSON values and the components it names (`schemas/Pet`). */
interface Scan {
  readonly values: number;
  readonly references: ReadonlySet<string>;
}

/**
 * The components a subtree reaches, transitively, and how many JSON values they hold with it,
 * counted without expanding a single reference: each component is scanned once per split
 * (its values and the components it names, memoized), so measuring every left-out operation
 * costs one walk of the components plus a walk of the component graph per operation.
 * References inside extensions (`x-*`) are documentation and not followed, as in a part.
 */
export class ComponentClosure {
  readonly #components: JsonObject;
  readonly #budget: WorkBudget;
  readonly #scans = new Map<string, Scan>();

  constructor(root: JsonObject, budget: WorkBudget) {
    this.#components = isObject(root.components) ? root.components : {};
    this.#budget = budget;
  }

  /** The components `subtree` reaches ("kind/name"), and the values of the subtree and all of them together. */
  of(subtree: unknown, key: string): { values: number; components: ReadonlySet<string> } {
    const own = this.#scan(subtree, key);
    const reached = new Set<string>();
    const pending = [...own.references];
    let values = own.values;
    while (pending.length > 0) {
      const component = pending.pop() as string;
      if (reached.has(component)) continue;
      const scan = this.#componentScan(component);
      if (scan === undefined) continue;
      reached.add(component);
      values += scan.values;
      pending.push(...scan.references);
    }
    this.#budget.charge(reached.size + 1);
    return { values, components: reached };
  }

  /** The component itself ("schemas/Pet"), or undefined when the spec has none of that name. */
  component(component: string): JsonObject | undefined {
    const [kind, name] = splitKey(component);
    const group = this.#components[kind];
    if (!isObject(group) || !Object.hasOwn(group, name)) return undefined;
    const value = group[name];
    return isObject(value) ? value : undefined;
  }

  #componentScan(component: string): Scan | undefined {
    const known = this.#scans.get(component);
    if (known !== undefined) return known;
    const value = this.component(component);
    if (value === undefined) return undefined;
    const scan = this.#scan(value, splitKey(component)[1]);
    this.#scans.set(component, scan);
    return scan;
  }

  #scan(subtree: unknown, key: string): Scan {
    const references = new Set<string>();
    const stack: Array<{ value: unknown; key: string | number | undefined }> = [{ value: subtree, key }];
    let values = 0;
    while (stack.length > 0) {
      const { value, key: at } = stack.pop() as { value: unknown; key: string | number | undefined };
      values += 1;
      if (typeof value !== "object" || value === null) continue;
      const ref = Array.isArray(value) ? undefined : (value as JsonObject).$ref;
      if (typeof ref === "string") {
        const tokens = refTokens(ref);
        if (tokens !== undefined && tokens[0] === "components" && tokens.length >= 3)
          references.add(`${tokens[1]}/${tokens[2]}`);
      }
      for (const [member, child] of Object.entries(value))
        if (!isExtensionKey(member, at)) stack.push({ value: child, key: Array.isArray(value) ? Number(member) : member });
    }
    this.#budget.charge(values);
    return { values, references };
  }
}

function splitKey(component: string): [string, string] {
  const slash = component.indexOf("/");
  return [component.slice(0, slash), component.slice(slash + 1)];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
