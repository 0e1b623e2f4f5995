import { ForageError } from "../forage-error.js";
import type { JsonObject, JsonValue } from "../json-value.js";
import { childPointer } from "./json-pointer.js";
import { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES } from "./limits.js";
import { malformedSchema, schemaTooLarge } from "./refusal.js";

/**
 * Checks that `input` is a bounded JSON document and returns its JSON text.
 *
 * Runs before any compilation so a hostile document is refused in time linear
 * in the nodes it was allowed to have: depth and node count stop the walk early.
 * The walk only reads; the text (JSON.stringify's, which the check makes safe to call)
 * is what the compiler keys its validators by and parses its private copy from. A
 * handed-over document is checked by the lighter walk that freezes it, and by the full
 * walk only when that one finds it past a bound, so that it is refused as any other.
 */
export function boundedJsonText(input: unknown): string {
  if (!(isHandedOver(input) && frozenWithinBounds(input as JsonValue))) new BoundedWalker(false).walk(input, 0);
  return JSON.stringify(input);
}

/**
 * Trees that JSON.parse made and that their reader hands to the compiler as they are, promising
 * that nobody changes them afterwards. The compiler adopts such a tree, frozen in place, as its
 * private copy instead of parsing its text again, and checks it with the walk that freezes it:
 * parsed from text, it has no cycle, getter or prototype, and its only possible faults are its
 * bounds and a number JSON.parse read as infinite (`1e400`), which that walk finds too.
 * The reader marks the root it parsed (handOverParsed); one that knows the document's shape passes
 * the mark on to the subtrees it compiles (passOnHandOver), since only a marked tree is adopted.
 */
const handedOver = new WeakSet<object>();

/** Marks `root`, just returned by JSON.parse, as handed over to the compiler (see handedOver). */
export function handOverParsed(root: unknown): void {
  if (typeof root === "object" && root !== null) handedOver.add(root);
}

/** `part`, found anywhere within `root`'s tree, marked as handed over too when `root` is. */
export function passOnHandOver<T>(root: unknown, part: T): T {
  if (isHandedOver(root)) handOverParsed(part);
  return part;
}

function isHandedOver(value: unknown): boolean {
  return typeof value === "object" && value !== null && handedOver.has(value);
}

/**
 * The compiler's private document for `input`, whose text boundedJsonText gave (and so checked):
 * the input itself, frozen in place by that check, when it was handed over; else a frozen copy
 * parsed from its text.
 */
export function adoptedOrCopy(input: unknown, text: string): JsonValue {
  // The root is frozen last, so a frozen root means the whole tree passed the check.
  return isHandedOver(input) && Object.isFrozen(input) ? (input as JsonValue) : frozenCopyOf(text);
}

/**
 * The compiler's private copy of a document whose text boundedJsonText gave: parsed from the
 * text, so the validator never aliases caller-owned objects (enum values, defaults) that the
 * caller could mutate afterwards, and frozen, since the validator's projection shares its values
 * with every holder of the validator. It is checked again as it is frozen: an object with
 * getters could have answered JSON.stringify otherwise than the first walk.
 */
export function frozenCopyOf(text: string): JsonValue {
  const copy = JSON.parse(text) as JsonValue;
  // Parsed from text, the copy holds plain JSON values only, with no cycle and no getter: its bounds
  // are all that can fail, so a lighter walk freezes it, and only a copy past a bound is walked
  // again by the full check, to be refused with the same error and pointer.
  if (!frozenWithinBounds(copy)) new BoundedWalker(true).walk(copy, 0);
  return copy;
}

/** Freezes a value parsed from JSON text, as BoundedWalker(true) does; false as soon as it is past a bound. */
function frozenWithinBounds(root: JsonValue): boolean {
  let nodes = 0;
  const visit = (value: JsonValue, depth: number): boolean => {
    nodes += 1;
    if (nodes > MAX_DOCUMENT_NODES) return false;
    if (typeof value === "number") return Number.isFinite(value);
    if (value === null || typeof value !== "object") return true;
    if (depth + 1 > MAX_DOCUMENT_DEPTH) return false;
    const members: readonly JsonValue[] = Array.isArray(value) ? value : Object.values(value);
    for (const member of members) if (!visit(member, depth + 1)) return false;
    Object.freeze(value);
    return true;
  };
  return visit(root, 0);
}

/** Defines an own enumerable data property, safe for keys such as `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment to "__proto__" would replace the prototype instead of adding a key; for every
  // other key of a plain object it is the same, and much cheaper than defineProperty.
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One walk of a document: its bounds and JSON-ness checked, each object and array frozen when asked. */
class BoundedWalker {
  #nodes = 0;
  // Objects on the current path: meeting one again means the input is cyclic.
  readonly #path = new Set<object>();
  // The keys down to the value being walked; its pointer is spelled only when it is refused.
  readonly #tokens: (string | number)[] = [];

  constructor(readonly freeze: boolean) {}

  walk(value: unknown, depth: number): void {
    this.#nodes += 1;
    if (this.#nodes > MAX_DOCUMENT_NODES) throw schemaTooLarge("the schema has too many nodes", MAX_DOCUMENT_NODES);
    if (value === null || typeof value === "string" || typeof value === "boolean") return;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw malformedSchema(this.#pointer(), "numbers must be finite JSON numbers");
      return;
    }
    if (typeof value !== "object") throw malformedSchema(this.#pointer(), `a ${typeof value} is not a JSON value`);
    if (depth + 1 > MAX_DOCUMENT_DEPTH)
      throw schemaTooLarge("the schema is nested too deeply", MAX_DOCUMENT_DEPTH, this.#pointer());
    if (this.#path.has(value)) {
      const pointer = this.#pointer();
      throw new ForageError("unsupported", `JSON Schema at #${pointer} is cyclic; recursive schemas are unsupported`, {
        pointer,
        reason: "cyclic object graph",
      });
    }
    this.#path.add(value);
    try {
      if (Array.isArray(value)) this.#walkArray(value, depth + 1);
      else this.#walkObject(value, depth + 1);
    } finally {
      this.#path.delete(value);
    }
    if (this.freeze) Object.freeze(value);
  }

  #walkArray(value: readonly unknown[], depth: number): void {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      this.#tokens.push(index);
      // JSON arrays have no holes and no undefined members.
      if (item === undefined) throw malformedSchema(this.#pointer(), "undefined is not a JSON value");
      this.walk(item, depth);
      this.#tokens.pop();
    }
  }

  #walkObject(value: object, depth: number): void {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw malformedSchema(this.#pointer(), "schema objects must be plain JSON objects");
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const member = record[key];
      // JSON.stringify drops undefined members; schemas assembled in code often carry them.
      if (member === undefined) continue;
      this.#tokens.push(key);
      this.walk(member, depth);
      this.#tokens.pop();
    }
  }

  #pointer(): string {
    return this.#tokens.reduce<string>((pointer, token) => childPointer(pointer, token), "");
  }
}
