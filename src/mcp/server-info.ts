import { boundDescription, boundText, boundTitle } from "../openapi/text-limits.js";
import { MAX_INSTRUCTIONS_LENGTH } from "./limits.js";
import { isRecord } from "./read-tool.js";
import type { McpServerInfo } from "./types.js";

/**
 * Server info from an initialize answer's `serverInfo` (an Implementation:
 * name, title?, version, description?) and `instructions`, each bounded; anything else is dropped.
 */
export function readServerInfo(serverInfo: unknown, instructions: unknown): McpServerInfo {
  const implementation = isRecord(serverInfo) ? serverInfo : {};
  const name = boundTitle(implementation.name);
  const title = boundTitle(implementation.title);
  const version = boundTitle(implementation.version);
  const description = boundDescription(implementation.description);
  const bounded = boundText(instructions, MAX_INSTRUCTIONS_LENGTH);
  return {
    ...(name === undefined ? {} : { name }),
    ...(title === undefined ? {} : { title }),
    ...(version === undefined ? {} : { version }),
    ...(description === undefined ? {} : { description }),
    ...(bounded === undefined ? {} : { instructions: bounded }),
  };
}
