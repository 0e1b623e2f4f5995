import { failureLine, SourceError } from "../sources/source-error.js";
import { CliError } from "./cli-error.js";

/** One line for a person: expected failures by their message, anything else by its name and message. */
export function describeFailure(error: unknown): string {
  if (error instanceof CliError || error instanceof SourceError) return error.message;
  return failureLine(error);
}
