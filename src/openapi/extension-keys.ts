/**
 * Specification extensions (`x-*` keys) are documentation for tools, not schemas: a `$ref`
 * inside one is never followed, resolved or counted (docs/intake.md, "Extensions are not
 * followed"). Where a map's keys are names the author chose (properties, headers,
 * components), an `x-` key is a name, not an extension, and is followed as usual. Keys such
 * as `properties` or `headers` can also be property names; reading them as maps errs on the
 * side of following more, which is what intake did before this rule.
 */
const NAME_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "examples",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "webhooks",
  "encoding",
]);

/** True when `key`, a member of an object that sits under `containerKey`, is an extension whose value is never followed. */
export function isExtensionKey(key: string, containerKey: string | number | undefined): boolean {
  return key.startsWith("x-") && !(typeof containerKey === "string" && NAME_MAPS.has(containerKey));
}

/**
 * The same test on a JSON pointer's tokens (as the reference resolver gives a path): true when
 * any member on the way is an extension, so nothing below it is followed.
 */
export function isUnderExtension(tokens: readonly string[]): boolean {
  return tokens.some((token, index) => isExtensionKey(token, index === 0 ? undefined : tokens[index - 1]));
}
