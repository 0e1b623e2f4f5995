import { ForageError } from "../forage-error.js";
import { projectJsonSchema, type JsonSchema, type JsonValue } from "../describe/json-schema.js";
import { declareOperation, type OperationDeclaration } from "../describe/operation-declaration.js";
import { sampleCall } from "../describe/sample-call.js";
import type { SearchDocument } from "../search/search-index.js";
import {
  MAX_CAPABILITIES, MAX_CAPABILITY_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_INSTRUCTIONS_LENGTH,
} from "./bounds.js";
import { canonicalJson } from "./canonical-json.js";
import { namespaceOf, pathProblem } from "./operation-path.js";
import type { OperationDefinition, Summary } from "./types.js";

/** An operation after validation and projection: everything later calls need, built once. */
export interface PreparedOperation {
  readonly path: string;
  readonly namespace: string;
  readonly description: string;
  readonly capabilities: readonly string[];
  readonly instructions: string | undefined;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  readonly sample: string;
  readonly summary: Summary;
  readonly declaration: OperationDeclaration;
  /** Canonical metadata without the path: equal keys mean equivalent operations. */
  readonly equivalenceKey: string;
  /** Characters of metadata, counted against the catalog bound. */
  readonly metadataSize: number;
  readonly searchDocument: SearchDocument;
}

/** Validates one definition and builds its projections; throws `invalid_catalog` naming the operation. */
export function prepareOperation(definition: OperationDefinition, index: number): PreparedOperation {
  const path = definitionPath(definition, index);
  const fail = (problem: string): never => {
    throw new ForageError("invalid_catalog", `operation ${JSON.stringify(path)}: ${problem}`, { path });
  };
  const problem = pathProblem(path);
  if (problem !== undefined) fail(problem);
  const description = optionalText(definition.description, "description", MAX_DESCRIPTION_LENGTH, fail) ?? "";
  const instructions = optionalText(definition.instructions, "instructions", MAX_INSTRUCTIONS_LENGTH, fail);
  const capabilities = capabilityNotes(definition.capabilities, fail);
  const inputSchema = project(definition.input, "input", fail);
  const outputSchema = definition.output === undefined ? undefined : project(definition.output, "output", fail);
  const metadata = canonicalJson({ description, capabilities, instructions: instructions ?? null, inputSchema, outputSchema: outputSchema ?? null });
  const sample = sampleCall(path, inputSchema);
  return {
    path,
    namespace: namespaceOf(path),
    description,
    capabilities,
    instructions,
    inputSchema: deepFreeze(inputSchema),
    outputSchema: outputSchema === undefined ? undefined : deepFreeze(outputSchema),
    sample,
    summary: Object.freeze({ path, description, sample, capabilities, score: 0 }),
    declaration: declareOperation({ path, description, capabilities, instructions, inputSchema, outputSchema }),
    equivalenceKey: metadata,
    metadataSize: metadata.length,
    searchDocument: { path, description, capabilities, instructions: instructions ?? "", inputFields: inputFields(inputSchema) },
  };
}

function definitionPath(definition: OperationDefinition, index: number): string {
  if (definition === null || typeof definition !== "object") {
    throw new ForageError("invalid_catalog", `operation #${index}: not an object`);
  }
  if (typeof definition.path !== "string") {
    throw new ForageError("invalid_catalog", `operation #${index}: path is not a string`);
  }
  return definition.path;
}

function optionalText(value: unknown, field: string, max: number, fail: (problem: string) => never): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return fail(`${field} is not a string`);
  if (value.length > max) return fail(`${field} is ${value.length} characters, over the bound of ${max}`);
  return value;
}

function capabilityNotes(value: unknown, fail: (problem: string) => never): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || value.some((note) => typeof note !== "string")) return fail("capabilities is not an array of strings");
  if (value.length > MAX_CAPABILITIES) return fail(`has ${value.length} capability notes, over the bound of ${MAX_CAPABILITIES}`);
  const long = value.find((note: string) => note.length > MAX_CAPABILITY_LENGTH);
  if (long !== undefined) return fail(`a capability note is over the bound of ${MAX_CAPABILITY_LENGTH} characters`);
  return Object.freeze([...(value as string[])]);
}

function project(validator: unknown, side: "input" | "output", fail: (problem: string) => never): JsonSchema {
  try {
    return projectJsonSchema(validator, side);
  } catch (error) {
    return fail(`its ${side} schema cannot be projected to JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Top-level input field names and descriptions, which search ranks against. */
function inputFields(schema: JsonSchema): { name: string; description: string }[] {
  if (typeof schema === "boolean") return [];
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return [];
  return Object.entries(properties).map(([name, property]) => ({ name, description: descriptionOf(property) }));
}

function descriptionOf(schema: JsonValue | undefined): string {
  return schema !== null && typeof schema === "object" && !Array.isArray(schema) && typeof schema.description === "string" ? schema.description : "";
}

/** Freezes a plain JSON value in place, so shared prepared data cannot be changed by a caller. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
