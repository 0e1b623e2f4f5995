/**
 * The schema dialect the compiler reads.
 * - `draft-04`, `draft-07`, `draft-2020-12`: JSON Schema drafts.
 * - `openapi-3.0`: the OpenAPI 3.0 Schema Object (draft-04 style bounds, `nullable`).
 * - `openapi-3.1`: the OpenAPI 3.1 Schema Object (2020-12 plus OpenAPI annotations).
 */
export type JsonSchemaDialect = "draft-04" | "draft-07" | "draft-2020-12" | "openapi-3.0" | "openapi-3.1";

/** Options for {@link jsonSchemaToZod}. */
export interface JsonSchemaToZodOptions {
  /**
   * Dialect to compile. `"json-schema"` is an alias of `"draft-2020-12"`.
   * Absent: taken from a root `$schema` the compiler knows, else `"draft-2020-12"`.
   */
  dialect?: JsonSchemaDialect | "json-schema";
}
