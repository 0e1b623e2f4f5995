/** Names that would reach the prototype chain or make `env.x` a thenable (as src/catalog/operation-path.ts refuses). */
const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), "then"]);

/**
 * A tag or path segment spelled as a namespace segment: every run of characters other than
 * ASCII letters, digits and `_` becomes one `_` (`code-scanning` → `code_scanning`), a leading
 * digit gets a `_` before it, and a reserved name a `_` after it. The same text always gives
 * the same name, so namespaces stay stable across runs; two texts that give one name share it.
 */
export function namespaceSegment(text: string): string {
  const spelled = text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  const named = spelled === "" ? "untitled" : /^[0-9]/.test(spelled) ? `_${spelled}` : spelled;
  return RESERVED.has(named) ? `${named}_` : named;
}
