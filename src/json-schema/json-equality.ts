/**
 * JSON Schema equality (enum, const, uniqueItems): structural, key order does
 * not matter, and numbers compare by value, so 1 and 1.0 are equal while
 * false and 0 are not.
 *
 * Values are reduced to a canonical string so a Set lookup replaces pairwise
 * comparison. The walk is iterative: instance data is untrusted and may be
 * nested far deeper than the call stack allows.
 */

type Task = { readonly value: unknown } | { readonly text: string } | { readonly leave: object };

let uniqueCounter = 0;

/** A string two JSON values share exactly when JSON Schema calls them equal. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const open = new Set<object>();
  const stack: Task[] = [{ value }];
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    if ("text" in task) out.push(task.text);
    else if ("leave" in task) open.delete(task.leave);
    else out.push(...encodeValue(task.value, open, stack));
  }
  return out.join("");
}

/** True when JSON Schema calls the two values equal. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  return canonicalJson(left) === canonicalJson(right);
}

// Returns the text for scalars; pushes child tasks (in reverse) for containers.
function encodeValue(value: unknown, open: Set<object>, stack: Task[]): string[] {
  if (value === null) return ["null"];
  if (typeof value === "string") return [JSON.stringify(value)];
  if (typeof value === "boolean") return [value ? "true" : "false"];
  // String(-0) is "0" and String(1.0) is "1": exactly JSON Schema's numeric equality.
  if (typeof value === "number" && Number.isFinite(value)) return [`n${String(value)}`];
  if (typeof value !== "object" || open.has(value)) return [neverEqual()];
  open.add(value);
  stack.push({ leave: value });
  if (Array.isArray(value)) pushArray(value, stack);
  else pushObject(value as Record<string, unknown>, stack);
  return [];
}

function pushArray(value: readonly unknown[], stack: Task[]): void {
  stack.push({ text: "]" });
  for (let index = value.length - 1; index >= 0; index -= 1) {
    stack.push({ value: value[index] });
    if (index > 0) stack.push({ text: "," });
  }
  stack.push({ text: "[" });
}

function pushObject(value: Record<string, unknown>, stack: Task[]): void {
  const keys = Object.keys(value).sort();
  stack.push({ text: "}" });
  for (let index = keys.length - 1; index >= 0; index -= 1) {
    const key = keys[index] as string;
    stack.push({ value: value[key] });
    stack.push({ text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` });
  }
  stack.push({ text: "{" });
}

// Non-JSON values (NaN, functions, cycles) equal nothing, not even themselves.
function neverEqual(): string {
  uniqueCounter += 1;
  return `\u0000unique${uniqueCounter}`;
}
