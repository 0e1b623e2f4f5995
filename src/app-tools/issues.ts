import type { z } from "zod";
import { ForageError } from "../forage-error.js";

/** A zod failure as one "invalid_argument" ForageError whose message names the first issue's path. */
export function invalidArgument(subject: string, error: z.ZodError): ForageError {
  const issues = error.issues.map((issue) => ({ path: toPointer(issue.path), message: issue.message }));
  const [first] = issues;
  const where = first === undefined ? "" : ` at ${first.path === "" ? "/" : first.path}: ${first.message}`;
  return new ForageError("invalid_argument", `${subject} is invalid${where}`, { issues });
}

// JSON pointer, so a path reads the same way as the compiler's schema pointers.
function toPointer(path: readonly PropertyKey[]): string {
  return path.map((segment) => `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
