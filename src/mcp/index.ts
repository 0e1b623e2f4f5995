/**
 * MCP intake: reads a tools/list result, saved or listed live from a server
 * over stdio or HTTP, into operations and the tools left out. It never calls a tool.
 */

export * from "./limits.js";
export {
  connectMcpServer,
  type McpConnectOptions,
  type McpListing,
  type McpServerConnection,
  type McpServerTarget,
} from "./server-connection.js";
export { isToolsListDocument, readToolsList } from "./tools-list-intake.js";
export { parseToolsListText } from "./tools-list-text.js";
export type { LeftOutTool, McpOperation, McpServerInfo, McpToolsIntake, UnvalidatedTool } from "./types.js";
