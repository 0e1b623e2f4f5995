import type { McpConfigFlavor } from "./mcp-config.js";
import { SourceError } from "./source-error.js";
import type { SourceLocation } from "./source-spec.js";

/**
 * A source once its kind is known (detectSource decides, in one place). A file's kind comes
 * from its parsed keys, never its text; each file kind carries the text (for the revision's
 * digest) and what the kind's reader needs.
 */
export type DetectedSource =
  | { readonly kind: "module"; readonly path: string; readonly text: string }
  | { readonly kind: "folder"; readonly path: string }
  | { readonly kind: "openapi"; readonly path: string; readonly text: string }
  | { readonly kind: "catalog-file"; readonly path: string; readonly text: string; readonly document: unknown }
  | { readonly kind: "tools-list-file"; readonly path: string; readonly text: string; readonly result: unknown }
  | {
      readonly kind: "mcp-config";
      readonly path: string;
      readonly text: string;
      readonly flavor: McpConfigFlavor;
      readonly document: Record<string, unknown>;
    }
  | { readonly kind: "mcp-server"; readonly location: Exclude<SourceLocation, { kind: "path" }> };

/** Every kind of source Forage accepts, as the help and an unrecognized source's error list them. */
export const ACCEPTED_SOURCES: readonly string[] = [
  "a .js/.mjs module exporting `operations` or `catalog`",
  "an OpenAPI 3.0/3.1 spec (.json/.yaml with a top-level `openapi`)",
  "a catalog file (.json/.yaml with a top-level `operations` list)",
  "an MCP tools/list result (.json/.yaml with a top-level `tools` list) or a JSON-RPC reply holding one",
  "an MCP client config: `mcpServers` (Claude Desktop, Claude Code, Cursor) or `servers` (VS Code)",
  "a folder of MCP tools/list files (*.json)",
  "mcp:<command line>, a live MCP server over stdio",
  "mcp:<http(s) URL>, a remote MCP server over Streamable HTTP or SSE",
];

/** The extensions of files read as data (JSON, or YAML, which reads JSON too). */
export const DATA_EXTENSIONS: readonly string[] = [".json", ".yaml", ".yml"];

/** The extensions of JS modules, imported rather than read. */
export const MODULE_EXTENSIONS: readonly string[] = [".js", ".mjs", ".cjs"];

/** An unrecognized source: why, and every kind Forage accepts. `usage` when its very name rules it out. */
export function unrecognizedSource(path: string, why: string, usage: boolean): SourceError {
  return new SourceError(path, `source ${path}: ${why}; expected ${ACCEPTED_SOURCES.join(", or ")}`, usage);
}
