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

/**
 * Keys a host may add to the details of an error it makes itself; Forage's own are the named ones
 * of each code below (docs/catalog.md, "Errors").
 */
export interface ExtraErrorDetails {
  readonly [key: string]: unknown;
}

/** One issue of a value that failed its schema: where (a JSON pointer) and what. */
export interface ErrorIssue {
  readonly path: string;
  readonly message: string;
}

/** The machine-readable details of each code: every key is optional, since not every refusal knows it. */
export interface ForageErrorDetails {
  readonly invalid_catalog: ExtraErrorDetails & {
    /** The operation path the catalog refused. */
    readonly path?: string;
    /** The time an MCP server was given to answer, when it did not. */
    readonly deadlineMs?: number;
    /** The HTTP status an MCP server answered with. */
    readonly httpStatus?: number;
  };
  readonly invalid_argument: ExtraErrorDetails & {
    /** The value's schema failures, each with its JSON pointer. */
    readonly issues?: readonly ErrorIssue[];
    /** A JSON Schema dialect Forage does not know. */
    readonly dialect?: string;
    /** Where in a malformed JSON Schema (JSON pointer), the keyword, and what is wrong. */
    readonly pointer?: string;
    readonly keyword?: string;
    readonly reason?: string;
    /** A file argument that cannot be used, and the line of it at fault. */
    readonly file?: string;
    readonly line?: number;
    /** A mountpoint refused, and the process of another forage that holds it. */
    readonly mountpoint?: string;
    readonly pid?: number;
  };
  readonly stale_cursor: ExtraErrorDetails;
  readonly not_found: ExtraErrorDetails & {
    /** The operation path or namespace asked for. */
    readonly path?: string;
  };
  readonly too_large: ExtraErrorDetails & {
    /** The bound that was passed, and by how much where it is counted: bytes, expanded nodes, characters. */
    readonly limit?: number;
    readonly bytes?: number;
    readonly expanded?: number;
    readonly size?: number;
    /** Where (a JSON pointer), and why, for a schema or spec part. */
    readonly pointer?: string;
    readonly reason?: string;
    /** A namespace whose description is over the response bound, and that bound. */
    readonly namespace?: string;
    readonly bound?: number;
  };
  readonly unsupported: ExtraErrorDetails & {
    /** A JSON Schema keyword Forage cannot keep exactly, where (a JSON pointer) and why. */
    readonly keyword?: string;
    readonly pointer?: string;
    readonly reason?: string;
    /** A feature Forage does not read: "yaml-aliases", "fuse", "allow_other". */
    readonly feature?: string;
    /** A `$ref` Forage does not follow. */
    readonly ref?: string;
    /** The version fields of a spec Forage does not read, as the spec gives them. */
    readonly openapi?: unknown;
    readonly swagger?: unknown;
    readonly jsonSchemaDialect?: unknown;
    /** The HTTP status of an MCP server that asks for what Forage does not do (401: OAuth). */
    readonly httpStatus?: number;
  };
  readonly invalid_spec: ExtraErrorDetails & {
    /** The 1-based line of a spec's text at fault. */
    readonly line?: number;
    /** Where in the spec (a JSON pointer). */
    readonly pointer?: string;
    /** A `$ref` that leads nowhere. */
    readonly ref?: string;
  };
  readonly invalid_table: ExtraErrorDetails;
}

/**
 * A typed, expected failure: callers branch on `code`, people read `message`, and `details` has the
 * type of its code (`ForageErrorDetails[code]`), once narrowed by `isForageError(value, code)`.
 */
export class ForageError<Code extends ForageErrorCode = ForageErrorCode> extends Error {
  override readonly name = "ForageError";
  readonly code: Code;
  /** Extra machine-readable detail, such as the JSON pointer of a refused keyword. */
  readonly details: ForageErrorDetails[Code];

  constructor(code: Code, message: string, details: ForageErrorDetails[Code] = {}) {
    super(message);
    this.code = code;
    // A copy, so that the thrower's object stays its own; spreading loses the type parameter.
    this.details = Object.freeze({ ...details }) as ForageErrorDetails[Code];
  }
}

/** True when `value` is a ForageError, of `code` when one is given (its details then have that code's type). */
export function isForageError<Code extends ForageErrorCode>(value: unknown, code: Code): value is ForageError<Code>;
export function isForageError(value: unknown, code?: ForageErrorCode): value is ForageError;
export function isForageError(value: unknown, code?: ForageErrorCode): value is ForageError {
  return value instanceof ForageError && (code === undefined || value.code === code);
}
