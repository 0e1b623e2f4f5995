import { canonicalJson, sha256Hex } from "../../catalog/canonical-json.js";
import { ForageError } from "../../forage-error.js";
import type { JsonObject, JsonValue } from "../../json-value.js";
import { MAX_TABLE_BYTES, MAX_TABLE_METHODS, MIN_TABLE_METHODS } from "../limits.js";
import { compileOperationSchema } from "../operation/compile-operation-schema.js";
import { isHeaderToken, reservedHeaderKind } from "../operation/header-names.js";
import { isJsonMediaType } from "../operation/json-media.js";
import { isMethodName, operationKey } from "../operation/method-names.js";
import { effectOf } from "../operation/normalize-operation.js";
import { BODY_KEY } from "../operation/operation-input.js";
import { checkPathTemplate } from "../operation/path-template.js";
import type {
  NormalizedOpenApi,
  OpenApiOperation,
  OpenApiSelection,
  OpenApiTable,
  OpenApiTableMethod,
  OpenApiTableRow,
} from "../types.js";
import { invalidTable, TableJsonCopier } from "./table-json.js";
import { OPERATION_ONLY_KEYS, tableRowShape } from "./table-row-shape.js";

/** Names the format of the digested rows, so a future format never collides with this one. */
const TABLE_FORMAT = "forage.openapi-table/1";

/** The serializable row of a normalized operation: schemas and call shape only, no validators or hints. */
export function toOpenApiTableRow(operation: OpenApiOperation): OpenApiTableRow {
  const row: OpenApiTableRow = {
    name: operation.name,
    method: operation.method,
    path: operation.path,
    effect: operation.effect,
    dialect: operation.dialect,
    inputSchema: operation.inputSchema,
    ...(operation.outputSchema === undefined ? {} : { outputSchema: operation.outputSchema }),
    call: operation.call,
    text: operation.text,
  };
  // A private copy: later changes to the preview cannot reach a selected row.
  return JSON.parse(JSON.stringify(row)) as OpenApiTableRow;
}

/**
 * The rows of the preview's supported operations picked by HTTP method and
 * path template, in selection order. Only a server-built preview and
 * `{ method, path }` pairs are taken: never operation bodies or generated
 * names from a client. An entry that is unknown, unsupported or repeated is
 * refused with code "invalid_argument".
 */
export function selectOpenApiOperations(
  preview: NormalizedOpenApi,
  selection: readonly OpenApiSelection[],
): OpenApiTableRow[] {
  if (!Array.isArray(selection) || selection.length < MIN_TABLE_METHODS || selection.length > MAX_TABLE_METHODS) {
    throw new ForageError(
      "invalid_argument",
      `Select between ${MIN_TABLE_METHODS} and ${MAX_TABLE_METHODS} operations by { method, path }`,
    );
  }
  const chosen = new Set<string>();
  return selection.map((entry) => {
    const { method, path } = readSelection(entry);
    const key = operationKey(method, path);
    if (chosen.has(key)) throw new ForageError("invalid_argument", `${key} is selected twice`);
    chosen.add(key);
    const operation = preview.operations.find((candidate) => candidate.method === method && candidate.path === path);
    if (operation !== undefined) return toOpenApiTableRow(operation);
    const refused = preview.unsupported.find((candidate) => candidate.method === method && candidate.path === path);
    if (refused !== undefined) throw new ForageError("invalid_argument", `${key} is not supported: ${refused.reason}`);
    throw new ForageError("invalid_argument", `${key} is not an operation of this preview`);
  });
}

function readSelection(entry: unknown): { method: string; path: string } {
  const record = entry as Record<string, unknown>;
  const keys = typeof entry === "object" && entry !== null ? Object.keys(entry) : [];
  if (keys.length !== 2 || typeof record.method !== "string" || typeof record.path !== "string") {
    throw new ForageError(
      "invalid_argument",
      "Each selection entry is exactly { method, path }, as the preview lists them",
    );
  }
  return { method: record.method.toUpperCase(), path: record.path };
}

/**
 * Decodes 1–64 selected methods before storage: strict row shape, the same
 * path, header, name and effect laws as intake, schemas recompiled with the
 * same compiler, no duplicate names or operations, at most 512 KiB. Returns
 * the decoded methods and the rows they came from (sorted by name), and a
 * SHA-256 digest of their canonical JSON, stable across key order, selection
 * order and runs. Table validation grants no execution permission.
 */
export function parseOpenApiTable(selectedOperations: unknown): OpenApiTable {
  if (!Array.isArray(selectedOperations)) throw invalidTable("expected an array of selected operations");
  if (selectedOperations.length < MIN_TABLE_METHODS || selectedOperations.length > MAX_TABLE_METHODS) {
    throw invalidTable(
      `it has ${selectedOperations.length} methods; a table has ${MIN_TABLE_METHODS} to ${MAX_TABLE_METHODS}`,
    );
  }
  const copier = new TableJsonCopier();
  const raw = selectedOperations.map((entry, index) => copier.copy(rowMembers(entry, index), `row ${index}`));
  assertTableSize(raw);
  const rows = raw
    .map((entry, index) => decodeRow(entry, index))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  assertUnique(rows);
  const methods = rows.map(compileRow);
  return { methods, rows, digest: sha256Hex(canonicalJson({ format: TABLE_FORMAT, rows })) };
}

// Normalized operations may be passed as they are: their validators and hints are dropped, never trusted.
function rowMembers(entry: unknown, index: number): unknown {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry))
    throw invalidTable(`row ${index} is not an object`);
  const members: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) {
    if (!OPERATION_ONLY_KEYS.has(key)) members[key] = (entry as Record<string, unknown>)[key];
  }
  return members;
}

function assertTableSize(rows: readonly JsonValue[]): void {
  const bytes = Buffer.byteLength(canonicalJson(rows), "utf8");
  if (bytes > MAX_TABLE_BYTES) {
    throw new ForageError(
      "too_large",
      `The OpenAPI table is ${bytes} bytes; the limit is ${MAX_TABLE_BYTES} (512 KiB)`,
      { limit: MAX_TABLE_BYTES, bytes },
    );
  }
}

function decodeRow(entry: JsonValue, index: number): OpenApiTableRow {
  const parsed = tableRowShape.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidTable(
      `row ${index} ${issue === undefined ? "is malformed" : `at ${issue.path.join(".") || "(root)"}: ${issue.message}`}`,
    );
  }
  const row = parsed.data as OpenApiTableRow;
  const problem = rowProblem(row);
  if (problem !== undefined) throw invalidTable(`row ${index} (${row.method} ${row.path}): ${problem}`);
  return row;
}

/** Why a row is not something intake could have produced, or undefined. */
function rowProblem(row: OpenApiTableRow): string | undefined {
  if (!isMethodName(row.name))
    return `"${row.name}" is not a usable method name (an identifier, not reserved, at most 64 long)`;
  if (row.effect !== effectOf(row.method)) return `${row.method} is a ${effectOf(row.method)}, not a ${row.effect}`;
  const template = checkPathTemplate(row.path);
  if (!template.ok) return template.reason;
  if (!sameNames(template.names, row.call.pathParams)) return "the path parameters do not match the path template";
  const badHeader = row.call.headerParams.find(
    (name) => !isHeaderToken(name) || reservedHeaderKind(name) !== undefined,
  );
  if (badHeader !== undefined) return `the header "${badHeader}" is not a header guests may set`;
  if (row.call.body !== null && !isJsonMediaType(row.call.body.contentType))
    return `the body media type ${row.call.body.contentType} is not JSON`;
  return inputSchemaProblem(row);
}

// The input schema must be the closed flat object intake builds from exactly these call-shape names.
function inputSchemaProblem(row: OpenApiTableRow): string | undefined {
  const schema = row.inputSchema;
  const { pathParams, queryParams, headerParams, body } = row.call;
  const keys = [...pathParams, ...queryParams, ...headerParams, ...(body === null ? [] : [BODY_KEY])];
  if (new Set(keys).size !== keys.length) return "an input key is used twice in the call shape";
  if (schema.type !== "object" || schema.additionalProperties !== false)
    return "the input schema must be a closed object";
  const properties = schema.properties;
  if (!isJsonObject(properties) || !sameNames(Object.keys(properties), keys))
    return "the input schema's properties do not match the call shape";
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === "string"))
    return "the input schema's required list is malformed";
  if (!pathParams.every((name) => required.includes(name))) return "every path parameter must be required";
  if (body !== null && body.required !== required.includes(BODY_KEY))
    return "the body's required flag disagrees with the input schema";
  return undefined;
}

function assertUnique(rows: readonly OpenApiTableRow[]): void {
  const names = new Set<string>();
  const operations = new Set<string>();
  for (const row of rows) {
    if (names.has(row.name)) throw invalidTable(`the name "${row.name}" is used twice`);
    const key = operationKey(row.method, row.path);
    if (operations.has(key)) throw invalidTable(`${key} is selected twice`);
    names.add(row.name);
    operations.add(key);
  }
}

function compileRow(row: OpenApiTableRow): OpenApiTableMethod {
  const input = compileOperationSchema(row.inputSchema, row.dialect, "input schema");
  if (!input.ok) throw invalidTable(`${row.name}: ${input.reason}`);
  if (row.outputSchema === undefined) return { ...row, input: input.validator };
  const output = compileOperationSchema(row.outputSchema, row.dialect, "output schema");
  if (!output.ok) throw invalidTable(`${row.name}: ${output.reason}`);
  return { ...row, input: input.validator, output: output.validator };
}

function sameNames(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && [...left].sort().join("\u0000") === [...right].sort().join("\u0000");
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
