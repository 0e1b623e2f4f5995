import type { z } from "zod";
import { inheritedPropertyName } from "../json-schema/inherited-property-name.js";
import type { JsonValue } from "../json-value.js";
import { compileOperationSchema } from "../openapi/operation/compile-operation-schema.js";
import { boundDescription, boundTitle, thirdPartyText } from "../openapi/text-limits.js";
import type { ThirdPartyText } from "../openapi/types.js";
import { toolCapabilityNotes } from "./annotation-notes.js";

/** A tool read into everything an operation needs but its path, or the reason it is left out. */
export type ToolResult =
  | {
      readonly ok: true;
      readonly input: z.ZodType;
      readonly output?: z.ZodType;
      readonly description?: string;
      readonly capabilities: readonly string[];
      readonly text: ThirdPartyText;
    }
  | { readonly ok: false; readonly reason: string };

/** Reads one MCP Tool object; every way it can fail is a reason, never an exception. */
export function readTool(tool: Record<string, unknown>, toolName: string): ToolResult {
  const { inputSchema, outputSchema, annotations } = tool;
  if (!isRecord(inputSchema)) return { ok: false, reason: "the tool has no inputSchema object" };
  const inherited = inheritedPropertyName({ inputSchema, outputSchema }, "");
  if (inherited !== undefined) {
    return {
      ok: false,
      reason: `property name ${JSON.stringify(inherited.name)} at ${inherited.at.slice(1)} is a JavaScript object member name, which the description could not show`,
    };
  }
  const input = compileOperationSchema(inputSchema as JsonValue, undefined, "inputSchema");
  if (!input.ok) return input;
  const output =
    outputSchema === undefined
      ? undefined
      : compileOperationSchema(outputSchema as JsonValue, undefined, "outputSchema");
  if (output !== undefined && !output.ok) return output;
  const title = toolTitle(tool);
  const description = boundDescription(tool.description) ?? title;
  return {
    ok: true,
    input: input.validator,
    ...(output === undefined ? {} : { output: output.validator }),
    ...(description === undefined ? {} : { description }),
    capabilities: toolCapabilityNotes(toolName, annotations),
    text: thirdPartyText({ summary: title, description: tool.description }),
  };
}

/** The first line of the description, else the title: what a list of left-out tools shows. */
export function toolSummary(tool: Record<string, unknown>): string | undefined {
  const firstLine = typeof tool.description === "string" ? tool.description.trim().split("\n")[0] : undefined;
  return boundTitle(firstLine === "" ? undefined : firstLine) ?? toolTitle(tool);
}

// The top-level title wins over the older annotations.title, as the MCP spec orders them.
function toolTitle(tool: Record<string, unknown>): string | undefined {
  return boundTitle(tool.title) ?? boundTitle(isRecord(tool.annotations) ? tool.annotations.title : undefined);
}

/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
