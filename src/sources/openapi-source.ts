import type { OperationDefinition } from "../catalog/types.js";
import {
  type AuthHint,
  type NormalizedOpenApi,
  normalizeOpenApi,
  type OpenApiPart,
  type OpenApiSelect,
  type OpenApiSplit,
  type ServerHint,
  splitOpenApi,
  type UnsupportedOperation,
  unexpandedOperations,
} from "../openapi/index.js";
import type { SourceInfo, SourceSection, UnvalidatedOperation } from "../tree/source-info.js";

/**
 * An OpenAPI spec as a source: its supported methods, named by method, and what the mount shows
 * of the rest. A spec beyond intake's bounds comes in parts (docs/intake.md, "Splitting a large
 * spec"), each under its own namespace below the spec's, with its own SourceInfo; `select` keeps
 * only the operations with a named tag or a matching path.
 */
export function openApiSource(
  text: string,
  namespace: string,
  file: string,
  select?: OpenApiSelect,
): { operations: OperationDefinition[]; infos: SourceInfo[] } {
  const split = splitOpenApi(text, select === undefined ? {} : { select });
  const operations: OperationDefinition[] = [];
  const infos: SourceInfo[] = [];
  for (const part of split.parts) {
    const normalized = normalizeOpenApi(part.text);
    const prefix = part.name === "" ? "" : `${part.name}.`;
    operations.push(
      ...partOperations(normalized).map((operation) => ({ ...operation, path: prefix + operation.path })),
    );
    const info = openApiInfo(normalized, part.name === "" ? namespace : `${namespace}.${part.name}`, file);
    infos.push(split.split ? partInfo(info, part, split, normalized, namespace) : info);
  }
  return { operations, infos };
}

function partOperations(normalized: NormalizedOpenApi): OperationDefinition[] {
  return normalized.operations.map((operation) => ({
    path: operation.name,
    input: operation.input,
    ...(operation.output === undefined ? {} : { output: operation.output }),
    description: operation.description,
    capabilities: [httpCapability(operation)],
  }));
}

/** A part's SourceInfo says which part of which spec it is and what grouped it, so its source file stays truthful. */
function partInfo(
  info: SourceInfo,
  part: OpenApiPart,
  split: OpenApiSplit,
  normalized: NormalizedOpenApi,
  spec: string,
): SourceInfo {
  const grouped = [
    ...(part.tag === undefined ? [] : [`operations tagged ${JSON.stringify(part.tag)}`]),
    ...(part.segments.length === 0 ? [] : [`paths whose literal segments run ${part.segments.join(" / ")}`]),
    ...(part.chunk === undefined ? [] : [`chunk ${part.chunk.index} of ${part.chunk.count} of those paths`]),
  ];
  const lines = [
    `part ${part.number} of ${part.count} of ${info.origin}: the spec declares ${split.declared} operations and breaks intake's bounds, so it is split by tag, then path`,
    ...grouped,
  ];
  // An operation too large to expand is shown from its own schemas when they can be read, else only listed.
  const taken = [...normalized.operations, ...normalized.unsupported].map(({ name }) => name);
  const unvalidated = unexpandedOperations(part, taken).flatMap(unvalidatedOperation);
  const shown = new Set(unvalidated.map(({ name }) => name));
  const leftOut = part.leftOut
    .filter(({ method, path }) => !shown.has(`${method} ${path}`))
    .map(({ method, path, summary, reason }) => ({
      name: `${method} ${path}`,
      ...(summary === undefined ? {} : { summary }),
      reason,
    }));
  return {
    ...info,
    kind: `${info.kind}, part ${part.number} of ${part.count}`,
    sections: [{ heading: "Part of a split spec", lines }, ...info.sections],
    declared: info.declared + part.leftOut.length,
    unsupported: [...info.unsupported, ...leftOut],
    unvalidated: [...(info.unvalidated ?? []), ...unvalidated],
    part: { spec, count: part.count },
  };
}

function openApiInfo(normalized: NormalizedOpenApi, namespace: string, file: string): SourceInfo {
  const { title, version, description } = normalized.info;
  return {
    namespace,
    kind: `OpenAPI ${normalized.version} spec`,
    origin: file,
    ...(title === undefined ? {} : { title }),
    ...(version === undefined ? {} : { version }),
    ...(description === undefined ? {} : { description }),
    sections: openApiSections(normalized),
    declared: normalized.operations.length + normalized.unsupported.length,
    unsupported: normalized.unsupported
      .filter(({ sourceSchema }) => sourceSchema === undefined)
      .map(({ method, path, summary, reason }) => ({
        name: `${method} ${path}`,
        ...(summary === undefined ? {} : { summary }),
        reason,
      })),
    unvalidated: normalized.unsupported.flatMap(unvalidatedOperation),
  };
}

/** "reads over HTTP: GET /pets/{petId}": every operation of a spec names its method and path, validated or not. */
function httpCapability({ effect, method, path }: Pick<UnsupportedOperation, "effect" | "method" | "path">): string {
  return `${effect === "read" ? "reads" : "writes"} over HTTP: ${method} ${path}`;
}

// An operation refused with its schemas readable is shown from them, not validated (docs/mount.md).
function unvalidatedOperation(operation: UnsupportedOperation): UnvalidatedOperation[] {
  const { sourceSchema, name, method, path, summary, description, reason } = operation;
  if (sourceSchema === undefined) return [];
  return [
    {
      segment: name,
      name: `${method} ${path}`,
      ...(summary === undefined ? {} : { summary }),
      ...(description === undefined ? {} : { description }),
      capabilities: [httpCapability(operation)],
      ...sourceSchema,
      reason,
    },
  ];
}

function openApiSections(normalized: NormalizedOpenApi): SourceSection[] {
  const sections: SourceSection[] = [];
  if (normalized.servers.length > 0)
    sections.push({ heading: "Server hints", lines: normalized.servers.map(serverLine) });
  if (normalized.auth.length > 0) sections.push({ heading: "Auth hints", lines: normalized.auth.map(authLine) });
  if (normalized.notes.length > 0) sections.push({ heading: "Intake notes", lines: normalized.notes });
  return sections;
}

function serverLine(server: ServerHint): string {
  const where = server.relative ? `${server.url} (relative to where the spec was fetched)` : server.url;
  return server.description === undefined ? where : `${where}: ${server.description}`;
}

function authLine(hint: AuthHint): string {
  const placed =
    hint.in === undefined ? "" : ` in ${hint.in}${hint.parameterName === undefined ? "" : ` ${hint.parameterName}`}`;
  const scheme = hint.httpScheme === undefined ? "" : ` ${hint.httpScheme}`;
  const described = hint.description === undefined ? "" : `: ${hint.description}`;
  return `${hint.scheme}: ${hint.type}${scheme}${placed}${described}`;
}
