import { createCatalog } from "../catalog/create-catalog.js";
import type { OperationDefinition } from "../catalog/types.js";
import { projectJsonSchema } from "../describe/schema-projection.js";
import { ForageError } from "../forage-error.js";
import type { SourceInfo, UnvalidatedOperation } from "../tree/source-info.js";

/** What a source's operations and information become once the ones the catalog refuses alone are moved out. */
export interface Demoted {
  readonly operations: OperationDefinition[];
  readonly infos: SourceInfo[];
  /** How many operations were moved. */
  readonly moved: number;
}

/**
 * A catalog refuses a whole definition for one operation it cannot hold (its description past the
 * response bound, say: a real spec's operation whose nested schemas describe 150,000 characters of
 * TypeScript). The library stays exact, so that operation is not in the catalog; but it is still
 * its source's operation, so the mount shows it as it shows one the compiler refused: not
 * validated, from its schema, with the catalog's reason (docs/mount.md, "Not validated
 * operations"). Only an operation whose source describes itself (a spec, an MCP tool list) can be
 * shown so; each is tried alone, so this runs only after the whole catalog was refused.
 */
export function demoteOversized(operations: readonly OperationDefinition[], infos: readonly SourceInfo[]): Demoted {
  const kept: OperationDefinition[] = [];
  const moved = new Map<SourceInfo, UnvalidatedOperation[]>();
  for (const operation of operations) {
    const info = ownerOf(operation.path, infos);
    const reason = info === undefined ? undefined : refusalAlone(operation);
    if (info === undefined || reason === undefined) kept.push(operation);
    else moved.set(info, [...(moved.get(info) ?? []), shownFromSchema(operation, info, reason)]);
  }
  const updated = infos.map((info) => {
    const extra = moved.get(info);
    return extra === undefined ? info : { ...info, unvalidated: [...(info.unvalidated ?? []), ...extra] };
  });
  return { operations: kept, infos: updated, moved: operations.length - kept.length };
}

/** The source whose namespace holds the operation directly (its one segment below it). */
function ownerOf(path: string, infos: readonly SourceInfo[]): SourceInfo | undefined {
  const namespace = path.slice(0, path.lastIndexOf("."));
  return infos.find((info) => info.namespace === namespace);
}

/** Why the catalog refuses this operation on its own, or undefined when it holds it. */
function refusalAlone(operation: OperationDefinition): string | undefined {
  try {
    createCatalog({ revision: "alone", operations: [operation] });
    return undefined;
  } catch (error) {
    if (error instanceof ForageError && error.code === "invalid_catalog") return error.message;
    throw error;
  }
}

function shownFromSchema(operation: OperationDefinition, info: SourceInfo, reason: string): UnvalidatedOperation {
  const segment = operation.path.slice(info.namespace.length + 1);
  const capabilities = operation.capabilities ?? [];
  // "reads over HTTP: GET /pets": an OpenAPI operation is named by its method and path, as left-out ones are.
  const http = capabilities.map((note) => /over HTTP: (.+)$/.exec(note)?.[1]).find((name) => name !== undefined);
  return {
    segment,
    name: http ?? segment,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    capabilities,
    inputSchema: projectJsonSchema(operation.input, "input"),
    ...(operation.output === undefined ? {} : { outputSchema: projectJsonSchema(operation.output, "output") }),
    reason: `the catalog refuses it: ${reason}`,
  };
}
