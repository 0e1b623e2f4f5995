import { ForageError } from "../forage-error.js";
import { pathProblem } from "./operation-path.js";

/**
 * Matches operation paths against a host's bound patterns: an exact path,
 * `*` within a segment (`apps.bazaar.*`, `files.read*`), or a last segment
 * `**` for any depth (`apps.bazaar.**`).
 */
export function boundMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (!Array.isArray(patterns) || patterns.some((pattern) => typeof pattern !== "string")) {
    throw new ForageError("invalid_argument", "bound must be an array of operation path patterns");
  }
  const exact = new Set<string>();
  const expressions: RegExp[] = [];
  for (const pattern of patterns) {
    if (pattern.includes("*")) expressions.push(patternExpression(pattern));
    else if (pathProblem(pattern) === undefined) exact.add(pattern);
    else
      throw new ForageError(
        "invalid_argument",
        `bound pattern ${JSON.stringify(pattern)} is not an operation path: ${pathProblem(pattern) as string}`,
      );
  }
  return (path) => exact.has(path) || expressions.some((expression) => expression.test(path));
}

function patternExpression(pattern: string): RegExp {
  const segments = pattern.split(".");
  const parts = segments.map((segment, index) => {
    if (segment === "**" && index === segments.length - 1) return "[A-Za-z0-9_.]+";
    if (!/^[A-Za-z0-9_*]+$/.test(segment) || segment.includes("**")) {
      throw new ForageError(
        "invalid_argument",
        `bound pattern ${JSON.stringify(pattern)}: segment ${JSON.stringify(segment)} is not an identifier with *, or a last **`,
      );
    }
    return segment.replace(/\*/g, "[A-Za-z0-9_]*");
  });
  return new RegExp(`^${parts.join("\\.")}$`);
}
