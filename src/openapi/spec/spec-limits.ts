import { ForageError } from "../../forage-error.js";
import { childPointer } from "../../json-schema/json-pointer.js";
import { MAX_SPEC_DEPTH, MAX_SPEC_NODES } from "../limits.js";

/**
 * Names that would reach or replace an object's prototype if code ever
 * assigned them as keys. Refused as keys anywhere in the spec, before any
 * decoding, so nothing downstream has to be careful with them.
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(["__proto__"]);

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  // Pointers are built only for an error message: building one per node would cost more than the walk.
  readonly parent: Frame | undefined;
  readonly key: string | number;
}

/**
 * Refuses a parsed spec deeper than 32, with more than 50,000 values, holding
 * a prototype-name key, or holding something JSON cannot spell. The walk is
 * iterative and stops at the first breach: every value waiting on the stack
 * counts, so a million-item array is refused before its items are visited.
 */
export function assertSpecLimits(document: unknown): void {
  const stack: Frame[] = [{ value: document, depth: 1, parent: undefined, key: "" }];
  let nodes = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    nodes += 1;
    pushChildren(frame, stack);
    if (nodes + stack.length > MAX_SPEC_NODES) {
      throw new ForageError("too_large", `The spec has more than ${MAX_SPEC_NODES} JSON values`, {
        limit: MAX_SPEC_NODES,
      });
    }
  }
}

function pushChildren(frame: Frame, stack: Frame[]): void {
  const { value, depth } = frame;
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw notJson(frame, "numbers must be finite");
    return;
  }
  if (typeof value !== "object") throw notJson(frame, `a ${typeof value} is not a JSON value`);
  if (depth > MAX_SPEC_DEPTH) {
    const pointer = pointerOf(frame);
    throw new ForageError("too_large", `The spec nests deeper than ${MAX_SPEC_DEPTH} levels at #${pointer}`, {
      limit: MAX_SPEC_DEPTH,
      pointer,
    });
  }
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  // Refuse before pushing: the children of one container can be most of a 2 MiB document.
  if (stack.length + (keys?.length ?? (value as unknown[]).length) > MAX_SPEC_NODES) {
    throw new ForageError("too_large", `The spec has more than ${MAX_SPEC_NODES} JSON values`, {
      limit: MAX_SPEC_NODES,
    });
  }
  if (keys === undefined) {
    const items = value as unknown[];
    for (let index = items.length - 1; index >= 0; index -= 1)
      stack.push({ value: items[index], depth: depth + 1, parent: frame, key: index });
    return;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw notJson(frame, "only plain objects are JSON objects");
  for (let index = keys.length - 1; index >= 0; index -= 1) {
    const key = keys[index] as string;
    if (PROTOTYPE_NAMES.has(key)) {
      const pointer = childPointer(pointerOf(frame), key);
      throw new ForageError(
        "invalid_spec",
        `The spec uses the prototype name "${key}" as a key at #${pointer}; it is refused before decoding`,
        { pointer },
      );
    }
    stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: frame, key });
  }
}

function pointerOf(frame: Frame): string {
  const tokens: Array<string | number> = [];
  for (let current: Frame | undefined = frame; current?.parent !== undefined; current = current.parent)
    tokens.push(current.key);
  return tokens.reverse().reduce<string>((pointer, token) => childPointer(pointer, token), "");
}

function notJson(frame: Frame, problem: string): ForageError {
  const pointer = pointerOf(frame);
  return new ForageError("invalid_spec", `The spec holds a non-JSON value at #${pointer}: ${problem}`, { pointer });
}
