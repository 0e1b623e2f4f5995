import { pathToFileURL } from "node:url";
import type { Catalog, OperationDefinition } from "../catalog/types.js";
import { SourceError } from "./source-error.js";

/** What a source module offers: `catalog` (or a default catalog), else `operations` (or a default array). */
export async function moduleExports(file: string, digest: string): Promise<unknown> {
  // The digest in the URL makes a --watch reload import the new file, not Node's cached module.
  const loaded = (await import(`${pathToFileURL(file).href}?v=${digest.slice(0, 16)}`)) as Record<string, unknown>;
  return loaded.catalog ?? loaded.operations ?? loaded.default;
}

/** True when a module exported a whole catalog. */
export function isCatalog(value: unknown): value is Catalog {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as Catalog).stamp === "function" &&
    typeof (value as Catalog).list === "function"
  );
}

/** A module's operations; a catalog export is refused here (it stands alone only as the sole source). */
export function moduleOperations(file: string, exported: unknown): OperationDefinition[] {
  if (Array.isArray(exported)) return exported as OperationDefinition[];
  const hint = isCatalog(exported)
    ? "; a catalog export is used only when it is the sole source, without a namespace"
    : "";
  throw new SourceError(
    file,
    `source ${file}: export \`operations\` (an array of operation definitions) or \`catalog\`${hint}`,
  );
}
