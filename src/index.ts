/** @fungi.computer/forage: list, search and describe a catalog of operations. */

export * from "./app-tools/index.js";
export { type CatalogReport, createCatalogReport, type OperationRefusal } from "./catalog/catalog-report.js";
export { createCatalog } from "./catalog/create-catalog.js";
export { createForage, type ForageOptions } from "./catalog/create-forage.js";
export * from "./catalog/limits.js";
export type {
  Catalog,
  CatalogDefinition,
  DescribeOptions,
  Description,
  Forage,
  ListOptions,
  ListPage,
  NamespaceDescription,
  OperationDefinition,
  OperationDescription,
  SearchOptions,
  SearchResult,
  Summary,
} from "./catalog/types.js";
export type { ForageValidator } from "./describe/schema-projection.js";
export { createExampleCatalog, scaledExampleOperations } from "./example/example-catalog.js";
export {
  type ErrorIssue,
  type ExtraErrorDetails,
  ForageError,
  type ForageErrorCode,
  type ForageErrorDetails,
  isForageError,
} from "./forage-error.js";
export {
  type JsonSchemaDialect,
  type JsonSchemaToZodOptions,
  jsonSchemaToZod,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_NODES,
  MAX_EXPANDED_DEPTH,
  MAX_EXPANDED_NODES,
} from "./json-schema/index.js";
export type { JsonSchema, JsonValue } from "./json-value.js";
