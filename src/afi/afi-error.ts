import { TreeError } from "../tree/virtual-tree.js";

/** AFI's error codes (AFI basic/errors); Forage raises all but `conflict` (`unauthorized` only with `--tokens`). */
export type AfiErrorCode =
  | "not_found"
  | "invalid_path"
  | "unsupported"
  | "rate_limited"
  | "internal"
  | "unauthorized"
  | "conflict";

/** The structured AFI `Error` every transport returns (docs/afi.md, "The AFI core"). */
export interface AfiErrorPayload {
  readonly code: AfiErrorCode;
  readonly message: string;
  readonly path?: string;
  /** Seconds; present exactly when `code` is `rate_limited`. */
  readonly retry_after?: number;
  readonly [vendor: `x-${string}`]: unknown;
}

/** A typed AFI failure; transports turn its payload into a tool error or an HTTP status. */
export class AfiError extends Error {
  override readonly name = "AfiError";
  constructor(readonly payload: AfiErrorPayload) {
    super(payload.message);
  }
}

/** Shorthand for an AfiError with a code, a message, the path it concerns and any vendor fields. */
export function afiError(
  code: AfiErrorCode,
  message: string,
  path?: string,
  vendor: Readonly<Record<`x-${string}`, unknown>> = {},
): AfiError {
  return new AfiError({ code, message, ...(path === undefined ? {} : { path }), ...vendor });
}

/**
 * Any failure as an AFI error: a TreeError keeps its code (the tree's `read_only`
 * is AFI's `unsupported`, a write on a provider below level 3); anything else is `internal`.
 */
export function toAfiError(error: unknown): AfiError {
  if (error instanceof AfiError) return error;
  if (error instanceof TreeError) {
    const code = error.code === "read_only" ? "unsupported" : error.code;
    return afiError(code, error.message, error.path);
  }
  return afiError("internal", error instanceof Error ? error.message : String(error));
}
