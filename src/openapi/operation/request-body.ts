import type { JsonValue } from "../../json-value.js";
import { boundDescription } from "../text-limits.js";
import { jsonMediaTypes } from "./json-media.js";
import { normalizeSchema } from "./normalized-schema.js";

/** An operation's JSON body as guest input. */
export interface JsonBody {
  readonly contentType: string;
  readonly required: boolean;
  readonly schema: JsonValue;
}

/** The JSON body (null when there is none), or why the body cannot be guest input. */
export type BodyReading =
  | { readonly ok: true; readonly body: JsonBody | null }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads a dereferenced requestBody. A JSON media type (application/json or
 * "+json") is used when offered, whatever else is; a body offered only in
 * other media is unsupported. A JSON body without a schema accepts any JSON,
 * which is exactly what it declares.
 */
export function readJsonBody(requestBody: unknown): BodyReading {
  if (requestBody === undefined) return { ok: true, body: null };
  if (!isRecord(requestBody)) return { ok: false, reason: "the request body is not an object" };
  const content = requestBody.content;
  if (!isRecord(content) || Object.keys(content).length === 0)
    return { ok: false, reason: "the request body declares no media types" };
  const contentType = jsonMediaTypes(content)[0];
  if (contentType === undefined) {
    const offered = Object.keys(content).slice(0, 4).join(", ");
    return {
      ok: false,
      reason: `the request body is only offered as ${offered}; only JSON bodies (application/json or +json) are supported`,
    };
  }
  const media = content[contentType];
  const declared = isRecord(media) && media.schema !== undefined ? normalizeSchema(media.schema) : {};
  return {
    ok: true,
    body: {
      contentType,
      required: requestBody.required === true,
      schema: withDescription(declared, requestBody.description),
    },
  };
}

/** The schema with the request body's description, unless the schema has its own. */
export function withDescription(schema: JsonValue, description: unknown): JsonValue {
  const bounded = boundDescription(description);
  if (bounded === undefined || !isRecord(schema) || schema.description !== undefined) return schema;
  return { ...schema, description: bounded };
}

function isRecord(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
