import { ForageError } from "../../forage-error.js";
import type { JsonObject } from "../../json-value.js";
import type { OpenApiVersion } from "../types.js";

// 3.1 specs may name their schema dialect; only the default one is what the compiler reads.
const SUPPORTED_3_1_DIALECTS = new Set([
  "https://spec.openapis.org/oas/3.1/dialect/base",
  "https://json-schema.org/draft/2020-12/schema",
]);

/**
 * The spec's OpenAPI version. Swagger 2 is refused with the way forward
 * (convert it first); any version other than 3.0.x and 3.1.x is refused too.
 */
export function readSpecVersion(document: unknown): { readonly root: JsonObject; readonly version: OpenApiVersion } {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new ForageError("invalid_spec", "The spec must be a JSON or YAML object with an `openapi` field");
  }
  const root = document as JsonObject;
  if (Object.hasOwn(root, "swagger")) {
    throw new ForageError(
      "unsupported",
      `Swagger ${JSON.stringify(root.swagger)} is not supported; convert the spec to OpenAPI 3.0 or 3.1 first (for example with swagger2openapi)`,
      { swagger: root.swagger },
    );
  }
  const declared = root.openapi;
  if (typeof declared !== "string") {
    throw new ForageError(
      "invalid_spec",
      "The spec has no `openapi` version string; only OpenAPI 3.0 and 3.1 documents are read",
    );
  }
  const version = /^3\.0\.\d+$/.test(declared) ? "3.0" : /^3\.1\.\d+$/.test(declared) ? "3.1" : undefined;
  if (version === undefined) {
    throw new ForageError(
      "unsupported",
      `OpenAPI version ${JSON.stringify(declared)} is not supported; only 3.0.x and 3.1.x are read`,
      {
        openapi: declared,
      },
    );
  }
  assertDialect(root, version);
  return { root, version };
}

function assertDialect(root: JsonObject, version: OpenApiVersion): void {
  const dialect = root.jsonSchemaDialect;
  if (
    version === "3.1" &&
    dialect !== undefined &&
    !(typeof dialect === "string" && SUPPORTED_3_1_DIALECTS.has(dialect))
  ) {
    throw new ForageError(
      "unsupported",
      `jsonSchemaDialect ${JSON.stringify(dialect)} is not supported; only the OpenAPI 3.1 base dialect is read`,
      {
        jsonSchemaDialect: dialect,
      },
    );
  }
}
