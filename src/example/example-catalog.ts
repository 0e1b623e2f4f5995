import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog, OperationDefinition } from "../catalog/types.js";
import { exampleOperations } from "./example-operations.js";

/** The built-in example catalog that `forage mount --example` serves. */
export function createExampleCatalog(revision = "example.1"): Catalog {
  return createCatalog({ revision, operations: exampleOperations });
}

/**
 * The example operations repeated under numbered tenant namespaces until
 * there are `count` of them, for benchmarks at 1,000 and 10,000 operations.
 */
export function scaledExampleOperations(count: number): OperationDefinition[] {
  const operations: OperationDefinition[] = [];
  for (let tenant = 0; operations.length < count; tenant += 1) {
    for (const operation of exampleOperations) {
      if (operations.length === count) break;
      operations.push({ ...operation, path: `tenant${String(tenant).padStart(4, "0")}.${operation.path}` });
    }
  }
  return operations;
}
