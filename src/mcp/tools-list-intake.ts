import { ForageError } from "../forage-error.js";
import { passOnHandOver } from "../json-schema/json-document.js";
import { assertSpecLimits } from "../openapi/spec/spec-limits.js";
import { boundTitle } from "../openapi/text-limits.js";
import { MAX_TOOLS } from "./limits.js";
import { isRecord, readTool, toolSummary } from "./read-tool.js";
import { readServerInfo } from "./server-info.js";
import { toolSegments } from "./tool-segments.js";
import type { LeftOutTool, McpOperation, McpServerInfo, McpToolsIntake, UnvalidatedTool } from "./types.js";

/** True when a parsed document looks like a tools/list result: a top-level `tools` array. */
export function isToolsListDocument(document: unknown): boolean {
  return isRecord(document) && Array.isArray(document.tools);
}

/**
 * Reads an MCP tools/list result (`{ tools: [...] }`) into operations, one per
 * tool, each with a single-segment path, and the tools left out with the reason.
 * The server info is the initialize answer's when given; a saved file may carry
 * it as top-level `serverInfo` and `instructions`. Throws a ForageError only for
 * the document as a whole: too large, too deep, or not a tools/list result.
 */
export function readToolsList(document: unknown, server?: McpServerInfo): McpToolsIntake {
  assertSpecLimits(document);
  if (!isRecord(document) || !Array.isArray(document.tools))
    throw new ForageError("invalid_catalog", "expected an MCP tools/list result: { tools: [...] }");
  const tools: unknown[] = document.tools;
  if (tools.length > MAX_TOOLS) {
    throw new ForageError("too_large", `The tool list has ${tools.length} tools; the limit is ${MAX_TOOLS}`, {
      limit: MAX_TOOLS,
    });
  }
  const { named, unsupported } = namedTools(tools);
  const segments = toolSegments(named.map(({ name }) => name));
  const operations: McpOperation[] = [];
  named.forEach(({ name, tool }, index) => {
    // A document a source parsed from a file's text hands its tools' schemas to the compiler as they are.
    passOnHandOver(document, tool.inputSchema);
    passOnHandOver(document, tool.outputSchema);
    const segment = segments[index] as string;
    const read = readTool(tool, name, segment);
    if (!read.ok) unsupported.push(leftOut(name, tool, read.reason, read.declared && { segment, ...read.declared }));
    else operations.push({ path: segment, toolName: boundTitle(name) as string, ...withoutOk(read) });
  });
  return {
    operations,
    unsupported,
    declared: tools.length,
    server: server ?? readServerInfo(document.serverInfo, document.instructions),
  };
}

interface NamedTool {
  readonly name: string;
  readonly tool: Record<string, unknown>;
}

/** Tools with a name of their own; a nameless or repeated one is left out, never silently dropped. */
function namedTools(tools: readonly unknown[]): { named: NamedTool[]; unsupported: LeftOutTool[] } {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    if (isRecord(tool) && typeof tool.name === "string") counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  }
  const named: NamedTool[] = [];
  const unsupported: LeftOutTool[] = [];
  tools.forEach((tool, index) => {
    if (!isRecord(tool)) unsupported.push({ toolName: `tool #${index}`, reason: "the tool is not an object" });
    else if (typeof tool.name !== "string" || tool.name === "")
      unsupported.push(leftOut(`tool #${index}`, tool, "the tool has no name"));
    else if ((counts.get(tool.name) ?? 0) > 1)
      unsupported.push(leftOut(tool.name, tool, "another tool has the same name, so a call could not tell them apart"));
    else named.push({ name: tool.name, tool });
  });
  return { named, unsupported };
}

function leftOut(
  name: string,
  tool: Record<string, unknown>,
  reason: string,
  unvalidated?: UnvalidatedTool,
): LeftOutTool {
  const summary = toolSummary(tool);
  return {
    toolName: boundTitle(name) as string,
    ...(summary === undefined ? {} : { summary }),
    reason,
    ...(unvalidated === undefined ? {} : { unvalidated }),
  };
}

function withoutOk<T extends { ok: true }>(result: T): Omit<T, "ok"> {
  const { ok: _ok, ...rest } = result;
  return rest;
}
