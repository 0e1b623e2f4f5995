import type { JsonObject } from "../json-value.js";
import type { DialectProfile } from "./dialect.js";
import { childPointer } from "./json-pointer.js";
import { unsupportedKeyword } from "./refusal.js";

// Known keywords the compiler refuses, with a reason a schema author can act on.
const REFUSAL_REASONS: ReadonlyMap<string, string> = new Map([
  ["pattern", "regular expressions are not compiled"],
  ["patternProperties", "regular expressions are not compiled"],
  ["format", "format constraints are not supported"],
  ["not", "negated schemas are not supported"],
  ["if", "conditional schemas are not supported"],
  ["then", "conditional schemas are not supported"],
  ["else", "conditional schemas are not supported"],
  ["dependencies", "property dependencies are not supported"],
  ["dependentRequired", "property dependencies are not supported"],
  ["dependentSchemas", "property dependencies are not supported"],
  ["propertyNames", "property-name schemas are not supported"],
  ["contains", "contains is not supported"],
  ["minContains", "contains is not supported"],
  ["maxContains", "contains is not supported"],
  ["unevaluatedItems", "unevaluated keywords are not supported"],
  ["unevaluatedProperties", "unevaluated keywords are not supported"],
  ["$dynamicRef", "dynamic references are not supported"],
  ["$dynamicAnchor", "dynamic references are not supported"],
  ["$recursiveRef", "dynamic references are not supported"],
  ["$recursiveAnchor", "dynamic references are not supported"],
  ["$anchor", "anchors are not supported; use a JSON pointer $ref"],
  ["$vocabulary", "custom vocabularies are not supported"],
  ["contentEncoding", "content keywords are not supported"],
  ["contentMediaType", "content keywords are not supported"],
  ["contentSchema", "content keywords are not supported"],
  ["nullable", 'nullable is an OpenAPI 3.0 keyword; use a "null" type'],
]);

/**
 * Refuses every keyword of `node` that the dialect does not let the compiler
 * preserve. Unknown keywords are refused too: silently ignoring one could
 * widen a constraint its author meant.
 */
export function assertKeywordsSupported(node: JsonObject, pointer: string, dialect: DialectProfile): void {
  for (const keyword of Object.keys(node)) {
    const reason = refusalReason(keyword, pointer, dialect);
    if (reason !== undefined) throw unsupportedKeyword(keyword, childPointer(pointer, keyword), reason);
  }
}

function refusalReason(keyword: string, pointer: string, dialect: DialectProfile): string | undefined {
  if (dialect.constraints.has(keyword) || dialect.annotations.has(keyword)) return undefined;
  if (dialect.rootOnly.has(keyword)) {
    // A nested $id starts a new resource and changes what "#/..." means below it.
    return pointer === "" ? undefined : "only allowed at the schema root";
  }
  if (dialect.extensions && keyword.startsWith("x-")) return undefined;
  const known = REFUSAL_REASONS.get(keyword);
  if (known !== undefined) return known;
  return `unknown keyword in the ${dialect.name} dialect`;
}
