import type { JsonValue } from "../../json-value.js";
import { jsonMediaTypes } from "./json-media.js";
import { normalizeSchema } from "./normalized-schema.js";

/**
 * The schema of the declared JSON success bodies: every 2xx (or "2XX")
 * response's JSON media schema, combined with anyOf when there are several.
 * Undefined when no JSON success body is declared, or when one declares no
 * schema (it then constrains nothing, and the execution owner's bounded JSON
 * decoder is the only check).
 */
export function readSuccessSchema(responses: unknown): JsonValue | undefined {
  if (!isRecord(responses)) return undefined;
  const schemas: unknown[] = [];
  for (const status of Object.keys(responses).filter(isSuccessStatus).sort()) {
    const content = isRecord(responses[status]) ? (responses[status] as Record<string, unknown>).content : undefined;
    if (!isRecord(content)) continue;
    for (const mediaType of jsonMediaTypes(content)) {
      const media = content[mediaType];
      const schema = isRecord(media) ? media.schema : undefined;
      // No schema, or the schema `true`, constrains nothing.
      if (schema === undefined || schema === true) return undefined;
      if (!schemas.includes(schema)) schemas.push(schema);
    }
  }
  if (schemas.length === 0) return undefined;
  if (schemas.length === 1) return normalizeSchema(schemas[0]);
  return { anyOf: schemas.map(normalizeSchema) };
}

/** A 2xx status key ("200", "2XX"): the responses intake reads. */
export function isSuccessStatus(status: string): boolean {
  return /^2([0-9]{2}|XX)$/i.test(status);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
