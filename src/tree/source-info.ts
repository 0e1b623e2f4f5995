/**
 * What the tree shows about one source (an OpenAPI spec, an MCP server or tool list,
 * a catalog file) mounted under a namespace. Every text here is provider-authored:
 * already bounded by intake, and shown as data, never as instructions.
 */
export interface SourceInfo {
  /** The dotted namespace the source is mounted under, e.g. "petstore". */
  readonly namespace: string;
  /** What the source is, for people: "OpenAPI 3.1 spec", "MCP server", "MCP tools/list file". */
  readonly kind: string;
  /** Where it came from: the file path, or the `mcp:` command line. */
  readonly origin: string;
  readonly title?: string;
  readonly version?: string;
  readonly description?: string;
  /** Further facts, each shown under its heading: server hints, auth hints, instructions. */
  readonly sections: readonly SourceSection[];
  /** Operations (or tools) the source declares, supported or not. */
  readonly declared: number;
  /** Those left out, each with the reason. */
  readonly unsupported: readonly LeftOutOperation[];
}

/** A heading and its lines, e.g. "Servers" and one URL per line. */
export interface SourceSection {
  readonly heading: string;
  readonly lines: readonly string[];
}

/** An operation or tool of a source that is not described, and why. */
export interface LeftOutOperation {
  /** "GET /pets/{petId}" for OpenAPI, the tool name for MCP. */
  readonly name: string;
  readonly summary?: string;
  readonly reason: string;
}
