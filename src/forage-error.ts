/** Every failure Forage reports on purpose carries one of these codes. */
export type ForageErrorCode =
  | "invalid_catalog"
  | "invalid_argument"
  | "stale_cursor"
  | "not_found"
  | "too_large"
  | "unsupported"
  | "invalid_spec"
  | "invalid_table";

/** A typed, expected failure: callers branch on `code`, people read `message`. */
export class ForageError extends Error {
  override readonly name = "ForageError";
  readonly code: ForageErrorCode;
  /** Extra machine-readable detail, such as the JSON pointer of a refused keyword. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ForageErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = Object.freeze({ ...details });
  }
}

/** True when `value` is a ForageError, with an optional code check. */
export function isForageError(value: unknown, code?: ForageErrorCode): value is ForageError {
  return value instanceof ForageError && (code === undefined || value.code === code);
}
