import type { z } from "zod";
import { ForageError } from "../../forage-error.js";
import { type JsonSchemaDialect, jsonSchemaToZod } from "../../json-schema/index.js";
import type { JsonValue } from "../../json-value.js";

/** A compiled validator, or why the schema cannot be compiled without widening it. */
export type CompileResult =
  | { readonly ok: true; readonly validator: z.ZodType }
  | { readonly ok: false; readonly reason: string };

/**
 * Compiles with the one compiler App methods use; a refusal becomes a reason, never a crash.
 * Without a dialect the schema's own `$schema` decides, else draft 2020-12 (as MCP tools declare).
 */
export function compileOperationSchema(
  schema: JsonValue,
  dialect: JsonSchemaDialect | undefined,
  what: string,
): CompileResult {
  return withoutStackTraces(() => {
    try {
      return { ok: true, validator: jsonSchemaToZod(schema, dialect === undefined ? {} : { dialect }) };
    } catch (error) {
      if (error instanceof ForageError) return { ok: false, reason: `the ${what} is unsupported: ${error.message}` };
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: `the ${what} could not be compiled: ${message.split("\n")[0] ?? message}` };
    }
  });
}

/**
 * `run()` with errors capturing no stack: a refusal becomes its message, the stack it would capture
 * is never read, and capturing one was a tenth of intake's own time over a folder of 20,000 real
 * tools, a third of whose schemas are refused. Where `Error.stackTraceLimit` cannot be written (frozen
 * intrinsics, a hardened host), `run()` runs as it is: slower, never a crash.
 */
function withoutStackTraces<T>(run: () => T): T {
  const limit = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
  if (limit?.writable !== true) return run();
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit.value;
  }
}
