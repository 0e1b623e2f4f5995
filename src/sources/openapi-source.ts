import type { OperationDefinition } from "../catalog/types.js";
import {
  type AuthHint,
  type NormalizedOpenApi,
  normalizeOpenApi,
  type ServerHint,
  type UnsupportedOperation,
} from "../openapi/index.js";
import type { SourceInfo, SourceSection, UnvalidatedOperation } from "../tree/source-info.js";

/** An OpenAPI spec as a source: its supported methods, named by method, and what the mount shows of the rest. */
export function openApiSource(
  text: string,
  namespace: string,
  file: string,
): { operations: OperationDefinition[]; info: SourceInfo } {
  const normalized = normalizeOpenApi(text);
  const operations = normalized.operations.map((operation) => ({
    path: operation.name,
    input: operation.input,
    ...(operation.output === undefined ? {} : { output: operation.output }),
    description: operation.description,
    capabilities: [httpCapability(operation)],
  }));
  return { operations, info: openApiInfo(normalized, namespace, file) };
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
