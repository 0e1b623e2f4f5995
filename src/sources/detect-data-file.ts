import { passOnHandOver } from "../json-schema/json-document.js";
import { MAX_YAML_SOURCE_BYTES } from "./source-bounds.js";
import { parseSourceDocument } from "./source-document.js";
import { SourceError } from "./source-error.js";
import { type DetectedSource, unrecognizedSource } from "./source-kinds.js";
import { yamlTopLevelKey } from "./yaml-top-key.js";

/**
 * A JSON or YAML file's kind, by its top-level keys: `openapi`/`swagger`, then a JSON-RPC reply
 * (`jsonrpc`), `tools`, `operations`, and an MCP client config's `mcpServers` or `servers`.
 */
export function detectDataFile(path: string, text: string): DetectedSource {
  if (!looksLikeJson(text) && yamlTopLevelKey(text, ["openapi", "swagger"]) !== undefined)
    return { kind: "openapi", path, text };
  const parsed = parseData(path, text);
  const keys: Record<string, unknown> = isRecord(parsed) ? parsed : {};
  if ("openapi" in keys || "swagger" in keys) return { kind: "openapi", path, text };
  if ("jsonrpc" in keys) return { kind: "tools-list-file", path, text, result: replyResult(path, keys) };
  if (Array.isArray(keys.tools)) return { kind: "tools-list-file", path, text, result: keys };
  if (Array.isArray(keys.operations)) return { kind: "catalog-file", path, text, document: keys };
  if (isRecord(keys.mcpServers)) return { kind: "mcp-config", path, text, flavor: "mcpServers", document: keys };
  if (isRecord(keys.servers)) return { kind: "mcp-config", path, text, flavor: "servers", document: keys };
  throw unrecognizedSource(path, "its top-level keys are none that Forage reads", false);
}

/** A saved JSON-RPC reply to tools/list: its `result`; an error reply is refused with its message. */
function replyResult(path: string, reply: Record<string, unknown>): unknown {
  if (isRecord(reply.result) && Array.isArray(reply.result.tools)) return passOnHandOver(reply, reply.result);
  const error = reply.error;
  const said = isRecord(error) && typeof error.message === "string" ? `: ${error.message.slice(0, 200)}` : "";
  if (error !== undefined) throw new SourceError(path, `source ${path}: a JSON-RPC error reply${said}`);
  throw new SourceError(
    path,
    `source ${path}: a JSON-RPC message, but not a reply to tools/list ({ "result": { "tools": [...] } })`,
  );
}

function parseData(path: string, text: string): unknown {
  // YAML costs far more per byte than JSON to parse, so it has a bound of its own, checked first
  // (and measured only for YAML: a JSON text's length is not needed here).
  if (!looksLikeJson(text)) {
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_YAML_SOURCE_BYTES)
      throw new SourceError(path, `source ${path}: ${bytes} bytes of YAML; the limit is ${MAX_YAML_SOURCE_BYTES}`);
  }
  const parsed = parseSourceDocument(text);
  if (parsed.ok) return parsed.document;
  const line = parsed.line === undefined ? "" : `:${parsed.line}`;
  throw new SourceError(path, `source ${path}${line}: ${parsed.problem}`);
}

/** JSON starts with `{` or `[`; anything else is read as YAML. */
function looksLikeJson(text: string): boolean {
  return /^\uFEFF?\s*[{[]/.test(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
