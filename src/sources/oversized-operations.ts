import type { OperationRefusal } from "../catalog/catalog-report.js";
import { enclosingNamespaceOf } from "../catalog/operation-path.js";
import type { OperationDefinition } from "../catalog/types.js";
import { projectJsonSchema } from "../describe/schema-projection.js";
import type { SourceInfo, UnvalidatedOperation } from "../tree/source-info.js";
import { notCarriedReason } from "../unvalidated-schema-bound.js";
import { cutSchemas, type SchemaSides } from "./cut-schemas.js";

/** One loaded source's operations, in the order the catalog was given them, and what it says of itself. */
export interface SourcePart {
  readonly operations: readonly OperationDefinition[];
  readonly infos: readonly SourceInfo[];
}

/**
 * The sources' information with each refused operation moved to its not-validated list, or the first
 * refusal that cannot be moved (its source does not describe itself), which then stands: `part` is the
 * index of its source.
 */
export type Demoted =
  | { readonly ok: true; readonly infos: SourceInfo[] }
  | { readonly ok: false; readonly part: number; readonly refusal: OperationRefusal };

/**
 * A catalog refuses a whole definition for one operation it cannot hold (its description past the
 * response bound, say: a real spec's operation whose nested schemas describe 150,000 characters of
 * TypeScript). The library stays exact, so that operation is not in the catalog; but it is still
 * its source's operation, so the mount shows it as it shows one the compiler refused: not
 * validated, from its schema within the one bound such operations carry, with the catalog's reason
 * (docs/mount.md, "Not validated operations"). Only an operation whose source describes itself (a
 * spec, an MCP tool list) can be shown so. `refused` is the catalog's report of every operation it
 * refuses on its own, indexed into the parts' operations joined in order (createCatalogReport).
 */
export function demoteRefused(parts: readonly SourcePart[], refused: readonly OperationRefusal[]): Demoted {
  const moved = parts.map(() => new Map<SourceInfo, UnvalidatedOperation[]>());
  for (const refusal of refused) {
    const { part, operation } = locate(parts, refusal.index);
    const info = ownerOf(operation, parts[part]?.infos ?? []);
    const shown = info === undefined ? undefined : shownFromSchema(operation, info, refusal.error.message);
    if (info === undefined || shown === undefined) return { ok: false, part, refusal };
    const map = moved[part] as Map<SourceInfo, UnvalidatedOperation[]>;
    map.set(info, [...(map.get(info) ?? []), shown]);
  }
  const infos = parts.flatMap(({ infos }, part) =>
    infos.map((info) => {
      const extra = moved[part]?.get(info);
      return extra === undefined ? info : { ...info, unvalidated: [...(info.unvalidated ?? []), ...extra] };
    }),
  );
  return { ok: true, infos };
}

/** Which part an index into the joined operations falls in, and the operation there. */
function locate(parts: readonly SourcePart[], index: number): { part: number; operation: OperationDefinition } {
  let start = 0;
  for (const [part, { operations }] of parts.entries()) {
    if (index < start + operations.length) return { part, operation: operations[index - start] as OperationDefinition };
    start += operations.length;
  }
  throw new RangeError(`operation #${index} is in no source`);
}

/** The source whose namespace holds the operation directly (its one segment below it); none for a malformed one. */
function ownerOf(operation: unknown, infos: readonly SourceInfo[]): SourceInfo | undefined {
  const path = typeof operation === "object" && operation !== null ? (operation as { path?: unknown }).path : undefined;
  if (typeof path !== "string") return undefined;
  const namespace = enclosingNamespaceOf(path);
  return infos.find((info) => info.namespace === namespace);
}

/** The operation as its schemas show it, or undefined when they cannot be projected (the catalog's reason, then). */
function shownFromSchema(
  operation: OperationDefinition,
  info: SourceInfo,
  reason: string,
): UnvalidatedOperation | undefined {
  const segment = operation.path.slice(info.namespace.length + 1);
  const capabilities = operation.capabilities ?? [];
  // "reads over HTTP: GET /pets": an OpenAPI operation is named by its method and path, as left-out ones are.
  const http = capabilities.map((note) => /over HTTP: (.+)$/.exec(note)?.[1]).find((name) => name !== undefined);
  const name = http ?? segment;
  const sides = projected(operation);
  if (sides === undefined) return undefined;
  const { input, output, cut } = cutSchemas(sides, name);
  return {
    segment,
    name,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    capabilities,
    inputSchema: input,
    ...(output === undefined ? {} : { outputSchema: output }),
    reason: `the catalog refuses it: ${reason}${cut.length === 0 ? "" : `; ${notCarriedReason(cut)}`}`,
  };
}

/**
 * Its schemas as the catalog would have projected them, or undefined when they cannot be: the catalog may
 * have refused it for just that (a validator with no JSON Schema), and then there is nothing to show.
 */
function projected({ input, output }: OperationDefinition): SchemaSides | undefined {
  try {
    return {
      input: projectJsonSchema(input, "input"),
      ...(output === undefined ? {} : { output: projectJsonSchema(output, "output") }),
    };
  } catch {
    return undefined;
  }
}
