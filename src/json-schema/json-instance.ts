/** Where an instance stops being JSON, and why. */
export interface JsonInstanceProblem {
  readonly path: readonly (string | number)[];
  readonly problem: string;
}

// Each frame links to its parent instead of copying the path, so deep instances stay linear.
interface Step {
  readonly key: string | number;
  readonly parent: Step | undefined;
}

type Frame = { readonly value: unknown; readonly at: Step | undefined } | { readonly leave: object };

/**
 * Finds the first part of `value` that is not JSON: undefined, NaN or
 * Infinity, a function, a Date or other class instance, a sparse array, or a
 * cycle. Compiled validators judge JSON instances only, and refusing anything
 * else up front keeps zod's intersections from meeting values they cannot
 * merge. The walk is iterative because instance depth is caller-controlled.
 */
export function findNonJson(value: unknown): JsonInstanceProblem | undefined {
  const open = new Set<object>();
  const stack: Frame[] = [{ value, at: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if ("leave" in frame) {
      open.delete(frame.leave);
      continue;
    }
    const problem = scalarProblem(frame.value) ?? containerProblem(frame.value, open);
    if (problem !== undefined) return { path: pathOf(frame.at), problem };
    if (typeof frame.value === "object" && frame.value !== null) pushChildren(frame.value, frame.at, open, stack);
  }
  return undefined;
}

function scalarProblem(value: unknown): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
  if (typeof value === "object") return undefined;
  return `${value === undefined ? "undefined" : `a ${typeof value}`} is not a JSON value`;
}

function containerProblem(value: unknown, open: ReadonlySet<object>): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (open.has(value)) return "a cyclic value is not JSON";
  if (Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null ? undefined : "only plain objects are JSON objects";
}

function pushChildren(value: object, at: Step | undefined, open: Set<object>, stack: Frame[]): void {
  open.add(value);
  stack.push({ leave: value });
  if (Array.isArray(value)) {
    // Index loop, not forEach: holes must be seen (as undefined) rather than skipped.
    for (let index = value.length - 1; index >= 0; index -= 1)
      stack.push({ value: value[index], at: { key: index, parent: at } });
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) stack.push({ value: record[key], at: { key, parent: at } });
}

function pathOf(at: Step | undefined): (string | number)[] {
  const path: (string | number)[] = [];
  for (let step = at; step !== undefined; step = step.parent) path.push(step.key);
  return path.reverse();
}
