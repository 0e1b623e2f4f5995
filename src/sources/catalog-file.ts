import type { OperationDefinition } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import { jsonSchemaToZod } from "../json-schema/index.js";
import { inheritedPropertyName } from "../json-schema/inherited-property-name.js";

/** Largest catalog file, the same as the OpenAPI intake bound: checked before any schema is compiled. */
export const MAX_CATALOG_FILE_BYTES = 2 * 1_024 * 1_024;

/** A catalog file's operations, its size (`text`'s) held to the bound before any schema is compiled. */
export function catalogFileSource(text: string, document: unknown, name: string): OperationDefinition[] {
  if (Buffer.byteLength(text) > MAX_CATALOG_FILE_BYTES) {
    throw new ForageError("too_large", `${name}: over ${MAX_CATALOG_FILE_BYTES} bytes`);
  }
  return catalogFileOperations(document, name);
}

/**
 * Operations from a JSON or YAML catalog file, parsed:
 * `{ operations: [{ path, description?, capabilities?, instructions?, inputSchema, outputSchema? }] }`.
 * Schemas are JSON Schema, compiled by the same jsonSchemaToZod as OpenAPI intake and App methods.
 * `null` instructions or outputSchema mean none, as an operation's `.json` file writes them, so
 * those files read back as a catalog (docs/describe.md, "Reading a mount back").
 */
export function catalogFileOperations(document: unknown, name: string): OperationDefinition[] {
  const inherited = namingRefusals(name, () => inheritedPropertyName(document, ""));
  if (inherited !== undefined) {
    // Such names would validate but vanish from the described inputSchema, so describe would not tell the truth.
    throw new ForageError(
      "unsupported",
      `${name}: property name ${JSON.stringify(inherited.name)} at ${inherited.at} is a JavaScript object member name; rename it`,
    );
  }
  const operations = (document as { operations?: unknown } | null)?.operations;
  if (!Array.isArray(operations))
    throw new ForageError("invalid_catalog", `${name}: expected { operations: [...] } or an OpenAPI document`);
  return operations.map((entry: unknown, index) => operationFromEntry(entry, `${name}: operation #${index}`));
}

function operationFromEntry(entry: unknown, where: string): OperationDefinition {
  if (entry === null || typeof entry !== "object")
    throw new ForageError("invalid_catalog", `${where} is not an object`);
  const { path, description, capabilities, instructions, inputSchema, outputSchema } = entry as Record<string, unknown>;
  const label = typeof path === "string" ? `${where} (${path})` : where;
  if (inputSchema === undefined) throw new ForageError("invalid_catalog", `${label} has no inputSchema`);
  return {
    path: path as string,
    description: description as string | undefined,
    capabilities: capabilities as string[] | undefined,
    instructions: (instructions ?? undefined) as string | undefined,
    input: compile(inputSchema, `${label} inputSchema`),
    ...(outputSchema === undefined || outputSchema === null
      ? {}
      : { output: compile(outputSchema, `${label} outputSchema`) }),
  };
}

function compile(schema: unknown, where: string): OperationDefinition["input"] {
  return namingRefusals(where, () => jsonSchemaToZod(schema) as unknown as OperationDefinition["input"]);
}

/** `run`'s result; a ForageError it throws is thrown again with its message starting with `where`. */
function namingRefusals<T>(where: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ForageError)
      throw new ForageError(error.code, `${where}: ${error.message}`, { ...error.details });
    throw error;
  }
}
