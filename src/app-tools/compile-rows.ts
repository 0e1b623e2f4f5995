import type { z } from "zod";
import { isForageError } from "../forage-error.js";
import { jsonSchemaToZod } from "../json-schema/index.js";
import type { JsonObject } from "../json-value.js";
import { frozenJsonCopy } from "./frozen-copy.js";
import type { AppToolListingRow, AppToolRow, AppToolUnsupportedRow } from "./types.js";

/** Rows that compiled, and rows the compiler refused (listed, never dropped silently). */
export interface CompiledRows {
  readonly rows: AppToolRow[];
  readonly unsupported: AppToolUnsupportedRow[];
}

/**
 * Compiles each row's input and output schema with the same jsonSchemaToZod
 * used for App methods. A refused schema makes that row unsupported with the
 * compiler's reason; the other rows are unaffected.
 */
export function compileRows(listed: readonly AppToolListingRow[]): CompiledRows {
  const result: CompiledRows = { rows: [], unsupported: [] };
  for (const row of listed) {
    try {
      result.rows.push(compileRow(row));
    } catch (error) {
      if (!isForageError(error)) throw error;
      result.unsupported.push({ name: row.name, code: error.code, reason: error.message });
    }
  }
  return result;
}

function compileRow(row: AppToolListingRow): AppToolRow {
  const input = jsonSchemaToZod(row.inputSchema);
  const output = row.outputSchema === undefined ? undefined : jsonSchemaToZod(row.outputSchema);
  // A copy, so later changes to the App's reply object cannot change the row.
  const data = frozenJsonCopy(row as unknown as JsonObject);
  const compiled: {
    name: string;
    description?: string;
    input: z.ZodType;
    output?: z.ZodType;
    data: Readonly<JsonObject>;
  } = {
    name: row.name,
    input,
    data,
  };
  if (row.description !== undefined) compiled.description = row.description;
  if (output !== undefined) compiled.output = output;
  return Object.freeze(compiled);
}
