/** A failure the CLI reports as one line and a non-zero exit, never a stack trace. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    /** 2 for a usage mistake, 1 for anything else. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
