import { ForageError } from "../forage-error.js";
import { resolveTokens } from "../json-schema/json-pointer.js";
import type { JsonObject } from "../json-value.js";
import { assignMethodNames, operationKey } from "./operation/method-names.js";
import {
  effectOf,
  normalizeOperation,
  type OperationCandidate,
  type OperationContext,
  type OperationResult,
  operationDescription,
} from "./operation/normalize-operation.js";
import { listOperationSites, type OperationSite } from "./operation/operation-sites.js";
import { readAuthHints } from "./spec/auth-hints.js";
import { parseSpecText } from "./spec/parse-spec-text.js";
import { RefBudget } from "./spec/ref-budget.js";
import { resolveLocalRefs } from "./spec/resolve-refs.js";
import { readSpecServerHints } from "./spec/server-hints.js";
import { assertSpecLimits } from "./spec/spec-limits.js";
import { readSpecVersion } from "./spec/spec-version.js";
import { boundDescription, boundTitle, nonEmpty } from "./text-limits.js";
import type {
  NormalizedOpenApi,
  NormalizeOpenApiOptions,
  OpenApiOperation,
  OpenApiVersion,
  ThirdPartyInfo,
  UnsupportedOperation,
} from "./types.js";

/**
 * Reads owner-supplied OpenAPI 3.0/3.1 text (JSON or YAML) into server and
 * authentication hints, supported operations, and a reason for every
 * operation that is not supported. It never fetches, reads credentials or
 * executes anything. Refusals of the whole spec are ForageErrors: "too_large"
 * (bounds), "unsupported" (Swagger 2, other versions, YAML aliases, external
 * references), "invalid_spec" (malformed text or structure).
 */
export function normalizeOpenApi(specText: string, options: NormalizeOpenApiOptions = {}): NormalizedOpenApi {
  assertOptions(options);
  const spec = intakeSpec(specText);
  const notes: string[] = [];
  const auth = readAuthHints(spec.resolved.components);
  const { operations, unsupported } = normalizeOperations(spec, {
    version: spec.version,
    credentialParameters: auth.credentialParameters,
    authParameter: options.authParameter,
    security: spec.resolved.security,
  });
  noteWebhooks(spec.resolved, notes);
  return {
    version: spec.version,
    info: readInfo(spec.resolved.info),
    servers: readSpecServerHints(spec.resolved.servers, notes),
    auth: auth.hints,
    operations,
    unsupported,
    notes,
  };
}

/** A spec that passed every whole-spec check, resolved, with each operation's reference problem. */
interface IntakenSpec {
  readonly version: OpenApiVersion;
  readonly resolved: JsonObject;
  readonly sites: readonly OperationSite[];
  readonly refProblems: ReadonlyArray<string | undefined>;
  /** The spec before resolution, kept only when some operation has a reference problem (its schemas are read from it). */
  readonly unresolved: JsonObject | undefined;
}

/** Every whole-spec refusal happens here, cheapest first, all before references are resolved. */
function intakeSpec(specText: string): IntakenSpec {
  const parsed = parseSpecText(specText);
  assertSpecLimits(parsed.document);
  const { root, version } = readSpecVersion(parsed.document);
  const sites = listOperationSites(root);
  const budget = new RefBudget(root, version);
  budget.assertWithinBudget();
  // Reference problems are found on the raw spec; resolution then rewrites it in place.
  const refProblems = sites.map((site) => referenceProblem(budget, root, site));
  const unresolved = refProblems.some((problem) => problem !== undefined) ? structuredClone(root) : undefined;
  return { version, resolved: resolveLocalRefs(root, version), sites, refProblems, unresolved };
}

function normalizeOperations(
  spec: IntakenSpec,
  context: OperationContext,
): { operations: OpenApiOperation[]; unsupported: UnsupportedOperation[] } {
  const { resolved, sites } = spec;
  const names = assignMethodNames(
    sites.map((site) => ({ method: site.method, path: site.path, operationId: operationIdOf(resolved, site) })),
  );
  const operations: OpenApiOperation[] = [];
  const unsupported: UnsupportedOperation[] = [];
  sites.forEach((site, index) => {
    const candidate = {
      site,
      name: names.get(operationKey(site.method, site.path)) as string,
      refProblem: spec.refProblems[index],
      item: resolveTokens(resolved, ["paths", site.path]),
      operation: resolveTokens(resolved, ["paths", site.path, site.method.toLowerCase()]),
      ...(spec.unresolved === undefined ? {} : { unresolved: spec.unresolved }),
    };
    const result = normalizeOne(candidate, context);
    if (result.ok) operations.push(result.operation);
    else unsupported.push(leftOut(candidate, result));
  });
  return { operations, unsupported };
}

// A refusal raised inside one operation (a bound met while copying its schemas) concerns that operation only.
function normalizeOne(candidate: OperationCandidate, context: OperationContext): OperationResult {
  try {
    return normalizeOperation(candidate, context);
  } catch (error) {
    if (error instanceof ForageError) return { ok: false, reason: error.message };
    throw error;
  }
}

function assertOptions(options: NormalizeOpenApiOptions): void {
  if (typeof options !== "object" || options === null)
    throw new ForageError("invalid_argument", "normalizeOpenApi options must be an object");
  const { authParameter } = options;
  if (authParameter !== undefined && (typeof authParameter !== "string" || authParameter === "")) {
    throw new ForageError("invalid_argument", "authParameter must be a non-empty parameter name");
  }
}

/**
 * The reference problem of what intake decodes for one operation: its own
 * and its Path Item's parameters, its request body and its 2xx responses.
 * A recursive schema elsewhere (an error response, a callback) is never decoded.
 */
function referenceProblem(budget: RefBudget, root: JsonObject, site: OperationSite): string | undefined {
  if (site.referencedItem) return undefined;
  const operation = resolveTokens(root, ["paths", site.path, site.method.toLowerCase()]);
  const responses = resolveTokens(operation, ["responses"]);
  const decoded = [
    resolveTokens(root, ["paths", site.path, "parameters"]),
    resolveTokens(operation, ["parameters"]),
    resolveTokens(operation, ["requestBody"]),
    ...successResponses(responses),
  ];
  for (const part of decoded) {
    const problem = budget.problemIn(part);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function successResponses(responses: unknown): unknown[] {
  if (typeof responses !== "object" || responses === null || Array.isArray(responses)) return [];
  return Object.entries(responses)
    .filter(([status]) => /^2([0-9]{2}|XX)$/i.test(status))
    .map(([, response]) => response);
}

/**
 * A refused operation as intake reports it: its name, its summary (falling back to its
 * description: what a person reads in the left-out list), its description and the reason,
 * with its schemas as the source declares them when they could be read.
 */
export function leftOut(
  { site, name, operation }: Pick<OperationCandidate, "site" | "name" | "operation">,
  result: Extract<OperationResult, { ok: false }>,
): UnsupportedOperation {
  const record = typeof operation === "object" && operation !== null ? (operation as Record<string, unknown>) : {};
  const summary = boundTitle(nonEmpty(record.summary)) ?? boundTitle(nonEmpty(record.description));
  const description = operationDescription(record);
  return {
    method: site.method,
    path: site.path,
    name,
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined ? {} : { description }),
    effect: effectOf(site.method),
    reason: result.reason,
    ...(result.sourceSchema === undefined ? {} : { sourceSchema: result.sourceSchema }),
  };
}

function operationIdOf(resolved: JsonObject, site: OperationSite): unknown {
  return resolveTokens(resolved, ["paths", site.path, site.method.toLowerCase(), "operationId"]);
}

function readInfo(info: unknown): ThirdPartyInfo {
  const record = typeof info === "object" && info !== null ? (info as Record<string, unknown>) : {};
  const title = boundTitle(record.title);
  const version = boundTitle(record.version);
  const description = boundDescription(record.description);
  return {
    source: "third_party",
    ...(title === undefined ? {} : { title }),
    ...(version === undefined ? {} : { version }),
    ...(description === undefined ? {} : { description }),
  };
}

// Webhooks are requests the API makes, not operations a guest can call; say so rather than drop them silently.
function noteWebhooks(resolved: JsonObject, notes: string[]): void {
  const webhooks = resolved.webhooks;
  if (typeof webhooks === "object" && webhooks !== null && Object.keys(webhooks).length > 0) {
    notes.push(
      `${Object.keys(webhooks).length} webhook(s) ignored: webhooks are requests the API sends, not operations to call`,
    );
  }
}
