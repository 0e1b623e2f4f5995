import type { z } from "zod";
import type { JsonObject, JsonSchema } from "../json-value.js";

/** The HTTP methods intake can expose; TRACE is never supported. */
export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH";

/** The OpenAPI minor versions intake reads. */
export type OpenApiVersion = "3.0" | "3.1";

/** The compiler dialect a version's schemas are read in. */
export type OpenApiDialect = "openapi-3.0" | "openapi-3.1";

/** GET, HEAD and OPTIONS read; every other supported method writes. */
export type OperationEffect = "read" | "write";

/** Options for normalizeOpenApi. */
export interface NormalizeOpenApiOptions {
  /** A parameter name the owner's credential fills; it never becomes guest input. */
  readonly authParameter?: string;
}

/** Provider-authored text: bounded, and to be framed by hosts as data, never as instructions. */
export interface ThirdPartyText {
  readonly source: "third_party";
  readonly summary?: string;
  readonly description?: string;
  readonly tags: readonly string[];
}

/** The JSON request body of an operation. */
export interface OpenApiBodyShape {
  /** The JSON media type the body is sent as, e.g. "application/json". */
  readonly contentType: string;
  readonly required: boolean;
}

/**
 * How input keys map onto the request. Input is one flat object: each listed
 * name is both the input key and the wire name; the body is the "body" key.
 * Serialization is always OpenAPI's default for the location.
 */
export interface OpenApiCallShape {
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly headerParams: readonly string[];
  readonly body: OpenApiBodyShape | null;
}

/** One supported method in serializable form: exactly what a selected table stores. */
export interface OpenApiTableRow {
  readonly name: string;
  readonly method: HttpMethod;
  /** The OpenAPI path template, e.g. "/pets/{petId}". */
  readonly path: string;
  readonly effect: OperationEffect;
  readonly dialect: OpenApiDialect;
  /** Normalized JSON Schema of the flat input object; no `$ref`s, bounded annotations. */
  readonly inputSchema: JsonObject;
  /** Normalized JSON Schema of the declared JSON success responses, when there is one. */
  readonly outputSchema?: JsonSchema;
  readonly call: OpenApiCallShape;
  readonly text: ThirdPartyText;
}

/** A server hint. It confers no network admission and selects no credential destination. */
export interface ServerHint {
  readonly url: string;
  /** True when the URL is relative to where the spec was retrieved. */
  readonly relative: boolean;
  readonly description?: string;
}

/** A declared security scheme, as a hint: names and locations only, never secrets. */
export interface AuthHint {
  /** The key under components.securitySchemes. */
  readonly scheme: string;
  readonly type: string;
  /** For apiKey schemes: where the key goes and its parameter name. */
  readonly in?: "header" | "query" | "cookie";
  readonly parameterName?: string;
  /** For http schemes: e.g. "bearer", "basic". */
  readonly httpScheme?: string;
  readonly bearerFormat?: string;
  readonly description?: string;
}

/** One supported operation: a table row plus its compiled validators and hints. */
export interface OpenApiOperation extends OpenApiTableRow {
  /** Validates the flat input object exactly as `inputSchema` says. */
  readonly input: z.ZodType;
  /** Validates the JSON success body when the spec declares its schema. */
  readonly output?: z.ZodType;
  /** The bounded operation description (or summary), third-party text. */
  readonly description?: string;
  readonly deprecated: boolean;
  /** Alternatives of security scheme names (components.securitySchemes keys) the operation accepts. */
  readonly security: readonly (readonly string[])[];
  /** Operation- or path-level server hints that override the spec's. */
  readonly servers?: readonly ServerHint[];
  /** What intake left out of the input and why (excluded headers, credentials). */
  readonly notes: readonly string[];
}

/**
 * An operation's schemas as the source declares them, read the way intake reads them before
 * compiling, for an operation intake refuses: not validated, never compiled, never widened.
 */
export interface SourceSchema {
  /** The flat input object of its parameters and body, normalized as a supported operation's is. */
  readonly inputSchema: JsonObject;
  /** The declared JSON success response schema, when there is one. */
  readonly outputSchema?: JsonSchema;
}

/** An operation intake does not expose, with a reason a person can act on. */
export interface UnsupportedOperation {
  /** Upper-case HTTP method, e.g. "TRACE". */
  readonly method: string;
  readonly path: string;
  /** The method name intake gives it, as it would a supported operation (see "Method names"). */
  readonly name: string;
  /** The operation's summary (or its description), bounded third-party text. */
  readonly summary?: string;
  /** The bounded operation description (or summary), third-party text. */
  readonly description?: string;
  readonly effect: OperationEffect;
  readonly reason: string;
  /**
   * Its schemas as the source declares them, when they can be read (the compiler refused
   * them, or the input uses what intake does not support); absent when they cannot (a
   * reference problem, a recursive schema, TRACE, a `$ref` Path Item).
   */
  readonly sourceSchema?: SourceSchema;
}

/** What normalizeOpenApi returns. */
export interface NormalizedOpenApi {
  readonly version: OpenApiVersion;
  readonly info: ThirdPartyInfo;
  readonly servers: readonly ServerHint[];
  readonly auth: readonly AuthHint[];
  readonly operations: readonly OpenApiOperation[];
  readonly unsupported: readonly UnsupportedOperation[];
  /** Spec-level remarks: dropped server hints, ignored webhooks. */
  readonly notes: readonly string[];
}

/** The spec's info block, bounded and marked third-party. */
export interface ThirdPartyInfo {
  readonly source: "third_party";
  readonly title?: string;
  readonly version?: string;
  readonly description?: string;
}

/** One entry of a selection: an operation of a preview, by HTTP method and path template. */
export interface OpenApiSelection {
  readonly method: string;
  readonly path: string;
}

/** One decoded method of a selected table. */
export interface OpenApiTableMethod extends OpenApiTableRow {
  readonly input: z.ZodType;
  readonly output?: z.ZodType;
}

/** What parseOpenApiTable returns. */
export interface OpenApiTable {
  /** Decoded methods, sorted by name. */
  readonly methods: readonly OpenApiTableMethod[];
  /** The canonical rows the digest covers: what a host stores. */
  readonly rows: readonly OpenApiTableRow[];
  /** SHA-256 hex of the canonical (sorted-key) JSON of the rows. */
  readonly digest: string;
}
