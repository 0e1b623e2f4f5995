import { readFileSync, statSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256Hex } from "../catalog/canonical-json.js";
import { createCatalog } from "../catalog/create-catalog.js";
import type { Catalog, CatalogDefinition, OperationDefinition } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import type { OpenApiSelect } from "../openapi/index.js";
import { MAX_SPLIT_BYTES } from "../openapi/split/split-limits.js";
import { UNSUPPORTED_FILE } from "../tree/source-files.js";
import type { SourceInfo } from "../tree/source-info.js";
import { CliError } from "./cli-error.js";

/** One source on the command line: `[namespace=]file`, where file may be a folder or `mcp:<command line>`. */
export interface SourceSpec {
  readonly file: string;
  readonly namespace: string | undefined;
  /** `--select`: what to keep of an OpenAPI spec (docs/intake.md, "Selecting part of a spec"). */
  readonly select?: OpenApiSelect;
}

/** What a source argument starts with to name a live MCP server's command line. */
export const MCP_PREFIX = "mcp:";

/** Parses `[namespace=]file`; an `mcp:` command line is kept as written. */
export function parseSourceSpec(argument: string): SourceSpec {
  const match = /^([A-Za-z_][A-Za-z0-9_.]*)=(.+)$/.exec(argument);
  const file = match === null ? argument : (match[2] as string);
  return { file: file.startsWith(MCP_PREFIX) ? file : resolve(file), namespace: match?.[1] };
}

/** A catalog built from the sources, and what each intake source says about itself. */
export interface LoadedCatalog {
  readonly catalog: Catalog;
  /** One entry per spec or tool-list source, in command-line order. */
  readonly sources: readonly SourceInfo[];
}

/**
 * Builds one catalog from the sources, or from the built-in example. Its revision is a digest of
 * the inputs. `make` builds it (createCatalog, or the same in slices for a reload).
 */
export async function loadCatalog(
  sources: readonly SourceSpec[],
  example: boolean,
  make: (definition: CatalogDefinition) => Catalog | Promise<Catalog> = createCatalog,
): Promise<LoadedCatalog> {
  if (example) {
    const { exampleOperations } = await import("../example/example-operations.js");
    return { catalog: await make({ revision: "example.1", operations: exampleOperations }), sources: [] };
  }
  const loaded: LoadedSource[] = [];
  for (const source of sources) loaded.push(await loadNamedSource(source));
  assertDistinctNamespaces(sources, loaded);
  const infos = loaded.flatMap(({ infos }) => infos ?? []);
  for (const info of infos) if (info.unsupported.length > 0) process.stderr.write(`forage: ${leftOutNote(info)}\n`);
  const only = loaded.length === 1 ? loaded[0] : undefined;
  if (only !== undefined && isCatalog(only.content) && only.namespace === undefined) {
    return { catalog: only.content, sources: infos };
  }
  const bySource = loaded.map(({ content, namespace }, index) =>
    prefixed(
      Array.isArray(content) ? content : moduleOperations((sources[index] as SourceSpec).file, content),
      namespace,
    ),
  );
  const revision = `sources.${sha256Hex(loaded.map(({ digest }) => digest).join("\u0000")).slice(0, 16)}`;
  try {
    return { catalog: await make({ revision, operations: bySource.flat() }), sources: infos };
  } catch (error) {
    throw invalidOperationsFailure(error, sources, bySource);
  }
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
      if (alone instanceof ForageError)
        return new CliError(`source ${sourceLabel((sources[index] as SourceSpec).file)}: ${alone.message}`);
    }
  }
  const path = error.details.path;
  const owners = sources.filter((_, index) => bySource[index]?.some((operation) => operation.path === path));
  return owners.length === 0
    ? error
    : new CliError(`sources ${owners.map(({ file }) => file).join(" and ")}: ${error.message}`);
}

/** A source's digest, its namespace, and its operations (not yet under the namespace) or what its module exported. */
export interface LoadedSource {
  readonly digest: string;
  readonly namespace: string | undefined;
  readonly content: OperationDefinition[] | unknown;
  /** What a spec or tool-list source says about itself; a folder of tool lists has one per file. */
  readonly infos?: readonly SourceInfo[];
}

/** Loads one source; any failure names it (the file or the `mcp:` command), and the line where the parser gives one. */
async function loadNamedSource(source: SourceSpec): Promise<LoadedSource> {
  try {
    return await loadSource(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof CliError && message.includes(source.file)) throw error;
    const line = error instanceof ForageError && typeof error.details.line === "number" ? `:${error.details.line}` : "";
    throw new CliError(
      `source ${sourceLabel(source.file)}${line}: ${message}`,
      error instanceof CliError ? error.exitCode : 1,
    );
  }
}

/** Two sources under one namespace would mix their operations: refused, naming both and the way out. */
function assertDistinctNamespaces(sources: readonly SourceSpec[], loaded: readonly LoadedSource[]): void {
  const seen = new Map<string, string>();
  loaded.forEach(({ namespace }, index) => {
    if (namespace === undefined) return;
    const file = (sources[index] as SourceSpec).file;
    const earlier = seen.get(namespace);
    if (earlier !== undefined) {
      throw new CliError(
        `sources ${earlier} and ${file} both take the namespace ${namespace}; name one of them: NAME=${file}`,
        2,
      );
    }
    seen.set(namespace, file);
  });
}

async function loadSource(source: SourceSpec): Promise<LoadedSource> {
  if (source.file.startsWith(MCP_PREFIX) || isFolder(source.file)) {
    // Intake loads only for MCP sources, so other sources never pay for the SDK.
    return (await import("./mcp-source.js")).mcpSource(source);
  }
  const text = readSource(source.file);
  const digest = sha256Hex(text);
  if (isModule(source.file))
    return { content: await moduleExports(source.file, digest), digest, namespace: source.namespace };
  if (![".json", ".yaml", ".yml"].includes(extname(source.file).toLowerCase())) {
    throw new CliError(
      `source ${source.file}: expected a .js/.mjs module, or a .json/.yaml OpenAPI spec or catalog file`,
      2,
    );
  }
  if (looksLikeOpenApi(text)) {
    // Intake loads only for specs, so mounting a module never pays for the OpenAPI resolver.
    const { openApiSource } = await import("./openapi-source.js");
    // A spec's methods are single names, so a spec always takes a namespace.
    const namespace = source.namespace ?? defaultNamespace(source.file);
    const { operations, infos } = openApiSource(text, namespace, source.file, source.select);
    return { content: operations, digest, namespace, infos };
  }
  const toolsList = mentionsTools(text) ? (await import("./mcp-source.js")).toolsListFile(text, source) : undefined;
  if (toolsList !== undefined) return toolsList;
  // The YAML parser and the JSON Schema compiler load only for catalog files.
  const { catalogFileOperations } = await import("./catalog-file.js");
  return { content: catalogFileOperations(text, basename(source.file)), digest, namespace: source.namespace };
}

/** "petstore: 3 operations unsupported (of 3 declared); the mount lists them with the reasons in petstore/@unsupported.txt". */
function leftOutNote(info: SourceInfo): string {
  const file = `${info.namespace.split(".").join("/")}/${UNSUPPORTED_FILE}`;
  const count = info.unsupported.length;
  const operations = `${count} ${count === 1 ? "operation" : "operations"} unsupported (of ${info.declared} declared)`;
  return `${info.namespace}: ${operations}; the mount lists ${count === 1 ? "it" : "them"} with the reasons in ${file}`;
}

/**
 * OpenAPI and Swagger documents name their version in a top-level key. Only the
 * head of the text is scanned, so a hostile file reaches intake's own bounds
 * before any parsing here.
 */
function looksLikeOpenApi(text: string): boolean {
  return /(^|[{,]\s*)["']?(openapi|swagger)["']?\s*:/m.test(text.slice(0, 16_384));
}

/** A `tools` key anywhere (a saved answer may put long instructions first): a cheap test before MCP intake parses it to be sure. */
function mentionsTools(text: string): boolean {
  return /["']?tools["']?\s*:/.test(text);
}

/** A spec's file name as a namespace: `petstore-expanded.yaml` → `petstore_expanded`. */
export function defaultNamespace(file: string): string {
  const stem = basename(file)
    .replace(/\.(json|ya?ml)$/i, "")
    .replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(stem) ? stem : `api_${stem}`;
}

function isFolder(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The text of a source file, or a one-line error naming it; a file larger than any source Forage reads is never read. */
export function readSource(file: string): string {
  const bytes = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (bytes > MAX_SPLIT_BYTES)
    throw new CliError(
      `source ${file} is ${bytes} bytes; the largest source Forage reads is ${MAX_SPLIT_BYTES} (64 MiB)`,
    );
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read source ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** How a failure names a source: its file, marked when it is a JS module. */
function sourceLabel(file: string): string {
  return isModule(file) ? `module ${file}` : file;
}

function isModule(file: string): boolean {
  return [".js", ".mjs", ".cjs"].includes(extname(file).toLowerCase());
}

/** What a source module offers: `catalog` (or a default catalog), else `operations` (or a default array). */
async function moduleExports(file: string, digest: string): Promise<unknown> {
  // The digest in the URL makes a --watch reload import the new file, not Node's cached module.
  const loaded = (await import(`${pathToFileURL(file).href}?v=${digest.slice(0, 16)}`)) as Record<string, unknown>;
  return loaded.catalog ?? loaded.operations ?? loaded.default;
}

function isCatalog(value: unknown): value is Catalog {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as Catalog).stamp === "function" &&
    typeof (value as Catalog).list === "function"
  );
}

function moduleOperations(file: string, exported: unknown): OperationDefinition[] {
  if (Array.isArray(exported)) return exported as OperationDefinition[];
  const hint = isCatalog(exported)
    ? "; a catalog export is used only when it is the sole source, without a namespace"
    : "";
  throw new CliError(`source ${file}: export \`operations\` (an array of operation definitions) or \`catalog\`${hint}`);
}

function prefixed(operations: OperationDefinition[], namespace: string | undefined): OperationDefinition[] {
  return namespace === undefined
    ? operations
    : operations.map((operation) => ({ ...operation, path: `${namespace}.${operation.path}` }));
}
