/** @fungi.computer/forage: list, search and describe a catalog of operations. */
export { ForageError, isForageError, type ForageErrorCode } from "./forage-error.js";
export { createCatalog } from "./catalog/create-catalog.js";
export { createForage, type ForageOptions } from "./catalog/create-forage.js";
export * from "./catalog/bounds.js";
export type {
  Catalog,
  CatalogDefinition,
  Description,
  DescribeOptions,
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
export type { ForageValidator, JsonSchema, JsonValue } from "./describe/json-schema.js";
export { createExampleCatalog, scaledExampleOperations } from "./example/example-catalog.js";
export {
  jsonSchemaToZod,
  MAX_DOCUMENT_DEPTH,
  MAX_DOCUMENT_NODES,
  MAX_EXPANDED_DEPTH,
  MAX_EXPANDED_NODES,
  type JsonSchemaDialect,
  type JsonSchemaToZodOptions,
} from "./json-schema/index.js";
export * from "./app-tools/index.js";
