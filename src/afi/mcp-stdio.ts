import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type AfiMcpServerOptions, createAfiMcpServer } from "./mcp-server.js";

/** Serves the MCP server on stdin/stdout until the client closes stdin. */
export async function serveMcpOverStdio(options: AfiMcpServerOptions): Promise<void> {
  const server = createAfiMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
