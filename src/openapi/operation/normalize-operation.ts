import { ForageError } from "../../forage-error.js";
import type { JsonObject, JsonSchema } from "../../json-value.js";
import { type CredentialParameter, readSecurity } from "../spec/auth-hints.js";
import { readServerHints } from "../spec/server-hints.js";
import { boundDescription, boundTitle, nonEmpty, thirdPartyText } from "../text-limits.js";
import type {
  HttpMethod,
  OpenApiDialect,
  OpenApiOperation,
  OpenApiVersion,
  OperationEffect,
  ServerHint,
  SourceSchema,
} from "../types.js";
import { compileOperationSchema } from "./compile-operation-schema.js";
import { BODY_KEY, buildOperationInput } from "./operation-input.js";
import type { OperationSite } from "./operation-sites.js";
import { readParameters } from "./parameters.js";
import { checkPathTemplate } from "./path-template.js";
import { referencedSourceSchema } from "./referenced-schema.js";
import { readJsonBody } from "./request-body.js";
import { readSuccessSchema } from "./responses.js";
import { readSourceInput } from "./source-input.js";

/** What every operation of one spec shares. */
export interface OperationContext {
  readonly version: OpenApiVersion;
  readonly credentialParameters: readonly CredentialParameter[];
  readonly authParameter: string | undefined;
  /** The spec's top-level security requirements, inherited when an operation declares none. */
  readonly security: unknown;
}

/** One operation as intake reads it: already named, with its reference problem (if any) found before resolution. */
export interface OperationCandidate {
  readonly site: OperationSite;
  readonly name: string;
  readonly refProblem: string | undefined;
  /** The dereferenced Path Item and Operation objects. */
  readonly item: unknown;
  readonly operation: unknown;
  /** The spec before its references were inlined, kept when some operation has a reference problem. */
  readonly unresolved?: JsonObject;
}

/** The operation, or the reason a person can act on and, when they can be read, its schemas as the source declares them. */
export type OperationResult =
  | { readonly ok: true; readonly operation: OpenApiOperation }
  | { readonly ok: false; readonly reason: string; readonly sourceSchema?: SourceSchema };

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** GET, HEAD and OPTIONS read; every other supported method writes. */
export function effectOf(method: string): OperationEffect {
  return READ_METHODS.has(method) ? "read" : "write";
}

/** The compiler dialect for a spec version. */
export function dialectOf(version: OpenApiVersion): OpenApiDialect {
  return version === "3.0" ? "openapi-3.0" : "openapi-3.1";
}

/**
 * Normalizes one operation; every way it can fail is a reason, never an exception. A refused
 * operation whose schemas can be read carries them (see SourceSchema): exactly the schemas
 * the compiler refused, or, when it was refused before compiling, its input read as declared.
 */
export function normalizeOperation(candidate: OperationCandidate, context: OperationContext): OperationResult {
  const { site } = candidate;
  if (site.method === "TRACE") return refuse("TRACE is unsupported: it echoes the request, credentials included");
  if (site.referencedItem)
    return refuse("the Path Item is a $ref; referenced Path Items are unsupported, so inline it under paths");
  if (!isRecord(candidate.operation)) return refuse("the operation is not an object");
  if (candidate.refProblem !== undefined) {
    const unresolved = candidate.unresolved;
    return refuse(candidate.refProblem, unresolved && referencedSourceSchema(unresolved, site, context));
  }
  const item = isRecord(candidate.item) ? candidate.item : {};
  const result = readOperation(candidate, item, candidate.operation, context);
  if (result.ok || result.sourceSchema !== undefined) return result;
  return { ...result, ...declaredSchema(item, candidate.operation, context) };
}

/** The description a person reads: the bounded description, else the summary (an empty description says nothing). */
export function operationDescription(operation: Record<string, unknown>): string | undefined {
  return boundDescription(nonEmpty(operation.description)) ?? boundTitle(nonEmpty(operation.summary));
}

// A schema that cannot be copied (recursive, too deep) leaves the operation with no files, only its reason.
function declaredSchema(
  item: Record<string, unknown>,
  operation: Record<string, unknown>,
  context: OperationContext,
): { sourceSchema?: SourceSchema } {
  try {
    const outputSchema = readSuccessSchema(operation.responses);
    const inputSchema = readSourceInput(item, operation, context);
    return {
      sourceSchema: {
        inputSchema,
        ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as JsonSchema }),
      },
    };
  } catch (error) {
    if (error instanceof ForageError) return {};
    throw error;
  }
}

function readOperation(
  candidate: OperationCandidate,
  item: Record<string, unknown>,
  operation: Record<string, unknown>,
  context: OperationContext,
): OperationResult {
  const { site } = candidate;
  const template = checkPathTemplate(site.path);
  if (!template.ok) return refuse(template.reason);
  const parameters = readParameters(item.parameters, operation.parameters, {
    templateNames: template.names,
    credentialParameters: context.credentialParameters,
    authParameter: context.authParameter,
    version: context.version,
  });
  if (!parameters.ok) return refuse(parameters.reason);
  const body = readJsonBody(operation.requestBody);
  if (!body.ok) return refuse(body.reason);
  if (body.body !== null && parameters.parameters.some((parameter) => parameter.name === BODY_KEY)) {
    return refuse(`a parameter is named "${BODY_KEY}", which is the input key of the request body`);
  }
  const input = buildOperationInput(parameters.parameters, body.body);
  const dialect = dialectOf(context.version);
  const outputSchema = readSuccessSchema(operation.responses);
  const declared: SourceSchema = {
    inputSchema: input.inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as JsonSchema }),
  };
  const compiledInput = compileOperationSchema(input.inputSchema, dialect, "input schema");
  if (!compiledInput.ok) return refuse(compiledInput.reason, declared);
  const compiledOutput =
    outputSchema === undefined ? undefined : compileOperationSchema(outputSchema, dialect, "success response schema");
  if (compiledOutput !== undefined && !compiledOutput.ok) return refuse(compiledOutput.reason, declared);
  const notes = [...parameters.notes];
  if (operation.callbacks !== undefined) notes.push("callbacks are not exposed; only the request itself is");
  const text = thirdPartyText(operation);
  // An empty description says nothing: the summary stands in for it.
  const description = operationDescription(operation);
  const servers = operationServers(item, operation, notes);
  return {
    ok: true,
    operation: {
      name: candidate.name,
      method: site.method as HttpMethod,
      path: site.path,
      effect: effectOf(site.method),
      dialect,
      ...declared,
      call: input.call,
      text,
      input: compiledInput.validator,
      ...(compiledOutput === undefined ? {} : { output: compiledOutput.validator }),
      ...(description === undefined ? {} : { description }),
      deprecated: operation.deprecated === true,
      security: readSecurity(operation.security ?? context.security),
      ...(servers === undefined ? {} : { servers }),
      notes,
    },
  };
}

// Operation-level servers override path-level ones, which override the spec's.
function operationServers(
  item: Record<string, unknown>,
  operation: Record<string, unknown>,
  notes: string[],
): ServerHint[] | undefined {
  if (operation.servers !== undefined) return readServerHints(operation.servers, "operation", notes);
  if (item.servers !== undefined) return readServerHints(item.servers, "path item", notes);
  return undefined;
}

function refuse(reason: string, sourceSchema?: SourceSchema): OperationResult {
  return sourceSchema === undefined ? { ok: false, reason } : { ok: false, reason, sourceSchema };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
