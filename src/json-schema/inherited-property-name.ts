// Such names would validate but vanish from the described inputSchema, so describe would not
// tell the truth: sources refuse schemas that use them (catalog files, MCP tools).
import { ForageError } from "../forage-error.js";
import { MAX_DOCUMENT_DEPTH } from "./limits.js";

/**
 * Deepest nesting the walk follows: a schema deeper than MAX_DOCUMENT_DEPTH is refused by the compiler
 * anyway, and the room beyond it is for the file around the schemas (a catalog file's operations). A
 * deeper document is refused here, with a typed error, rather than running the walk out of stack.
 */
export const MAX_WALKED_DEPTH = 4 * MAX_DOCUMENT_DEPTH;

/** Object.prototype's own names ("__proto__" among them): what `Object.hasOwn(Object.prototype, name)` tests, as a set. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The keys from the walk's start down to a name found, innermost first (pushed while the walk unwinds). */
interface Found {
  readonly name: string;
  readonly keys: string[];
}

/**
 * The first `properties` key or `required` entry named like an Object.prototype member, or "__proto__" anywhere.
 * Throws `too_large` for a document nested deeper than MAX_WALKED_DEPTH.
 */
export function inheritedPropertyName(node: unknown, at: string): { name: string; at: string } | undefined {
  const found = findInherited(node, 0);
  return found === undefined ? undefined : { name: found.name, at: [at, ...found.keys.reverse()].join("/") };
}

// Every value of every tool schema is walked at each start (20,000 tools' schemas: 0.13 s as first written), so
// the walk keeps no path on the way down, spelling one only for the name found, and reads keys with
// for…in: a parsed JSON object has no enumerable inherited keys, and no array of keys is made per object.
function findInherited(node: unknown, depth: number): Found | undefined {
  if (node === null || typeof node !== "object") return undefined;
  if (depth === MAX_WALKED_DEPTH) {
    throw new ForageError("too_large", `the document is nested deeper than ${MAX_WALKED_DEPTH} levels`, {
      limit: MAX_WALKED_DEPTH,
    });
  }
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      const inner = findInherited(node[index], depth + 1);
      if (inner !== undefined) return within(inner, String(index));
    }
    return undefined;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    if (key === "__proto__") return { name: key, keys: [key] };
    const value: unknown = (node as Record<string, unknown>)[key];
    const member = memberNamed(key, value);
    if (member !== undefined) return member;
    const inner = findInherited(value, depth + 1);
    if (inner !== undefined) return within(inner, key);
  }
  return undefined;
}

/** An object member's name as a `properties` key (located at the key) or a `required` entry (at `required`). */
function memberNamed(key: string, value: unknown): Found | undefined {
  if (key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const name in value)
      if (Object.hasOwn(value, name) && OBJECT_MEMBERS.has(name)) return { name, keys: [name, key] };
  }
  if (key === "required" && Array.isArray(value)) {
    for (const entry of value)
      if (typeof entry === "string" && OBJECT_MEMBERS.has(entry)) return { name: entry, keys: [key] };
  }
  return undefined;
}

function within(found: Found, key: string): Found {
  found.keys.push(key);
  return found;
}
