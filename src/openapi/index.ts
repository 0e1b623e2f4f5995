/**
 * @fungi.computer/forage/openapi: host-only OpenAPI intake. It reads owner
 * specs into operations and decodes selected tables; it never fetches,
 * reads credentials or executes anything.
 */

export { MAX_UNVALIDATED_SCHEMA_BYTES } from "../unvalidated-schema-bound.js";
export * from "./limits.js";
export { normalizeOpenApi } from "./normalize-openapi.js";
export { RESERVED_METHOD_NAMES } from "./operation/method-names.js";
export * from "./split/split-limits.js";
export type { OpenApiPart, OpenApiSplit, OpenApiSplitLeftOut, SplitOpenApiOptions } from "./split/split-openapi.js";
export { splitOpenApi } from "./split/split-openapi.js";
export type { OpenApiSelect } from "./split/split-selection.js";
export { parseOpenApiTable, selectOpenApiOperations, toOpenApiTableRow } from "./table/operation-table.js";
export type {
  AuthHint,
  HttpMethod,
  NormalizedOpenApi,
  NormalizeOpenApiOptions,
  OpenApiBodyShape,
  OpenApiCallShape,
  OpenApiDialect,
  OpenApiOperation,
  OpenApiSelection,
  OpenApiTable,
  OpenApiTableMethod,
  OpenApiTableRow,
  OpenApiVersion,
  OperationEffect,
  ServerHint,
  SourceSchema,
  ThirdPartyInfo,
  ThirdPartyText,
  UnsupportedOperation,
} from "./types.js";
export { unexpandedOperations } from "./unexpanded-operations.js";
