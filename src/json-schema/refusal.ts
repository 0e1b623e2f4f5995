import { ForageError } from "../forage-error.js";

/** A keyword the compiler cannot preserve exactly: code "unsupported", naming keyword and pointer. */
export function unsupportedKeyword(keyword: string, pointer: string, reason: string): ForageError {
  return new ForageError(
    "unsupported",
    `JSON Schema keyword "${keyword}" at ${displayPointer(pointer)} is unsupported: ${reason}`,
    { keyword, pointer, reason },
  );
}

/** A schema that breaks its dialect's grammar: code "invalid_argument". */
export function malformedSchema(pointer: string, problem: string, keyword?: string): ForageError {
  const details: Record<string, unknown> = { pointer, reason: problem };
  if (keyword !== undefined) details.keyword = keyword;
  return new ForageError(
    "invalid_argument",
    `Malformed JSON Schema at ${displayPointer(pointer)}: ${problem}`,
    details,
  );
}

/** A schema over one of the compiler's size budgets: code "too_large". */
export function schemaTooLarge(problem: string, limit: number, pointer?: string): ForageError {
  const where = pointer === undefined ? "" : ` at ${displayPointer(pointer)}`;
  const details: Record<string, unknown> = { limit, reason: problem };
  if (pointer !== undefined) details.pointer = pointer;
  return new ForageError("too_large", `JSON Schema refused${where}: ${problem} (limit ${limit})`, details);
}

// The empty pointer names the root; people read "#" more easily than an empty string.
function displayPointer(pointer: string): string {
  return `#${pointer}`;
}
