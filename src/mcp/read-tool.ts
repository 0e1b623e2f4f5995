import type { z } from "zod";
import { inheritedPropertyName } from "../json-schema/inherited-property-name.js";
import type { JsonObject, JsonSchema, JsonValue } from "../json-value.js";
import { compileOperationSchema } from "../openapi/operation/compile-operation-schema.js";
import { boundDescription, boundTitle, thirdPartyText } from "../openapi/text-limits.js";
import type { ThirdPartyText } from "../openapi/types.js";
import { toolCapabilityNotes } from "./annotation-notes.js";
import type { UnvalidatedTool } from "./types.js";

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
  | {
      readonly ok: false;
      readonly reason: string;
      /** When only the compiler refused it: the tool as the server declares it, less its path segment. */
      readonly declared?: Omit<UnvalidatedTool, "segment">;
    };

/** Reads one MCP Tool object, whose path segment is `segment`; every way it can fail is a reason, never an exception. */
export function readTool(tool: Record<string, unknown>, toolName: string, segment: string): ToolResult {
  const { inputSchema, outputSchema, annotations } = tool;
  if (!isRecord(inputSchema)) return { ok: false, reason: "the tool has no inputSchema object" };
  const inherited = inheritedPropertyName({ inputSchema, outputSchema }, "");
  if (inherited !== undefined) {
    return {
      ok: false,
      reason: `property name ${JSON.stringify(inherited.name)} at ${inherited.at.slice(1)} is a JavaScript object member name, which the description could not show`,
    };
  }
  const title = toolTitle(tool);
  const description = boundDescription(tool.description) ?? title;
  const described = {
    ...(description === undefined ? {} : { description }),
    capabilities: toolCapabilityNotes(toolName, segment, annotations),
  };
  const declared = {
    ...described,
    inputSchema: inputSchema as JsonObject,
    ...(isSchema(outputSchema) ? { outputSchema } : {}),
  };
  const input = compileOperationSchema(inputSchema as JsonValue, undefined, "inputSchema");
  if (!input.ok) return { ...input, declared };
  const output =
    outputSchema === undefined
      ? undefined
      : compileOperationSchema(outputSchema as JsonValue, undefined, "outputSchema");
  if (output !== undefined && !output.ok) return { ...output, ...(isSchema(outputSchema) ? { declared } : {}) };
  return {
    ok: true,
    input: input.validator,
    ...(output === undefined ? {} : { output: output.validator }),
    ...described,
    text: thirdPartyText({ summary: title, description: tool.description }),
  };
}

/** A schema the tree can render: an object or a boolean (anything else is no schema at all). */
function isSchema(value: unknown): value is JsonSchema {
  return isRecord(value) || typeof value === "boolean";
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
