import { MAX_PATH_LENGTH, MAX_PATH_SEGMENTS } from "./limits.js";

/** ASCII identifiers without `$`: `$` is reserved to join segments in generated type aliases. */
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names that would reach the prototype chain or make `env.x` a thenable. */
const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), "then"]);

/** Why `path` is not a valid operation path, or undefined when it is. */
export function pathProblem(path: unknown): string | undefined {
  if (typeof path !== "string") return "the path is not a string";
  if (path.length > MAX_PATH_LENGTH) return `the path is longer than ${MAX_PATH_LENGTH} characters`;
  const segments = path.split(".");
  if (segments.length < 2) return "a path needs at least two dot-separated segments (namespace.name)";
  if (segments.length > MAX_PATH_SEGMENTS) return `a path has at most ${MAX_PATH_SEGMENTS} segments`;
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) return `segment ${JSON.stringify(segment)} is not an ASCII identifier without "$"`;
    if (RESERVED_SEGMENTS.has(segment))
      return `segment ${JSON.stringify(segment)} is reserved (an Object.prototype member or "then")`;
  }
  return undefined;
}

/** The namespace of a path: its first segment. */
export function namespaceOf(path: string): string {
  const dot = path.indexOf(".");
  return dot === -1 ? path : path.slice(0, dot);
}

/**
 * The namespace that holds an operation directly: its path without the last segment (`a.b` for
 * `a.b.c`), the directory its files sit in; "" for a path without a dot, which no valid path is.
 */
export function enclosingNamespaceOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf(".")));
}

/** Compares by UTF-16 code units, never by locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `path` lies under `namespace` (nested ones included), segment-wise. */
export function isUnderNamespace(path: string, namespace: string): boolean {
  return path.length > namespace.length && path.startsWith(namespace) && path.charCodeAt(namespace.length) === 46; // "."
}
