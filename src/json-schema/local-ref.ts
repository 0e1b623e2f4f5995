import type { JsonValue } from "../json-value.js";
import type { DialectProfile } from "./dialect.js";
import { isJsonObject } from "./json-document.js";
import { formatPointer, parsePointer } from "./json-pointer.js";
import { malformedSchema, unsupportedKeyword } from "./refusal.js";
import { SINGLE_SUBSCHEMAS, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS } from "./subschema-keywords.js";

/** A `$ref` target: the node and its canonical location in the document. */
export interface RefTarget {
  readonly node: JsonValue;
  readonly pointer: string;
}

type Position = "schema" | "container" | "data";

/**
 * Resolves a local `$ref` ("#", "#/$defs/x", with ~0 ~1 and percent escapes)
 * against the document root. Remote, relative and anchor references are
 * refused: the compiler never fetches, and an `$id` elsewhere in the document
 * would change what a fragment means.
 */
export function resolveLocalRef(root: JsonValue, ref: string, refPointer: string, dialect: DialectProfile): RefTarget {
  if (!ref.startsWith("#")) {
    throw unsupportedKeyword(
      "$ref",
      refPointer,
      `only local "#..." references are supported, not ${JSON.stringify(ref)}`,
    );
  }
  const fragment = decodeFragment(ref, refPointer);
  if (fragment !== "" && !fragment.startsWith("/")) {
    throw unsupportedKeyword("$ref", refPointer, `anchor references such as ${JSON.stringify(ref)} are not supported`);
  }
  const tokens = parsePointer(fragment);
  if (tokens === undefined)
    throw malformedSchema(refPointer, `${JSON.stringify(ref)} is not a valid JSON pointer`, "$ref");
  return walk(root, tokens, ref, refPointer, dialect);
}

function decodeFragment(ref: string, refPointer: string): string {
  try {
    // URI fragments are percent-encoded; JSON pointer escapes are applied after decoding.
    return decodeURIComponent(ref.slice(1));
  } catch {
    throw malformedSchema(refPointer, `${JSON.stringify(ref)} has invalid percent-encoding`, "$ref");
  }
}

function walk(
  root: JsonValue,
  tokens: readonly string[],
  ref: string,
  refPointer: string,
  dialect: DialectProfile,
): RefTarget {
  let node: JsonValue = root;
  let position: Position = "schema";
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    const next = member(node, token);
    if (next === undefined) throw malformedSchema(refPointer, `${JSON.stringify(ref)} points at nothing`, "$ref");
    position = nextPosition(position, token, next);
    const pointer = formatPointer(tokens.slice(0, index + 1));
    if (position === "schema" && index < tokens.length - 1) assertNoEmbeddedId(next, pointer, dialect);
    node = next;
  }
  return { node, pointer: formatPointer(tokens) };
}

// Own members only: a token such as "constructor" must not reach Object.prototype.
function member(node: JsonValue, token: string): JsonValue | undefined {
  if (Array.isArray(node)) {
    if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
    return node[Number(token)];
  }
  if (isJsonObject(node) && Object.hasOwn(node, token)) return node[token];
  return undefined;
}

function nextPosition(position: Position, token: string, next: JsonValue): Position {
  if (position === "container") return "schema";
  if (position === "data") return "data";
  if (SUBSCHEMA_MAPS.has(token) || (SUBSCHEMA_LISTS.has(token) && Array.isArray(next))) return "container";
  if (SINGLE_SUBSCHEMAS.has(token)) return "schema";
  return "data";
}

// A pointer that passes through an embedded resource would be resolved against that resource's base URI.
function assertNoEmbeddedId(node: JsonValue, pointer: string, dialect: DialectProfile): void {
  if (!isJsonObject(node)) return;
  for (const keyword of dialect.rootOnly) {
    if (keyword !== "$schema" && typeof node[keyword] === "string" && Object.hasOwn(node, keyword)) {
      throw unsupportedKeyword(keyword, `${pointer}/${keyword}`, "a $ref may not pass through an embedded resource");
    }
  }
}
