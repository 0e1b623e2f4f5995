/**
 * The one bound on what an operation shown not validated carries (docs/mount.md, "What a not-validated
 * operation carries"), and the one way its files say that a schema was cut and where the whole is. Two
 * parts cut by it: the splitter, for an operation too large to expand (its component schemas, counted once
 * each, unexpanded: src/openapi/split/alone-operation.ts), and the sources layer, for an operation the
 * catalog refuses on its own (its schemas as projected: src/sources/cut-schemas.ts).
 */

/**
 * Most bytes of JSON text (UTF-8, no white space) the schemas of an operation shown not validated may
 * carry. Past it, the schemas farthest from the operation are each carried as any value, saying so.
 */
export const MAX_UNVALIDATED_SCHEMA_BYTES = 64 * 1024;

/**
 * What stands for a schema past the bound: a schema that allows any value (declared `unknown`), whose
 * description says it was cut and where the whole is in the source's own schema (`where`: a JSON
 * pointer into the spec, or the operation and the pointer into its schema as the source declares it).
 */
export function notCarriedSchema(where: string): { description: string } {
  return {
    description: `not carried: past ${MAX_UNVALIDATED_SCHEMA_BYTES} bytes of JSON of this operation's schemas; the whole is the source's own schema at ${where}`,
  };
}

/** Said after the operation's reason, since a type that became `unknown` says nothing of why: how many were cut, the first few named. */
export function notCarriedReason(names: readonly string[]): string {
  const shown = names.slice(0, 3);
  const more = names.length > shown.length ? `, and ${names.length - shown.length} more` : "";
  const schemas = names.length === 1 ? "schema is" : "schemas are";
  return `past the first ${MAX_UNVALIDATED_SCHEMA_BYTES} bytes of JSON of its schemas, ${names.length} ${schemas} carried as any value (${shown.join(", ")}${more})`;
}
