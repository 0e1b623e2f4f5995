/** The JSON value and JSON Schema document types, shared by every part that reads or writes JSON Schema. */

/** A JSON scalar. */
export type JsonPrimitive = string | number | boolean | null;

/** Any value JSON can spell, as JSON.parse returns it. */
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON Schema document: an object of keywords, or the boolean schemas `true` / `false`. */
export type JsonSchema = boolean | JsonObject;
