import { ForageError } from "../forage-error.js";

/**
 * A source that cannot be loaded: the message names it (its path, or `mcp:` and its command
 * line or URL) and says why in one line. `usage` marks a mistake in how it was named (the CLI
 * exits 2 for those, 1 for the rest).
 */
export class SourceError extends Error {
  override readonly name = "SourceError";
  constructor(
    /** The source as messages name it: see sourceLabel. */
    readonly source: string,
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** One line for a person: a ForageError by its message and code, anything else by its message's first line. */
export function failureLine(error: unknown): string {
  if (error instanceof ForageError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}
