import { ForageError } from "../forage-error.js";
import type { JsonValue } from "../json-value.js";
import { isJsonObject } from "./json-document.js";
import { unsupportedKeyword } from "./refusal.js";
import type { JsonSchemaDialect } from "./types.js";

/** What one dialect allows: the compiler's whole view of a draft. */
export interface DialectProfile {
  readonly name: JsonSchemaDialect;
  /** Constraint keywords this dialect defines and the compiler preserves exactly. */
  readonly constraints: ReadonlySet<string>;
  /** Keywords that never constrain an instance here (annotations, `$defs` containers). */
  readonly annotations: ReadonlySet<string>;
  /** Keywords allowed only on the document root (`$schema`, `$id` / `id`). */
  readonly rootOnly: ReadonlySet<string>;
  /** Draft 4/7 and OpenAPI 3.0: every keyword beside `$ref` is ignored. */
  readonly refSiblingsIgnored: boolean;
  /** Whether `true` / `false` may stand where a schema is expected. */
  readonly booleanSchemas: boolean;
  /** Draft 4 / OpenAPI 3.0: `exclusiveMinimum: true` modifies `minimum`. */
  readonly booleanExclusiveBounds: boolean;
  /** Where a tuple's positional schemas live: draft 4/7 `items: [...]`, 2020-12 `prefixItems`. */
  readonly tupleKeyword: "items" | "prefixItems" | undefined;
  /** OpenAPI 3.0 requires `type` to be one string. */
  readonly typeArrays: boolean;
  /** OpenAPI dialects allow `x-*` specification extensions, which never constrain. */
  readonly extensions: boolean;
  /** `$schema` URIs that name this dialect. */
  readonly schemaUris: readonly string[];
}

const SHARED_CONSTRAINTS = [
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "allOf",
  "anyOf",
  "oneOf",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "$ref",
] as const;

// Annotations are accepted in every dialect: where a draft does not define one,
// a validator ignores it, which is exactly what carrying it as metadata does.
const SHARED_ANNOTATIONS = [
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "$defs",
  "definitions",
] as const;

const OPENAPI_ANNOTATIONS = ["example", "externalDocs", "xml", "discriminator"] as const;

const DRAFT_2020_URIS = [
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2020-12/schema#",
];

const PROFILES: Readonly<Record<JsonSchemaDialect, DialectProfile>> = {
  "draft-04": profile("draft-04", {
    constraints: [...SHARED_CONSTRAINTS, "additionalItems"],
    rootOnly: ["$schema", "id"],
    refSiblingsIgnored: true,
    booleanSchemas: false,
    booleanExclusiveBounds: true,
    tupleKeyword: "items",
    schemaUris: ["http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-04/schema"],
  }),
  "draft-07": profile("draft-07", {
    constraints: [...SHARED_CONSTRAINTS, "additionalItems", "const"],
    rootOnly: ["$schema", "$id"],
    refSiblingsIgnored: true,
    tupleKeyword: "items",
    schemaUris: ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"],
  }),
  "draft-2020-12": profile("draft-2020-12", {
    constraints: [...SHARED_CONSTRAINTS, "prefixItems", "const"],
    rootOnly: ["$schema", "$id"],
    tupleKeyword: "prefixItems",
    schemaUris: DRAFT_2020_URIS,
  }),
  "openapi-3.0": profile("openapi-3.0", {
    constraints: [...SHARED_CONSTRAINTS, "nullable"],
    annotations: OPENAPI_ANNOTATIONS,
    rootOnly: [],
    refSiblingsIgnored: true,
    booleanSchemas: false,
    booleanExclusiveBounds: true,
    tupleKeyword: undefined,
    typeArrays: false,
    extensions: true,
    schemaUris: [],
  }),
  "openapi-3.1": profile("openapi-3.1", {
    constraints: [...SHARED_CONSTRAINTS, "prefixItems", "const"],
    annotations: OPENAPI_ANNOTATIONS,
    rootOnly: ["$schema", "$id"],
    tupleKeyword: "prefixItems",
    extensions: true,
    schemaUris: [...DRAFT_2020_URIS, "https://spec.openapis.org/oas/3.1/dialect/base"],
  }),
};

interface ProfileSpec {
  constraints: readonly string[];
  annotations?: readonly string[];
  rootOnly: readonly string[];
  refSiblingsIgnored?: boolean;
  booleanSchemas?: boolean;
  booleanExclusiveBounds?: boolean;
  tupleKeyword: "items" | "prefixItems" | undefined;
  typeArrays?: boolean;
  extensions?: boolean;
  schemaUris: readonly string[];
}

function profile(name: JsonSchemaDialect, spec: ProfileSpec): DialectProfile {
  return {
    name,
    constraints: new Set(spec.constraints),
    annotations: new Set([...SHARED_ANNOTATIONS, ...(spec.annotations ?? [])]),
    rootOnly: new Set(spec.rootOnly),
    refSiblingsIgnored: spec.refSiblingsIgnored ?? false,
    booleanSchemas: spec.booleanSchemas ?? true,
    booleanExclusiveBounds: spec.booleanExclusiveBounds ?? false,
    tupleKeyword: spec.tupleKeyword,
    typeArrays: spec.typeArrays ?? true,
    extensions: spec.extensions ?? false,
    schemaUris: spec.schemaUris,
  };
}

/**
 * Picks the dialect profile: the explicit option wins, a root `$schema` must agree
 * with it, and without an option a known root `$schema` decides (default 2020-12).
 */
export function resolveDialect(root: JsonValue, requested: string | undefined): DialectProfile {
  const declared = isJsonObject(root) ? root.$schema : undefined;
  if (requested !== undefined) {
    const chosen = lookupProfile(requested);
    if (declared !== undefined) assertSchemaUri(chosen, declared);
    return chosen;
  }
  if (declared === undefined) return PROFILES["draft-2020-12"];
  const match = (["draft-2020-12", "draft-07", "draft-04"] as const)
    .map((name) => PROFILES[name])
    .find((candidate) => typeof declared === "string" && candidate.schemaUris.includes(declared));
  if (match === undefined)
    throw unsupportedKeyword("$schema", "/$schema", `unknown dialect ${JSON.stringify(declared)}`);
  return match;
}

function lookupProfile(requested: string): DialectProfile {
  const name = requested === "json-schema" ? "draft-2020-12" : requested;
  if (!Object.hasOwn(PROFILES, name)) {
    throw new ForageError("invalid_argument", `Unknown JSON Schema dialect ${JSON.stringify(requested)}`, {
      dialect: requested,
    });
  }
  return PROFILES[name as JsonSchemaDialect];
}

function assertSchemaUri(chosen: DialectProfile, declared: JsonValue): void {
  if (typeof declared === "string" && chosen.schemaUris.includes(declared)) return;
  throw unsupportedKeyword(
    "$schema",
    "/$schema",
    `${JSON.stringify(declared)} does not name the ${chosen.name} dialect being compiled`,
  );
}
