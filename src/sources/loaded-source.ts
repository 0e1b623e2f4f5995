import { basename } from "node:path";
import { sha256Hex } from "../catalog/canonical-json.js";
import type { OperationDefinition } from "../catalog/types.js";
import type { SourceInfo } from "../tree/source-info.js";

/** A source's digest, its namespace, and its operations (not yet under the namespace) or what its module exported. */
export interface LoadedSource {
  readonly digest: string;
  readonly namespace: string | undefined;
  readonly content: OperationDefinition[] | unknown;
  /** What a spec or tool-list source says about itself; a folder of tool lists has one per file. */
  readonly infos?: readonly SourceInfo[];
}

/** A file's name as a namespace: `petstore-expanded.yaml` → `petstore_expanded`. */
export function defaultNamespace(file: string): string {
  return identifier(basename(file).replace(/\.(json|ya?ml)$/i, ""));
}

/** A name spelled as one namespace segment: `my-server` → `my_server`, `3d` → `api_3d`. */
export function identifier(name: string): string {
  const spelled = name.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(spelled) ? spelled : `api_${spelled}`;
}

/**
 * Several sources as one, each under its stem, all under `namespace` when given: a folder's
 * tools/list files, a config's servers. Each part's operations and infos are named below its stem.
 */
export function nestedSource(
  parts: readonly { readonly stem: string; readonly source: LoadedSource }[],
  namespace: string | undefined,
): LoadedSource {
  const under = (name: string): string => (namespace === undefined ? name : `${namespace}.${name}`);
  return {
    content: parts.flatMap(({ stem, source }) =>
      (source.content as OperationDefinition[]).map((operation) => ({
        ...operation,
        path: `${stem}.${operation.path}`,
      })),
    ),
    digest: sha256Hex(parts.map(({ source }) => source.digest).join("\u0000")),
    namespace,
    infos: parts.flatMap(({ source }) =>
      (source.infos ?? []).map((info) => ({ ...info, namespace: under(info.namespace) })),
    ),
  };
}
