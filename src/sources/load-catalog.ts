import { basename, extname } from "node:path";
import { sha256Hex } from "../catalog/canonical-json.js";
import { type CatalogReport, createCatalogReport } from "../catalog/catalog-report.js";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog, CatalogDefinition, OperationDefinition } from "../catalog/types.js";
import { ForageError, isForageError } from "../forage-error.js";
import type { SourceInfo } from "../tree/source-info.js";
import { detectSource } from "./detect-source.js";
import { defaultNamespace, type LoadedSource } from "./loaded-source.js";
import type { ListContext, McpClientInfo } from "./mcp-server-source.js";
import { isCatalog, moduleExports, moduleOperations } from "./module-source.js";
import { demoteRefused } from "./oversized-operations.js";
import { SourceError } from "./source-error.js";
import { MODULE_EXTENSIONS } from "./source-kinds.js";
import { type SourceSpec, sourceLabel } from "./source-spec.js";

/** A catalog built from the sources, and what each intake source says about itself. */
export interface LoadedCatalog {
  readonly catalog: Catalog;
  /** One entry per spec or tool-list source, in command-line order. */
  readonly sources: readonly SourceInfo[];
}

/**
 * How loadCatalog builds: `make` is createCatalog, or the same in slices for a reload, and `report` its
 * one-pass report of refusals, made only when `make` refused; `client`
 * names Forage to servers; `note` takes a line for the user (a slow or failed server, a skipped one).
 */
export interface LoadOptions {
  readonly make?: (definition: CatalogDefinition) => Catalog | Promise<Catalog>;
  /** createCatalogReport, or the same in slices: run only once `make` refused the definition. */
  readonly report?: (definition: CatalogDefinition) => CatalogReport | Promise<CatalogReport>;
  readonly client?: McpClientInfo;
  readonly note?: (line: string) => void;
}

/** Builds one catalog from the sources. Its revision is a digest of the inputs. */
export async function loadCatalog(sources: readonly SourceSpec[], options: LoadOptions = {}): Promise<LoadedCatalog> {
  const make = options.make ?? createCatalog;
  const context: ListContext = {
    client: options.client ?? { name: "forage", version: "0" },
    note: options.note ?? (() => undefined),
  };
  const loaded: LoadedSource[] = [];
  for (const source of sources) loaded.push(await loadNamedSource(source, context));
  assertDistinctNamespaces(sources, loaded);
  const infos = loaded.flatMap(({ infos }) => infos ?? []);
  const only = loaded.length === 1 ? loaded[0] : undefined;
  if (only !== undefined && isCatalog(only.content) && only.namespace === undefined) {
    return { catalog: only.content, sources: infos };
  }
  const bySource = loaded.map(({ content, namespace }, index) =>
    prefixed(Array.isArray(content) ? content : moduleOperations(labelOf(sources[index]), content), namespace),
  );
  const revision = `sources.${sha256Hex(loaded.map(({ digest }) => digest).join("\u0000")).slice(0, 16)}`;
  try {
    return { catalog: await make({ revision, operations: bySource.flat() }), sources: infos };
  } catch (error) {
    if (!(error instanceof ForageError) || error.code !== "invalid_catalog") {
      throw invalidOperationsFailure(error, sources, bySource);
    }
    return withRefusalsShown(revision, loaded, bySource, options, sources);
  }
}

/**
 * The catalog refused the whole definition: made again in one pass that reports every operation it refuses
 * on its own (createCatalogReport), each moved to its source's not-validated list (demoteRefused). A refusal
 * of the whole definition (a duplicate path), or of an operation whose source does not describe itself
 * (a module's), stands, naming its source.
 */
async function withRefusalsShown(
  revision: string,
  loaded: readonly LoadedSource[],
  bySource: readonly OperationDefinition[][],
  options: LoadOptions,
  sources: readonly SourceSpec[],
): Promise<LoadedCatalog> {
  let report: CatalogReport;
  try {
    report = await (options.report ?? createCatalogReport)({ revision, operations: bySource.flat() });
  } catch (again) {
    throw invalidOperationsFailure(again, sources, bySource);
  }
  const parts = bySource.map((operations, index) => ({ operations, infos: loaded[index]?.infos ?? [] }));
  const demoted = demoteRefused(parts, report.refused);
  if (!demoted.ok) throw sourceRefusal(sources[demoted.part] as SourceSpec, demoted.refusal.error);
  return { catalog: report.catalog, sources: demoted.infos };
}

function labelOf(source: SourceSpec | undefined): string {
  return sourceLabel((source as SourceSpec).location);
}

/**
 * The catalog refused the operations: the failure names the source they came from. Only on this
 * path is each source's part built alone, to find which one fails; a clash between two sources
 * (a duplicate path) names both.
 */
function invalidOperationsFailure(
  error: unknown,
  sources: readonly SourceSpec[],
  bySource: readonly OperationDefinition[][],
): unknown {
  if (!(error instanceof ForageError) || sources.length === 0) return error;
  for (const [index, operations] of bySource.entries()) {
    try {
      createCatalog({ revision: "check", operations });
    } catch (alone) {
      if (alone instanceof ForageError) return sourceRefusal(sources[index] as SourceSpec, alone);
    }
  }
  const path = isForageError(error, "invalid_catalog") ? error.details.path : undefined;
  const owners = sources.filter((_, index) => bySource[index]?.some((operation) => operation.path === path));
  const labels = owners.map(labelOf).join(" and ");
  return owners.length === 0 ? error : new SourceError(labels, `sources ${labels}: ${error.message}`);
}

/** The catalog's refusal of one source's operation, naming the source. */
function sourceRefusal(source: SourceSpec, refusal: ForageError): SourceError {
  const label = sourceWord(source);
  return new SourceError(label, `source ${label}: ${refusal.message}`);
}

/** Loads one source; any failure names it (the file or the `mcp:` command), and the line where the parser gives one. */
async function loadNamedSource(source: SourceSpec, context: ListContext): Promise<LoadedSource> {
  try {
    return await loadSource(source, context);
  } catch (error) {
    if (error instanceof SourceError) throw error;
    const label = sourceWord(source);
    const message = error instanceof Error ? error.message : String(error);
    const line =
      isForageError(error, "invalid_spec") && error.details.line !== undefined ? `:${error.details.line}` : "";
    throw new SourceError(label, `source ${label}${line}: ${message}`);
  }
}

/** Two sources under one namespace would mix their operations: refused, naming both and the way out. */
function assertDistinctNamespaces(sources: readonly SourceSpec[], loaded: readonly LoadedSource[]): void {
  const seen = new Map<string, string>();
  loaded.forEach(({ namespace }, index) => {
    if (namespace === undefined) return;
    const label = labelOf(sources[index]);
    const earlier = seen.get(namespace);
    if (earlier !== undefined) {
      throw new SourceError(
        label,
        `sources ${earlier} and ${label} both take the namespace ${namespace}; name one of them: NAME=${label}`,
        true,
      );
    }
    seen.set(namespace, label);
  });
}

/** Each kind to its reader; intake, the SDK and the YAML compiler load only for the kinds that need them. */
async function loadSource(source: SourceSpec, context: ListContext): Promise<LoadedSource> {
  const detected = await detectSource(source.location);
  switch (detected.kind) {
    case "mcp-server":
      return (await import("./mcp-server-source.js")).mcpServerSource(detected.location, source.namespace, context);
    case "mcp-config": {
      const { readMcpConfig } = await import("./mcp-config.js");
      const servers = readMcpConfig(detected.path, detected.document, detected.flavor);
      const { mcpConfigSource } = await import("./config-source.js");
      return mcpConfigSource(detected.path, detected.flavor, servers, source.namespace, context);
    }
    case "folder":
      return (await import("./tools-list-source.js")).folderSource(detected.path, source.namespace);
    case "module": {
      const digest = sha256Hex(detected.text);
      return { content: await moduleExports(detected.path, digest), digest, namespace: source.namespace };
    }
    case "openapi": {
      const { openApiSource } = await import("./openapi-source.js");
      // A spec's methods are single names, so a spec always takes a namespace.
      const namespace = source.namespace ?? defaultNamespace(detected.path);
      const { operations, infos } = openApiSource(detected.text, namespace, detected.path, source.select);
      // What --select keeps is part of the input, so two selections of one spec are two revisions.
      const digest = sha256Hex(
        source.select === undefined ? detected.text : `${detected.text}\u0000${JSON.stringify(source.select)}`,
      );
      return { content: operations, digest, namespace, infos };
    }
    case "tools-list-file": {
      const { toolsListFileSource } = await import("./tools-list-source.js");
      return toolsListFileSource(detected.path, detected.text, detected.result, source.namespace);
    }
    case "catalog-file": {
      const { catalogFileSource } = await import("./catalog-file.js");
      const operations = catalogFileSource(detected.text, detected.document, basename(detected.path));
      return { content: operations, digest: sha256Hex(detected.text), namespace: source.namespace };
    }
  }
}

/** How a failure names a source: its label, marked when it is a JS module. */
function sourceWord(source: SourceSpec): string {
  const label = sourceLabel(source.location);
  const isModule = source.location.kind === "path" && MODULE_EXTENSIONS.includes(extname(label).toLowerCase());
  return isModule ? `module ${label}` : label;
}

function prefixed(operations: OperationDefinition[], namespace: string | undefined): OperationDefinition[] {
  return namespace === undefined
    ? operations
    : operations.map((operation) => ({ ...operation, path: `${namespace}.${operation.path}` }));
}
