import { z } from "zod";
import { createCatalog } from "../../src/index.js";

/** An operation of a search law's catalog: what search reads, nothing else. */
export type SearchOperation = { path: string; description: string; capabilities?: string[] };

/** A catalog of operations with empty inputs, for the laws of search; descriptions differ, so nothing merges. */
export function catalogOf(operations: readonly SearchOperation[]) {
  return createCatalog({
    revision: "r",
    operations: operations.map((operation) => ({ ...operation, input: z.object({}) })),
  });
}
