import { ForageError } from "../../forage-error.js";
import { childPointer } from "../../json-schema/json-pointer.js";
import { MAX_SPEC_DEPTH, MAX_SPEC_NODES } from "../limits.js";

/**
 * Names that would reach or replace an object's prototype if code ever
 * assigned them as keys. Refused as keys anywhere in the spec, before any
 * decoding, so nothing downstream has to be careful with them.
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(["__proto__"]);

/**
 * Refuses a parsed spec deeper than 32, with more than 50,000 values, holding
 * a prototype-name key, or holding something JSON cannot spell. The walk stops
 * at the first breach: every value waiting to be visited counts, so a
 * million-item array is refused before its items are visited.
 */
export function assertSpecLimits(document: unknown): void {
  new LimitsWalk().visit(document, 1);
}

/**
 * One walk, depth first in document order. Recursive: a container deeper than
 * MAX_SPEC_DEPTH is refused before its members are visited, so the recursion is
 * never deeper than that, and it allocates nothing per value (a frame object
 * per value, as an explicit stack needs, was most of what the walk cost).
 */
// Loops are indexed, not for…of: the walk visits every value of every document a source reads,
// mostly before V8 optimizes it, where each iteration of for…of allocates the iterator's result.
class LimitsWalk {
  #nodes = 0;
  // Values seen in a container but not yet visited: with #nodes, what the bound counts.
  #waiting = 0;
  // The keys down to the value being visited; its pointer is spelled only for an error.
  readonly #tokens: (string | number)[] = [];

  visit(value: unknown, depth: number): void {
    this.#nodes += 1;
    if (value === null || typeof value === "string" || typeof value === "boolean") return;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw this.#notJson("numbers must be finite");
      return;
    }
    if (typeof value !== "object") throw this.#notJson(`a ${typeof value} is not a JSON value`);
    if (depth > MAX_SPEC_DEPTH) {
      const pointer = this.#pointer();
      throw new ForageError("too_large", `The spec nests deeper than ${MAX_SPEC_DEPTH} levels at #${pointer}`, {
        limit: MAX_SPEC_DEPTH,
        pointer,
      });
    }
    if (Array.isArray(value)) this.#visitArray(value, depth);
    else this.#visitObject(value, depth);
  }

  #visitArray(items: readonly unknown[], depth: number): void {
    this.#wait(items.length);
    for (let index = 0; index < items.length; index += 1) this.#visitMember(index, items[index], depth);
  }

  #visitObject(value: object, depth: number): void {
    const keys = Object.keys(value);
    // Too many values is refused before what else is wrong with the object, as it always was.
    if (this.#waiting + keys.length > MAX_SPEC_NODES) throw tooManyValues();
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw this.#notJson("only plain objects are JSON objects");
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      if (PROTOTYPE_NAMES.has(key)) {
        const pointer = childPointer(this.#pointer(), key);
        throw new ForageError(
          "invalid_spec",
          `The spec uses the prototype name "${key}" as a key at #${pointer}; it is refused before decoding`,
          { pointer },
        );
      }
    }
    this.#wait(keys.length);
    const record = value as Record<string, unknown>;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      this.#visitMember(key, record[key], depth);
    }
  }

  /** Counts a container's members as waiting, refusing the spec once seen and waiting values pass the bound. */
  #wait(members: number): void {
    this.#waiting += members;
    if (this.#nodes + this.#waiting > MAX_SPEC_NODES) throw tooManyValues();
  }

  #visitMember(key: string | number, member: unknown, depth: number): void {
    this.#waiting -= 1;
    this.#tokens.push(key);
    this.visit(member, depth + 1);
    this.#tokens.pop();
  }

  #pointer(): string {
    return this.#tokens.reduce<string>((pointer, token) => childPointer(pointer, token), "");
  }

  #notJson(problem: string): ForageError {
    const pointer = this.#pointer();
    return new ForageError("invalid_spec", `The spec holds a non-JSON value at #${pointer}: ${problem}`, { pointer });
  }
}

function tooManyValues(): ForageError {
  return new ForageError("too_large", `The spec has more than ${MAX_SPEC_NODES} JSON values`, {
    limit: MAX_SPEC_NODES,
  });
}
