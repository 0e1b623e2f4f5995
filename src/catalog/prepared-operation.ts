import { operationTypescriptLength } from "../describe/declaration-text.js";
import {
  type DeclarationSource,
  declaredAliasesLength,
  UndeclarableSchemaError,
} from "../describe/operation-declaration.js";
import { sampleCall } from "../describe/sample-call.js";
import { ForageError } from "../forage-error.js";
import type { JsonSchema, JsonValue } from "../json-value.js";
import type { SearchDocument } from "../search/search-index.js";
import { canonicalJson } from "./canonical-json.js";
import {
  MAX_CAPABILITIES,
  MAX_CAPABILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_DESCRIPTION_RESPONSE,
  MAX_INSTRUCTIONS_LENGTH,
} from "./limits.js";
import { namespaceOf, pathProblem } from "./operation-path.js";
import type { Projection, ProjectionCache } from "./projection-cache.js";
import type { OperationDefinition, Summary } from "./types.js";

/**
 * An operation after validation and projection: everything later calls need, built once.
 * Its TypeScript is rendered when it is described, not kept: at creation only its length
 * is worked out, to refuse an operation whose description would not fit.
 */
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
  /** Characters of its type aliases (declareAliases), which a namespace description adds up before rendering any. */
  readonly aliasesLength: number;
  /** Characters of metadata, counted against the catalog bound. */
  readonly metadataSize: number;
}

/**
 * A prepared operation with its metadata text (everything but the
 * path): equal texts mean equivalent operations, and the stamp digests them.
 * The text is needed only while the catalog is created, so it is kept beside
 * the operation rather than in it, and a large catalog does not hold a second
 * copy of every schema.
 */
export interface PreparedEntry {
  readonly operation: PreparedOperation;
  readonly metadata: string;
}

/** Validates one definition and builds its projections; throws `invalid_catalog` naming the operation. */
export function prepareOperation(
  definition: OperationDefinition,
  index: number,
  projections: ProjectionCache,
): PreparedEntry {
  const path = definitionPath(definition, index);
  const fail = (problem: string): never => {
    throw new ForageError("invalid_catalog", `operation ${JSON.stringify(path)}: ${problem}`, { path });
  };
  const problem = pathProblem(path);
  if (problem !== undefined) fail(problem);
  const description = optionalText(definition.description, "description", MAX_DESCRIPTION_LENGTH, fail) ?? "";
  const instructions = optionalText(definition.instructions, "instructions", MAX_INSTRUCTIONS_LENGTH, fail);
  const capabilities = capabilityNotes(definition.capabilities, fail);
  const input = project(projections, definition.input, "input", fail);
  const output = definition.output === undefined ? undefined : project(projections, definition.output, "output", fail);
  const metadata = metadataText(description, capabilities, instructions, input.json, output?.json);
  const inputSchema = input.schema;
  const outputSchema = output?.schema;
  const source: DeclarationSource = { path, description, capabilities, instructions, inputSchema, outputSchema };
  const aliasesLength = measureAliases(source, input, output, fail);
  const typescriptLength = operationTypescriptLength(source, aliasesLength);
  if (typescriptLength > MAX_DESCRIPTION_RESPONSE) {
    fail(
      `its description is ${typescriptLength} characters, over the response bound of ${MAX_DESCRIPTION_RESPONSE}; every operation must fit one complete description`,
    );
  }
  const sample = sampleCall(path, inputSchema);
  const operation: PreparedOperation = {
    path,
    namespace: namespaceOf(path),
    description,
    capabilities,
    instructions,
    inputSchema,
    outputSchema,
    sample,
    summary: Object.freeze({ path, description, sample, capabilities, score: 0 }),
    aliasesLength,
    metadataSize: metadata.length,
  };
  return { operation, metadata };
}

/** What search reads of an operation: a prepared one, or one a mount ranks beside the catalog's (not validated). */
export type SearchableOperation = Pick<PreparedOperation, "path" | "description" | "capabilities" | "inputSchema"> & {
  readonly instructions: string | null | undefined;
};

/** The searchable text of an operation, made when an index is built rather than kept per operation. */
export function searchDocumentOf(operation: SearchableOperation): SearchDocument {
  return {
    path: operation.path,
    description: operation.description,
    capabilities: operation.capabilities,
    instructions: operation.instructions ?? "",
    inputFields: inputFields(operation.inputSchema),
  };
}

/**
 * The metadata of an operation as one JSON text, keys in a fixed order:
 * { capabilities, description, inputSchema, instructions, outputSchema }.
 * Schemas appear as their projections' text (Projection.json, in normal form,
 * properties in the order describe shows them), so no schema is walked again
 * to serialise it and a shared validator's text is reused as it is.
 */
function metadataText(
  description: string,
  capabilities: readonly string[],
  instructions: string | undefined,
  inputJson: string,
  outputJson: string | undefined,
): string {
  return (
    `{"capabilities":${canonicalJson(capabilities)},"description":${JSON.stringify(description)},"inputSchema":${inputJson},` +
    `"instructions":${instructions === undefined ? "null" : JSON.stringify(instructions)},"outputSchema":${outputJson ?? "null"}}`
  );
}

/**
 * The metadata texts of prepared operations, made again from what they keep: the
 * same texts creation made (a projection's text is exactly JSON.stringify of its
 * schema), each shared schema serialised once. For what only some catalogs need
 * (search's equivalence groups, narrowed views' stamps), so creation need not keep them.
 */
export function metadataTexts(operations: readonly PreparedOperation[]): string[] {
  return operations.map(metadataTextMaker());
}

/** metadataTexts one operation at a time: the text of each operation given to it, each shared schema serialised once. */
export function metadataTextMaker(): (operation: PreparedOperation) => string {
  const texts = new Map<JsonSchema, string>();
  const json = (schema: JsonSchema): string => {
    let text = texts.get(schema);
    if (text === undefined) texts.set(schema, (text = JSON.stringify(schema)));
    return text;
  };
  return (operation) =>
    metadataText(
      operation.description,
      operation.capabilities,
      operation.instructions,
      json(operation.inputSchema),
      operation.outputSchema === undefined ? undefined : json(operation.outputSchema),
    );
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

function optionalText(
  value: unknown,
  field: string,
  max: number,
  fail: (problem: string) => never,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return fail(`${field} is not a string`);
  if (value.length > max) return fail(`${field} is ${value.length} characters, over the bound of ${max}`);
  return value;
}

function capabilityNotes(value: unknown, fail: (problem: string) => never): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || value.some((note) => typeof note !== "string"))
    return fail("capabilities is not an array of strings");
  if (value.length > MAX_CAPABILITIES)
    return fail(`has ${value.length} capability notes, over the bound of ${MAX_CAPABILITIES}`);
  const long = value.find((note: string) => note.length > MAX_CAPABILITY_LENGTH);
  if (long !== undefined) return fail(`a capability note is over the bound of ${MAX_CAPABILITY_LENGTH} characters`);
  return Object.freeze([...(value as string[])]);
}

function project(
  projections: ProjectionCache,
  validator: unknown,
  side: "input" | "output",
  fail: (problem: string) => never,
): Projection {
  try {
    return projections.project(validator, side);
  } catch (error) {
    return fail(
      `its ${side} schema cannot be projected to JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** declaredAliasesLength, its refusal of a schema reported through `fail`. */
function measureAliases(
  source: DeclarationSource,
  input: Projection,
  output: Projection | undefined,
  fail: (problem: string) => never,
): number {
  try {
    return declaredAliasesLength(source, input.json, output?.json);
  } catch (error) {
    if (error instanceof UndeclarableSchemaError) return fail(error.message);
    throw error;
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
  return schema !== null &&
    typeof schema === "object" &&
    !Array.isArray(schema) &&
    typeof schema.description === "string"
    ? schema.description
    : "";
}
