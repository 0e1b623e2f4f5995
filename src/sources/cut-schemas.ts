import { childPointer } from "../json-schema/json-pointer.js";
import { SINGLE_SUBSCHEMAS, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS } from "../json-schema/subschema-keywords.js";
import type { JsonObject, JsonSchema, JsonValue } from "../json-value.js";
import { MAX_UNVALIDATED_SCHEMA_BYTES, notCarriedSchema } from "../unvalidated-schema-bound.js";

/** An operation's input and output schemas, as shown. */
export interface SchemaSides {
  readonly input: JsonSchema;
  readonly output?: JsonSchema;
}

/** The schemas within the bound, and each cut one named by its side and pointer (`input #/properties/body`). */
export interface CutSchemas extends SchemaSides {
  readonly cut: readonly string[];
}

/** A place in the copy being built that holds a schema: a note until the schema is taken. */
interface Slot {
  readonly schema: JsonObject;
  readonly name: string;
  readonly note: number;
  readonly put: (schema: JsonValue) => void;
}

/**
 * The schemas of an operation the catalog refuses on its own, within MAX_UNVALIDATED_SCHEMA_BYTES
 * (docs/mount.md, "What a not-validated operation carries"): as they are when they fit, else taken
 * breadth first from both roots, each subschema with its own keywords, and one that would take the
 * JSON text past the bound carried as any value (notCarriedSchema), naming where it is in the source's
 * schema of `operation` ("POST /pets", a tool's name). The notes count in the bound, so the text fits it.
 */
export function cutSchemas(sides: SchemaSides, operation: string): CutSchemas {
  const whole = bytesOf(sides.input) + (sides.output === undefined ? 0 : bytesOf(sides.output));
  if (whole <= MAX_UNVALIDATED_SCHEMA_BYTES) return { ...sides, cut: [] };
  const copy: Record<string, JsonValue> = {};
  const queue: Slot[] = [];
  const enqueue = (schema: JsonValue, name: string, put: (schema: JsonValue) => void): void => {
    const note = notCarriedSchema(`${operation} (${name})`);
    const size = bytesOf(note);
    // A schema no larger than its note (a boolean, a short leaf) stays whole: cutting it would cost more.
    if (!isObject(schema) || bytesWithin(schema, size)) {
      put(schema);
      return;
    }
    put(note);
    queue.push({ schema, name, note: size, put });
  };
  enqueue(sides.input, "input #", (schema) => (copy.input = schema));
  if (sides.output !== undefined) enqueue(sides.output, "output #", (schema) => (copy.output = schema));
  // Each root as it stands now: its note, or itself when it is no larger.
  let bytes = Object.values(copy).reduce<number>((sum, root) => sum + bytesOf(root), 0);
  const cut: string[] = [];
  for (let next = 0; next < queue.length; next += 1) {
    const slot = queue[next] as Slot;
    const queued = queue.length;
    // Its own keywords, each subschema a note in turn: what replacing its note with it costs.
    const taken = shallowWithNotes(slot, enqueue);
    const size = bytesOf(taken);
    if (bytes - slot.note + size <= MAX_UNVALIDATED_SCHEMA_BYTES) {
      slot.put(taken);
      bytes += size - slot.note;
    } else {
      queue.length = queued;
      cut.push(slot.name);
    }
  }
  return {
    input: copy.input as JsonSchema,
    ...(copy.output === undefined ? {} : { output: copy.output as JsonSchema }),
    cut,
  };
}

/**
 * A copy of the slot's schema whose subschemas are notes, each queued to be taken in its turn (the caller
 * drops them from the queue if the copy does not fit).
 */
function shallowWithNotes(
  slot: Slot,
  enqueue: (schema: JsonValue, name: string, put: (schema: JsonValue) => void) => void,
): JsonObject {
  const taken: Record<string, JsonValue> = {};
  for (const [keyword, value] of Object.entries(slot.schema)) {
    const name = childPointer(slot.name, keyword);
    if (SUBSCHEMA_MAPS.has(keyword) && isObject(value)) {
      const map: Record<string, JsonValue> = {};
      for (const [key, schema] of Object.entries(value)) {
        enqueue(schema, childPointer(name, key), (kept) => (map[key] = kept));
      }
      taken[keyword] = map;
    } else if (SUBSCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      const list: JsonValue[] = [];
      for (const [index, schema] of value.entries()) {
        enqueue(schema, childPointer(name, index), (kept) => (list[index] = kept));
      }
      taken[keyword] = list;
    } else if (SINGLE_SUBSCHEMAS.has(keyword) && isObject(value)) {
      enqueue(value, name, (kept) => (taken[keyword] = kept));
    } else {
      taken[keyword] = value as JsonValue;
    }
  }
  return taken;
}

/** Whether the JSON text of `value` is at most `limit` bytes, found without writing more than that much of it. */
function bytesWithin(value: JsonValue, limit: number): boolean {
  let left = limit;
  const walk = (node: JsonValue): boolean => {
    if (typeof node !== "object" || node === null) {
      left -= bytesOf(node);
      return left >= 0;
    }
    const entries: [string | undefined, JsonValue][] = Array.isArray(node)
      ? node.map((item) => [undefined, item])
      : Object.entries(node);
    // Brackets, then a comma between members, and each key with its colon.
    left -= 2 + Math.max(0, entries.length - 1);
    for (const [key, item] of entries) {
      if (key !== undefined) left -= bytesOf(key) + 1;
      if (left < 0 || !walk(item)) return false;
    }
    return left >= 0;
  };
  return walk(value);
}

function bytesOf(value: JsonValue): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
