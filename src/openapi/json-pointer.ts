/** RFC 6901 pointers as plain strings: "" is the root, "/paths/~1pets" a child. */

/** Appends one reference token, escaping `~` and `/`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** Joins unescaped tokens into a pointer. */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((token) => childPointer("", token)).join("");
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
  if (fragment === "") return [];
  if (!fragment.startsWith("/")) return undefined;
  const tokens: string[] = [];
  for (const raw of fragment.slice(1).split("/")) {
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(raw.replaceAll("~1", "/").replaceAll("~0", "~"));
  }
  return tokens;
}

/** The own member at `token`, never an inherited one such as "constructor". */
export function ownMember(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
  if (typeof node === "object" && node !== null && Object.hasOwn(node, token)) return (node as Record<string, unknown>)[token];
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
