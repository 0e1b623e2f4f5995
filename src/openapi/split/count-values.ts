import { ForageError } from "../../forage-error.js";

/**
 * The JSON values in a parsed document, counted iteratively, stopping once past `limit` (so a
 * document far over it costs no more than the limit), and refusing one nested deeper than
 * `maxDepth`. Every value counted is a step of the split's work.
 */
export function countValuesUpTo(document: unknown, limit: number, maxDepth = Number.POSITIVE_INFINITY): number {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: document, depth: 1 }];
  let values = 0;
  while (stack.length > 0 && values <= limit) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    values += 1;
    if (typeof value !== "object" || value === null) continue;
    if (depth > maxDepth)
      throw new ForageError("too_large", `The spec nests deeper than ${maxDepth} levels`, { limit: maxDepth });
    for (const child of Array.isArray(value) ? value : Object.values(value))
      stack.push({ value: child, depth: depth + 1 });
  }
  return values + stack.length;
}
