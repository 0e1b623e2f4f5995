import { MAX_METHOD_NAME_LENGTH } from "../limits.js";

/**
 * Names a generated method may never take: Forage's own surface ("describe",
 * "search"), "then" (a method table with it would be awaited as a thenable),
 * and every member of Object.prototype plus "prototype" (they would shadow or
 * reach an object's prototype).
 */
export const RESERVED_METHOD_NAMES: ReadonlySet<string> = new Set([
  "describe",
  "search",
  "then",
  "prototype",
  ...Object.getOwnPropertyNames(Object.prototype),
]);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True for a usable generated method name: an ASCII identifier without `$`, at most 64 long, not reserved. */
export function isMethodName(name: string): boolean {
  return IDENTIFIER.test(name) && name.length <= MAX_METHOD_NAME_LENGTH && !RESERVED_METHOD_NAMES.has(name);
}

/**
 * The sanitized name an operation asks for: its operationId, else method and
 * path ("get /pets/{id}" → "get_pets_id"). Runs of other characters become
 * "_"; "$" is excluded because Forage uses it to separate path segments in
 * generated type names.
 */
export function baseMethodName(operationId: unknown, method: string, path: string): string {
  const source =
    typeof operationId === "string" && operationId.trim() !== "" ? operationId : `${method.toLowerCase()} ${path}`;
  let name = source.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  if (name === "") name = `${method.toLowerCase()}_operation`;
  if (/^[0-9]/.test(name)) name = `op_${name}`;
  return name.slice(0, MAX_METHOD_NAME_LENGTH - 4).replace(/_+$/, "");
}

/** One operation asking for a name. */
export interface NameRequest {
  readonly method: string;
  readonly path: string;
  readonly operationId: unknown;
}

// Fixed method order for ties on the same path, so suffixes never depend on document order.
const METHOD_ORDER = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"];

/**
 * Unique names for every request, keyed "METHOD path". Requests are taken in
 * path order (by UTF-16 code unit), then method order; the first keeps its
 * base name, later ones get "_2", "_3", ... Reserved names count as taken.
 * Suffixes can change when the spec changes; selection is by method and path.
 */
export function assignMethodNames(requests: readonly NameRequest[]): Map<string, string> {
  const ordered = [...requests].sort(compareRequests);
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const request of ordered) {
    const name = freeMethodName(baseMethodName(request.operationId, request.method, request.path), taken);
    taken.add(name);
    names.set(operationKey(request.method, request.path), name);
  }
  return names;
}

/** `base`, or the first of `base_2`, `base_3`, ... that is neither taken nor reserved. */
export function freeMethodName(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  for (let suffix = 2; taken.has(name) || RESERVED_METHOD_NAMES.has(name); suffix += 1) name = `${base}_${suffix}`;
  return name;
}

/** The key of an operation: "GET /pets". */
export function operationKey(method: string, path: string): string {
  return `${method} ${path}`;
}

function compareRequests(left: NameRequest, right: NameRequest): number {
  if (left.path !== right.path) return left.path < right.path ? -1 : 1;
  return METHOD_ORDER.indexOf(left.method) - METHOD_ORDER.indexOf(right.method);
}
