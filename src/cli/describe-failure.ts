import { ForageError } from "../forage-error.js";
import { CliError } from "./cli-error.js";

/** One line for a person: expected failures by their message, anything else by its name and message. */
export function describeFailure(error: unknown): string {
  if (error instanceof ForageError) return `${error.message} (${error.code})`;
  if (error instanceof CliError) return error.message;
  if (error instanceof Error) return error.message.split("\n")[0] ?? error.name;
  return String(error);
}
