import type { JsonSchema } from "../json-value.js";

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
  /** Those the tree has no files for, their schemas unreadable, each with the reason. */
  readonly unsupported: readonly LeftOutOperation[];
  /**
   * Those the catalog does not hold because Forage could not validate them, shown from the
   * source's own schemas (docs/mount.md, "Not validated operations"); none when absent.
   */
  readonly unvalidated?: readonly UnvalidatedOperation[];
  /** For one part of a spec split into parts (docs/intake.md, "Splitting a large spec"): the spec's namespace and its parts. */
  readonly part?: { readonly spec: string; readonly count: number };
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

/**
 * An operation or tool of a source that the compiler (or intake's input rules) refused, as the
 * source declares it: still the source's operation, so the tree gives it files, marked not
 * validated by Forage. Never in the catalog, whose list, search and describe stay exact.
 */
export interface UnvalidatedOperation {
  /** Its path segment under the namespace, the name it would have had: the OpenAPI method name, the MCP tool's segment. */
  readonly segment: string;
  /** "GET /pets/{petId}" for OpenAPI, the tool name for MCP, as the left-out list names operations. */
  readonly name: string;
  readonly summary?: string;
  readonly description?: string;
  /** Notes as a described operation of the source has them (its HTTP method and path, its MCP hints). */
  readonly capabilities: readonly string[];
  /** The source's own input schema (for OpenAPI, its parameters and body joined as intake joins them). */
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  /** Why Forage does not validate it, naming the keyword or rule. */
  readonly reason: string;
}
