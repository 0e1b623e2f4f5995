export type { JsonObject, JsonPrimitive, JsonSchema, JsonValue } from "../json-value.js";
export { jsonSchemaToZod } from "./json-schema-to-zod.js";
export { MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_NODES, MAX_EXPANDED_DEPTH, MAX_EXPANDED_NODES } from "./limits.js";
export type { JsonSchemaDialect, JsonSchemaToZodOptions } from "./types.js";
