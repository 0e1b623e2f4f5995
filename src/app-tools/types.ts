import type { z } from "zod";
import type { JsonObject, JsonSchema } from "../json-value.js";

/** A tool's declared effect, as the App's signed method declares it. */
export type AppToolEffect = "read" | "write";

/**
 * The signed App API behind one dynamic tool family: what the host already
 * trusts about the App's listing and call methods. Plain data, no functions.
 */
export interface AppToolFamilyApi {
  /** Family name, e.g. "bazaar.windows". */
  readonly family: string;
  /** The signed listing method and its declared output schema; every reply must satisfy it. */
  readonly listMethod: { readonly name: string; readonly output: JsonSchema };
  /** The App method a host calls, through that App's call owner, to invoke one row's tool. */
  readonly callMethod: string;
  /** Declared effect of calling any tool of the family. */
  readonly effect: AppToolEffect;
  /** Declared requirements (for example capability names), passed through untouched. */
  readonly requirements?: readonly string[];
}

/**
 * What the listing method returns, after its declared output schema accepted it.
 * `indexed: false` is an unindexed listing: it has no tools, whatever `rows` holds.
 */
export interface AppToolListingReply {
  readonly indexed: boolean;
  readonly rows?: readonly AppToolListingRow[];
}

/** One listed tool, as the App wrote it. Other App-owned fields are allowed and kept. */
export interface AppToolListingRow {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  /** App-owned; Forage keeps it as row data and never interprets it. */
  readonly selector?: unknown;
  readonly [field: string]: unknown;
}

/** One tool of the family: the App's row plus validators compiled from its schemas. */
export interface AppToolRow {
  readonly name: string;
  readonly description?: string;
  /** Validates the tool's input; compiled from `data.inputSchema` by jsonSchemaToZod. */
  readonly input: z.ZodType;
  /** Validates the tool's output when the row declares `outputSchema`. */
  readonly output?: z.ZodType;
  /** The row exactly as listed (selector included), as a frozen copy. */
  readonly data: Readonly<JsonObject>;
}

/** A listed row whose schemas the compiler refused, with the reason a person can act on. */
export interface AppToolUnsupportedRow {
  readonly name: string;
  readonly code: string;
  readonly reason: string;
}

/** The family projection: data and validators only, never handlers, binding defaults or authority. */
export interface AppToolFamily {
  readonly family: string;
  readonly listMethod: string;
  readonly callMethod: string;
  readonly effect: AppToolEffect;
  readonly requirements: readonly string[];
  readonly indexed: boolean;
  readonly rows: readonly AppToolRow[];
  readonly unsupported: readonly AppToolUnsupportedRow[];
}
