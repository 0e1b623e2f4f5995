import type { JsonValue } from "../../json-value.js";
import type { CredentialParameter } from "../spec/auth-hints.js";
import { PROTOTYPE_NAMES } from "../spec/spec-limits.js";
import { boundDescription } from "../text-limits.js";
import { isHeaderToken, reservedHeaderKind } from "./header-names.js";
import { normalizeSchema } from "./normalized-schema.js";

/** A parameter that became guest input. */
export interface InputParameter {
  readonly name: string;
  readonly location: "path" | "query" | "header";
  readonly required: boolean;
  /** The normalized schema, carrying the parameter's description. */
  readonly schema: JsonValue;
}

/** Everything an operation's parameters contribute, or why they cannot. */
export type ParameterReading =
  | { readonly ok: true; readonly parameters: readonly InputParameter[]; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/** What decides whether a parameter may be guest input. */
export interface ParameterContext {
  readonly templateNames: readonly string[];
  readonly credentialParameters: readonly CredentialParameter[];
  readonly authParameter: string | undefined;
  readonly version: "3.0" | "3.1";
}

// OpenAPI's default serialization per location; anything else changes the wire format.
const DEFAULT_STYLE = { path: "simple", query: "form", header: "simple" } as const;
const DEFAULT_EXPLODE = { path: false, query: true, header: false } as const;
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean"]);
// OpenAPI says these header parameters SHALL be ignored: the transport and credential owner set them.
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

class Refusal {
  constructor(readonly reason: string) {}
}

/**
 * Reads the path-level and operation-level parameters (the operation's win
 * per name and location) into guest input: scalar path, query and header
 * parameters with default serialization. Credential parameters (declared
 * API keys, the owner's authParameter) and reserved headers are left out
 * with a note; anything intake cannot express makes the operation unsupported.
 */
export function readParameters(
  itemParameters: unknown,
  operationParameters: unknown,
  context: ParameterContext,
): ParameterReading {
  try {
    const declared = mergeLevels(listLevel(itemParameters, "path item"), listLevel(operationParameters, "operation"));
    const notes: string[] = [];
    const parameters: InputParameter[] = [];
    for (const parameter of declared) {
      const input = readParameter(parameter, context, notes);
      if (input !== undefined) parameters.push(input);
    }
    assertTemplateMatch(parameters, context.templateNames);
    assertUniqueKeys(parameters);
    return { ok: true, parameters, notes };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.reason };
    throw error;
  }
}

type Declared = Record<string, unknown> & { readonly name: string; readonly in: string };

function listLevel(parameters: unknown, level: string): Declared[] {
  if (parameters === undefined) return [];
  if (!Array.isArray(parameters)) throw new Refusal(`the ${level} parameters are not a list`);
  const seen = new Set<string>();
  return parameters.map((parameter, index) => {
    const record = parameter as Record<string, unknown>;
    if (
      typeof parameter !== "object" ||
      parameter === null ||
      typeof record.name !== "string" ||
      typeof record.in !== "string"
    ) {
      throw new Refusal(`${level} parameter ${index} has no string name and location`);
    }
    const key = identity(record as Declared);
    if (seen.has(key)) throw new Refusal(`the ${level} declares the ${record.in} parameter "${record.name}" twice`);
    seen.add(key);
    return record as Declared;
  });
}

// Header names are case-insensitive; every other location is exact.
function identity(parameter: Declared): string {
  return `${parameter.in}\u0000${parameter.in === "header" ? parameter.name.toLowerCase() : parameter.name}`;
}

function mergeLevels(item: Declared[], operation: Declared[]): Declared[] {
  const overridden = new Set(operation.map(identity));
  return [...item.filter((parameter) => !overridden.has(identity(parameter))), ...operation];
}

function readParameter(parameter: Declared, context: ParameterContext, notes: string[]): InputParameter | undefined {
  const { name, in: location } = parameter;
  const label = `${location} parameter "${name}"`;
  if (PROTOTYPE_NAMES.has(name)) throw new Refusal(`the ${label} uses a prototype name`);
  if (isCredential(parameter, context)) {
    if (location === "path") throw new Refusal(`the ${label} is a credential, which cannot fill a path`);
    notes.push(`the ${label} is a credential: the credential owner fills it, never guest input`);
    return undefined;
  }
  if (location === "cookie") throw new Refusal(`the ${label} is unsupported: cookie parameters cannot be guest input`);
  if (location !== "path" && location !== "query" && location !== "header")
    throw new Refusal(`the ${label} has an unknown location`);
  if (location === "header" && excludeHeader(parameter, label, notes)) return undefined;
  assertDefaultSerialization(parameter, location, label);
  const schema = scalarSchema(parameter, label, context);
  const required = parameter.required === true;
  if (location === "path" && !required) throw new Refusal(`the ${label} must be required, as every path parameter is`);
  return { name, location, required, schema };
}

/**
 * True for a parameter the credential owner or the transport fills (a credential, a credential
 * header, a header OpenAPI says to ignore): never guest input, whether the operation is supported or not.
 */
export function isOwnerFilled(
  parameter: { readonly name: string; readonly in: string },
  context: Pick<ParameterContext, "credentialParameters" | "authParameter">,
): boolean {
  if (isCredential(parameter, context)) return true;
  if (parameter.in !== "header") return false;
  return IGNORED_HEADERS.has(parameter.name.toLowerCase()) || reservedHeaderKind(parameter.name) === "credential";
}

function isCredential(
  parameter: { readonly name: string; readonly in: string },
  context: Pick<ParameterContext, "credentialParameters" | "authParameter">,
): boolean {
  const same = (left: string, right: string): boolean =>
    parameter.in === "header" ? left.toLowerCase() === right.toLowerCase() : left === right;
  if (context.authParameter !== undefined && same(parameter.name, context.authParameter)) return true;
  return context.credentialParameters.some(
    (credential) => credential.in === parameter.in && same(parameter.name, credential.name),
  );
}

// True when the header is left out of input (with a note); throws when the operation cannot go without it.
function excludeHeader(parameter: Declared, label: string, notes: string[]): boolean {
  if (!isHeaderToken(parameter.name)) throw new Refusal(`the ${label} is not an RFC 9110 header name`);
  const lower = parameter.name.toLowerCase();
  const kind = reservedHeaderKind(parameter.name);
  if (IGNORED_HEADERS.has(lower)) {
    notes.push(`the ${label} is ignored, as OpenAPI requires: the transport or credential owner sets it`);
    return true;
  }
  if (kind === undefined) return false;
  if (kind === "credential") {
    notes.push(`the ${label} is a credential header: the credential owner fills it, never guest input`);
    return true;
  }
  if (parameter.required === true)
    throw new Refusal(`the ${label} is required but is a reserved ${kind} header, which guests cannot set`);
  notes.push(`the optional ${label} is a reserved ${kind} header and is left out of the input`);
  return true;
}

function assertDefaultSerialization(parameter: Declared, location: "path" | "query" | "header", label: string): void {
  if (parameter.content !== undefined)
    throw new Refusal(`the ${label} uses content serialization; only a schema with default style is supported`);
  if (parameter.style !== undefined && parameter.style !== DEFAULT_STYLE[location]) {
    throw new Refusal(
      `the ${label} uses style "${String(parameter.style)}"; only the default "${DEFAULT_STYLE[location]}" is supported`,
    );
  }
  if (parameter.explode !== undefined && parameter.explode !== DEFAULT_EXPLODE[location]) {
    throw new Refusal(
      `the ${label} sets explode to ${String(parameter.explode)}; only the default ${String(DEFAULT_EXPLODE[location])} is supported`,
    );
  }
  if (parameter.allowReserved === true)
    throw new Refusal(`the ${label} sets allowReserved, which changes its encoding`);
}

// Scalars serialize the same under every default style; arrays and objects do not.
function scalarSchema(parameter: Declared, label: string, context: ParameterContext): JsonValue {
  const schema = parameter.schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new Refusal(`the ${label} has no schema object`);
  const record = schema as Record<string, unknown>;
  const types = Array.isArray(record.type) ? record.type : [record.type];
  if (types.includes("null") || (context.version === "3.0" && record.nullable === true)) {
    throw new Refusal(`the ${label} may be null, which a ${parameter.in} parameter cannot carry`);
  }
  const scalar =
    record.type === undefined
      ? isScalarEnum(record)
      : types.length > 0 && types.every((type) => typeof type === "string" && SCALAR_TYPES.has(type));
  if (!scalar)
    throw new Refusal(
      `the ${label} is not a scalar (string, number, integer or boolean); arrays and objects are unsupported`,
    );
  return describedParameterSchema(parameter, schema);
}

/** A parameter's normalized schema, carrying the parameter's own description and deprecation. */
export function describedParameterSchema(parameter: Record<string, unknown>, schema: unknown): JsonValue {
  const normalized = normalizeSchema(schema);
  if (typeof normalized !== "object" || normalized === null || Array.isArray(normalized)) return normalized;
  const description = boundDescription(parameter.description);
  if (description !== undefined && normalized.description === undefined) normalized.description = description;
  if (parameter.deprecated === true) normalized.deprecated = true;
  return normalized;
}

function isScalarEnum(schema: Record<string, unknown>): boolean {
  const values = schema.enum ?? (schema.const === undefined ? undefined : [schema.const]);
  return (
    Array.isArray(values) &&
    values.length > 0 &&
    values.every((value) => ["string", "number", "boolean"].includes(typeof value))
  );
}

function assertTemplateMatch(parameters: readonly InputParameter[], templateNames: readonly string[]): void {
  const pathNames = parameters.filter((parameter) => parameter.location === "path").map((parameter) => parameter.name);
  const missing = templateNames.find((name) => !pathNames.includes(name));
  if (missing !== undefined)
    throw new Refusal(`the path template has {${missing}} but no path parameter "${missing}" declares it`);
  const extra = pathNames.find((name) => !templateNames.includes(name));
  if (extra !== undefined) throw new Refusal(`the path parameter "${extra}" does not appear in the path template`);
}

function assertUniqueKeys(parameters: readonly InputParameter[]): void {
  const seen = new Map<string, string>();
  for (const parameter of parameters) {
    const other = seen.get(parameter.name);
    if (other !== undefined) {
      throw new Refusal(
        `the name "${parameter.name}" is both a ${other} and a ${parameter.location} parameter; input keys must be unique`,
      );
    }
    seen.set(parameter.name, parameter.location);
  }
}
