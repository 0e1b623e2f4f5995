import { refTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject, JsonValue } from "../../json-value.js";
import { isExtensionKey } from "../extension-keys.js";
import type { WorkBudget } from "./work-budget.js";

/** What a subtree holds and references: about the bytes of its JSON text, and the components it names (`schemas/Pet`). */
interface Scan {
  readonly bytes: number;
  readonly references: ReadonlySet<string>;
}

/** The components an operation carries, those cut for the bound, and the bytes it carries. */
export interface Closure {
  readonly bytes: number;
  readonly kept: ReadonlySet<string>;
  readonly cut: ReadonlySet<string>;
}

/**
 * The components a subtree reaches, transitively, and about the bytes of JSON text they hold,
 * counted without expanding a single reference: each component is scanned once per split
 * (its bytes and the components it names, memoized), so measuring every left-out operation
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

  /**
   * The components `subtree` reaches ("kind/name"), breadth first, and the bytes of the subtree
   * and the kept ones together. A component schema that would take the bytes past `limit` is
   * cut (its own references not followed); every other kind of component is always kept, as it
   * is inlined where it is used, so `bytes` may still pass `limit`.
   */
  of(subtree: unknown, key: string, limit: number): Closure {
    const own = this.#scan(subtree, key);
    const kept = new Set<string>();
    const cut = new Set<string>();
    const queue = [...own.references];
    let bytes = own.bytes;
    for (let next = 0; next < queue.length; next += 1) {
      const component = queue[next] as string;
      if (kept.has(component) || cut.has(component)) continue;
      const scan = this.#componentScan(component);
      if (scan === undefined) continue;
      if (component.startsWith("schemas/") && bytes + scan.bytes > limit) {
        cut.add(component);
        continue;
      }
      kept.add(component);
      bytes += scan.bytes;
      queue.push(...scan.references);
    }
    this.#budget.charge(queue.length + 1);
    return { bytes, kept, cut };
  }

  /** The component itself ("schemas/Pet"), or undefined when the spec has none of that name. */
  component(component: string): JsonValue | undefined {
    const [kind, name] = splitKey(component);
    const group = this.#components[kind];
    if (!isObject(group) || !Object.hasOwn(group, name)) return undefined;
    const value = group[name];
    return value as JsonValue;
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
    let bytes = 0;
    let steps = 0;
    while (stack.length > 0) {
      const { value, key: at } = stack.pop() as { value: unknown; key: string | number | undefined };
      steps += 1;
      if (typeof value !== "object" || value === null) {
        bytes += jsonBytes(value);
        continue;
      }
      bytes += 2;
      const ref = Array.isArray(value) ? undefined : (value as JsonObject).$ref;
      if (typeof ref === "string") {
        const tokens = refTokens(ref);
        if (tokens !== undefined && tokens[0] === "components" && tokens.length >= 3)
          references.add(`${tokens[1]}/${tokens[2]}`);
      }
      for (const [member, child] of Object.entries(value)) {
        if (isExtensionKey(member, at)) continue;
        // A member's name, quotes, colon and comma; an item's comma.
        bytes += Array.isArray(value) ? 1 : member.length + 4;
        stack.push({ value: child, key: Array.isArray(value) ? Number(member) : member });
      }
    }
    this.#budget.charge(steps);
    return { bytes, references };
  }
}

/** About the bytes of a scalar's JSON text (a string's escapes aside). */
function jsonBytes(value: unknown): number {
  return typeof value === "string" ? value.length + 2 : String(value).length;
}

function splitKey(component: string): [string, string] {
  const slash = component.indexOf("/");
  return [component.slice(0, slash), component.slice(slash + 1)];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
