import type { JsonObject, JsonValue } from "../json-value.js";
import type { DialectProfile } from "./dialect.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue } from "./keyword-values.js";
import { malformedSchema } from "./refusal.js";

type AnnotationKind = "string" | "boolean" | "array" | "any";

// Annotations carried into zod metadata, so the Standard JSON Schema projection
// shows them. Others ($comment, xml, externalDocs, discriminator, x-*) are
// accepted but not carried: they say nothing a caller of the validator needs.
const CARRIED: readonly (readonly [string, AnnotationKind])[] = [
  ["title", "string"],
  ["description", "string"],
  ["default", "any"],
  ["examples", "array"],
  ["deprecated", "boolean"],
  ["readOnly", "boolean"],
  ["writeOnly", "boolean"],
];

/** The node's annotations as zod metadata, or undefined when it has none. They never constrain. */
export function collectAnnotations(
  node: JsonObject,
  pointer: string,
  dialect: DialectProfile,
): Record<string, JsonValue> | undefined {
  // Run for every node of every schema, mostly before V8 optimizes it: indexed, without for…of or
  // destructuring (each allocates an iterator's results there), and no object for a node without
  // annotations (most of them): together a twentieth of what a 5,000-tool folder's intake allocated.
  let meta: Record<string, JsonValue> | undefined;
  for (let index = 0; index < CARRIED.length; index += 1) {
    const carried = CARRIED[index] as readonly [string, AnnotationKind];
    const keyword = carried[0];
    const kind = carried[1];
    const value = keywordValue(node, keyword);
    if (value === undefined) continue;
    assertKind(value, kind, keyword, pointer);
    meta ??= {};
    meta[keyword] = value;
  }
  // OpenAPI's singular `example` is the same kind of annotation as `examples`.
  const example = dialect.extensions ? keywordValue(node, "example") : undefined;
  if (example !== undefined) {
    meta ??= {};
    meta.example = example;
  }
  return meta;
}

function assertKind(value: JsonValue, kind: AnnotationKind, keyword: string, pointer: string): void {
  const ok =
    kind === "any" ||
    (kind === "array" && Array.isArray(value)) ||
    (kind === "string" && typeof value === "string") ||
    (kind === "boolean" && typeof value === "boolean");
  if (!ok)
    throw malformedSchema(
      childPointer(pointer, keyword),
      `${keyword} must be ${kind === "array" ? "an array" : `a ${kind}`}`,
      keyword,
    );
}
