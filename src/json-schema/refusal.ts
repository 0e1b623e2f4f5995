import { ForageError } from "../forage-error.js";

/** A keyword the compiler cannot preserve exactly: code "unsupported", naming keyword and pointer. */
export function unsupportedKeyword(keyword: string, pointer: string, reason: string): ForageError<"unsupported"> {
  return new ForageError(
    "unsupported",
    `JSON Schema keyword "${keyword}" at ${displayPointer(pointer)} is unsupported: ${reason}`,
    { keyword, pointer, reason },
  );
}

/** A schema that breaks its dialect's grammar: code "invalid_argument". */
export function malformedSchema(pointer: string, problem: string, keyword?: string): ForageError<"invalid_argument"> {
  return new ForageError("invalid_argument", `Malformed JSON Schema at ${displayPointer(pointer)}: ${problem}`, {
    pointer,
    reason: problem,
    ...(keyword === undefined ? {} : { keyword }),
  });
}

/** A schema over one of the compiler's size budgets: code "too_large". */
export function schemaTooLarge(problem: string, limit: number, pointer?: string): ForageError<"too_large"> {
  const where = pointer === undefined ? "" : ` at ${displayPointer(pointer)}`;
  return new ForageError("too_large", `JSON Schema refused${where}: ${problem} (limit ${limit})`, {
    limit,
    reason: problem,
    ...(pointer === undefined ? {} : { pointer }),
  });
}

// The empty pointer names the root; people read "#" more easily than an empty string.
function displayPointer(pointer: string): string {
  return `#${pointer}`;
}
