import { ForageError } from "../forage-error.js";
import { sha256Hex } from "./canonical-json.js";

/**
 * The scope a cursor belongs to: one catalog stamp, one namespace filter and
 * one binding. A cursor from another scope is stale, never silently reused.
 */
export function cursorScope(stamp: string, namespace: string | undefined, bindingKey: string): string {
  return sha256Hex(`${stamp}\u0000${namespace ?? "\u0000all"}\u0000${bindingKey}`).slice(0, 24);
}

/** An opaque cursor for the page starting at `offset`. */
export function encodeCursor(scope: string, offset: number): string {
  return Buffer.from(JSON.stringify({ s: scope, o: offset })).toString("base64url");
}

/** The offset a cursor points at; throws `stale_cursor` when it belongs to another scope. */
export function decodeCursor(cursor: string, scope: string, total: number): number {
  const decoded = parseCursor(cursor);
  if (decoded === undefined) throw notIssued();
  // Scope first: an offset past this listing's end is only meaningful for a cursor of this scope.
  if (decoded.s !== scope) {
    throw new ForageError(
      "stale_cursor",
      "the cursor belongs to another catalog stamp, namespace filter or binding; begin a fresh listing without a cursor",
    );
  }
  if (decoded.o > total) throw notIssued();
  return decoded.o;
}

function notIssued(): ForageError {
  return new ForageError(
    "invalid_argument",
    "the cursor is not one this catalog issued; begin a fresh listing without a cursor",
  );
}

function parseCursor(cursor: string): { s: string; o: number } | undefined {
  if (typeof cursor !== "string" || cursor.length > 256) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (value === null || typeof value !== "object") return undefined;
    const { s, o } = value as { s?: unknown; o?: unknown };
    return typeof s === "string" && Number.isSafeInteger(o) && (o as number) > 0 ? { s, o: o as number } : undefined;
  } catch {
    return undefined;
  }
}
