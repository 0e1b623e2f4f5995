import { parse as parseYaml, YAMLError } from "yaml";
import type { OperationDefinition } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import { jsonSchemaToZod } from "../json-schema/index.js";
import { inheritedPropertyName } from "../json-schema/inherited-property-name.js";
import { lineAt } from "../openapi/spec/parse-spec-text.js";

/** Largest catalog file read, the same as the OpenAPI intake bound: checked before parsing. */
export const MAX_CATALOG_FILE_BYTES = 2 * 1_024 * 1_024;

/**
 * Operations from a JSON or YAML catalog file:
 * `{ operations: [{ path, description?, capabilities?, instructions?, inputSchema, outputSchema? }] }`.
 * Schemas are JSON Schema, compiled by the same jsonSchemaToZod as OpenAPI intake and App methods.
 * `null` instructions or outputSchema mean none, as an operation's `.json` file writes them, so
 * those files read back as a catalog (docs/describe.md, "Reading a mount back").
 */
export function catalogFileOperations(text: string, name: string): OperationDefinition[] {
  if (Buffer.byteLength(text) > MAX_CATALOG_FILE_BYTES) {
    throw new ForageError("too_large", `${name}: over ${MAX_CATALOG_FILE_BYTES} bytes`);
  }
  const document = parseCatalogText(text, name);
  const inherited = inheritedPropertyName(document, "");
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

/** The file's YAML (or JSON, which YAML reads too); a syntax error names the file and its line. */
function parseCatalogText(text: string, name: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 0, prettyErrors: false });
  } catch (error) {
    if (!(error instanceof YAMLError)) throw error;
    const line = lineAt(text, error.pos[0]);
    throw new ForageError(
      "invalid_catalog",
      `${name}: not valid YAML or JSON at line ${line}: ${error.message.split("\n")[0]}`,
      {
        line,
      },
    );
  }
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
  try {
    return jsonSchemaToZod(schema) as unknown as OperationDefinition["input"];
  } catch (error) {
    if (error instanceof ForageError)
      throw new ForageError(error.code, `${where}: ${error.message}`, { ...error.details });
    throw error;
  }
}
