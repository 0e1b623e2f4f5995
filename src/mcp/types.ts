import type { OperationDefinition } from "../catalog/types.js";
import type { JsonObject, JsonSchema } from "../json-value.js";
import type { ThirdPartyText } from "../openapi/types.js";

/** What a server says about itself in its initialize answer, bounded. */
export interface McpServerInfo {
  readonly name?: string;
  readonly title?: string;
  readonly version?: string;
  readonly description?: string;
  /** The server's instructions: provider-authored, to be shown as data. */
  readonly instructions?: string;
}

/** One tool as an operation: its path is a single segment, to be put under a namespace. */
export interface McpOperation extends OperationDefinition {
  /** The tool's name as the server spells it; the path segment may differ. */
  readonly toolName: string;
  /** The tool's title and description, bounded and marked third_party. */
  readonly text: ThirdPartyText;
}

/**
 * A tool the compiler refused, as the server declares it: not validated by Forage, never
 * compiled or widened, but the server's tool all the same.
 */
export interface UnvalidatedTool {
  /** The path segment it would have had: the same spelling as a supported tool's (see toolSegments). */
  readonly segment: string;
  readonly description?: string;
  readonly capabilities: readonly string[];
  /** The tool's `inputSchema` and `outputSchema`, as the server sent them. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonSchema;
}

/** A tool that is not offered, and why. */
export interface LeftOutTool {
  readonly toolName: string;
  /** The first line of the description, or the title. */
  readonly summary?: string;
  readonly reason: string;
  /** Present when only the compiler refused it: the tool as the server declares it. */
  readonly unvalidated?: UnvalidatedTool;
}

/** A tools/list result read into operations. */
export interface McpToolsIntake {
  readonly operations: readonly McpOperation[];
  readonly unsupported: readonly LeftOutTool[];
  /** Every tool listed, supported or not. */
  readonly declared: number;
  readonly server: McpServerInfo;
}
