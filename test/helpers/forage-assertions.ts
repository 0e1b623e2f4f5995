import { type Forage, ForageError, type ListOptions, type Summary } from "../../src/index.js";

/** The ForageError `run` throws; any other outcome fails the test. */
export function forageErrorOf(run: () => unknown): ForageError {
  try {
    run();
  } catch (error) {
    if (error instanceof ForageError) return error;
    throw error;
  }
  throw new Error("expected a ForageError");
}

/** Every summary of a listing, following nextCursor until it is null. */
export function listAll(forage: Pick<Forage, "list">, options: ListOptions = {}): Summary[] {
  const all: Summary[] = [];
  let cursor: string | null = null;
  do {
    const page = forage.list({ ...options, cursor });
    all.push(...page.results);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return all;
}
