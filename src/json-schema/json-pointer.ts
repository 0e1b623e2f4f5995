/** RFC 6901 helpers. Pointers here are plain strings: "" is the root, "/a/0" a child. */

/** Appends one reference token to a pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(String(token))}`;
}

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string): string {
  // Most tokens (property names, indexes) have neither: the compiler spells a pointer for every subschema.
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Splits a pointer into unescaped tokens, or returns undefined when an escape is invalid. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split("/")) {
    // Only ~0 and ~1 are escapes; any other tilde sequence is not a valid pointer.
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(raw.replaceAll("~1", "/").replaceAll("~0", "~"));
  }
  return tokens;
}

/** Joins unescaped tokens back into a canonical pointer. */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join("");
}

/**
 * The unescaped tokens of a local `$ref` such as "#/components/schemas/Pet",
 * or undefined when it is not a JSON-pointer fragment (e.g. "#anchor") or its
 * escapes are invalid. Fragments are percent-decoded first, as URI fragments.
 */
export function refTokens(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return parsePointer(fragment);
}

/** The own member at `token`, never an inherited one such as "constructor". */
export function ownMember(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
  if (typeof node === "object" && node !== null && Object.hasOwn(node, token))
    return (node as Record<string, unknown>)[token];
  return undefined;
}

/** Follows `tokens` from `root` through own members; undefined when a step is missing. */
export function resolveTokens(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const token of tokens) {
    node = ownMember(node, token);
    if (node === undefined) return undefined;
  }
  return node;
}
