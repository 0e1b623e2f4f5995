import { ForageError } from "../../forage-error.js";
import type { JsonValue } from "../../json-value.js";
import { PROTOTYPE_NAMES } from "../spec/spec-limits.js";

// Generous bounds for one table row: schemas inside may nest 64 deep (the compiler's limit) under a few wrappers.
const MAX_ROW_DEPTH = 80;
const MAX_TABLE_NODES = 200_000;

/**
 * A private deep copy of untrusted table input as plain JSON, refusing
 * cycles, non-JSON values, over-deep or oversized input and prototype-name
 * keys before anything decodes it.
 */
export class TableJsonCopier {
  #nodes = 0;

  copy(value: unknown, where: string, depth = 0): JsonValue {
    this.#nodes += 1;
    if (this.#nodes > MAX_TABLE_NODES) throw invalidTable(`the table has more than ${MAX_TABLE_NODES} JSON values`);
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw invalidTable(`${where} holds a non-finite number`);
      return value;
    }
    if (typeof value !== "object") throw invalidTable(`${where} holds a ${typeof value}, which is not JSON`);
    if (depth >= MAX_ROW_DEPTH) throw invalidTable(`${where} nests deeper than ${MAX_ROW_DEPTH} levels`);
    if (Array.isArray(value)) return value.map((item, index) => this.copy(item, `${where}[${index}]`, depth + 1));
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw invalidTable(`${where} is not a plain JSON object`);
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value)) {
      if (PROTOTYPE_NAMES.has(key))
        throw invalidTable(`${where} uses the prototype name "${key}" as a key; it is refused before decoding`);
      const member: unknown = (value as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = this.copy(member, `${where}.${key}`, depth + 1);
    }
    return out;
  }
}

/** A table refusal: code "invalid_table". */
export function invalidTable(problem: string): ForageError {
  return new ForageError("invalid_table", `The OpenAPI table is invalid: ${problem}`);
}
