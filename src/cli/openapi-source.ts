import type { OperationDefinition } from "../catalog/types.js";
import { normalizeOpenApi } from "../openapi/index.js";

/** Operations of an OpenAPI spec's supported methods, named by method; a note, naming `namespace`, for the unsupported ones. */
export function openApiOperations(text: string, namespace: string): OperationDefinition[] {
  const normalized = normalizeOpenApi(text);
  if (normalized.unsupported.length > 0) {
    process.stderr.write(
      `forage: ${namespace}: ${normalized.unsupported.length} operations unsupported; \`forage openapi preview\` gives the reasons\n`,
    );
  }
  return normalized.operations.map((operation) => ({
    path: operation.name,
    input: operation.input,
    ...(operation.output === undefined ? {} : { output: operation.output }),
    description: operation.description,
    capabilities: [
      `${operation.effect === "read" ? "reads" : "writes"} over HTTP: ${operation.method} ${operation.path}`,
    ],
  }));
}
