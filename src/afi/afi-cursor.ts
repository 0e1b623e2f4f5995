import { createHash } from "node:crypto";
import { afiError } from "./afi-error.js";

/** Cursors are short; anything longer was not issued here. */
const MAX_CURSOR_LENGTH = 1_024;

/**
 * The scope of a cursor: the tree's stamp and the request it pages (operation,
 * path, glob or query). A cursor from another scope is refused, never reused.
 */
export function cursorScope(stamp: string, request: readonly unknown[]): string {
  return createHash("sha256")
    .update(JSON.stringify([stamp, ...request]))
    .digest("base64url")
    .slice(0, 22);
}

/** An opaque cursor: its scope and where the next page begins. */
export function encodeCursor(scope: string, position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ s: scope, p: position })).toString("base64url");
}

/**
 * The position a cursor holds, when it belongs to `scope`; a cursor of another
 * revision or request is `invalid_path`, named `x-forage-reason: "stale_cursor"`.
 */
export function decodeCursor(cursor: unknown, scope: string): readonly unknown[] {
  const decoded = parse(cursor);
  if (decoded === undefined) throw afiError("invalid_path", "the cursor is not one this provider issued");
  if (decoded.s !== scope) {
    throw afiError(
      "invalid_path",
      "the cursor belongs to another revision or request; start again without a cursor",
      undefined,
      { "x-forage-reason": "stale_cursor" },
    );
  }
  return decoded.p;
}

function parse(cursor: unknown): { s: unknown; p: readonly unknown[] } | undefined {
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (value === null || typeof value !== "object") return undefined;
    const { s, p } = value as { s?: unknown; p?: unknown };
    return Array.isArray(p) ? { s, p } : undefined;
  } catch {
    return undefined;
  }
}
