/** RFC 6901 helpers. Pointers here are plain strings: "" is the root, "/a/0" a child. */

/** Appends one reference token to a pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapeToken(String(token))}`;
}

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string): string {
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
