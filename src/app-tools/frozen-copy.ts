interface CopyTask {
  readonly source: unknown;
  readonly place: (copy: unknown) => void;
}

/**
 * A deep, frozen copy of a JSON value (already checked to be acyclic JSON).
 * Row data is App-owned and must reach consumers untouched: own keys such as
 * "__proto__" are defined, not assigned, and the walk is iterative because
 * App data may nest deeper than the call stack.
 */
export function frozenJsonCopy<T>(value: T): T {
  let result: unknown;
  const created: object[] = [];
  const stack: CopyTask[] = [{ source: value, place: (copy) => (result = copy) }];
  while (stack.length > 0) {
    const { source, place } = stack.pop() as CopyTask;
    if (typeof source !== "object" || source === null) {
      place(source);
    } else if (Array.isArray(source)) {
      const copy: unknown[] = new Array<unknown>(source.length);
      place(copy);
      created.push(copy);
      source.forEach((item, index) => {
        stack.push({ source: item, place: (inner) => (copy[index] = inner) });
      });
    } else {
      const copy: Record<string, unknown> = {};
      place(copy);
      created.push(copy);
      const record = source as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        stack.push({ source: record[key], place: (inner) => defineOwn(copy, key, inner) });
      }
    }
  }
  for (const copy of created) Object.freeze(copy);
  return result as T;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
