import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AfiHttpServer } from "./http-server.js";
import { type AfiMcpServerOptions, createAfiMcpServer } from "./mcp-server.js";

/** The one path MCP is served at. */
export const MCP_HTTP_PATH = "/mcp";

/** Sessions open at once; past this the oldest is closed (its client must initialize again). */
const MAX_SESSIONS = 64;

/** The most bytes of one POST: tool arguments are small, and the transport parses nothing larger. */
const MAX_BODY_BYTES = 1 << 20;

/** Host names a loopback server answers to; anything else is a DNS-rebinding attempt. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The session header of MCP's Streamable HTTP transport. */
const SESSION_HEADER = "mcp-session-id";

/**
 * Serves the MCP server over MCP's Streamable HTTP transport at `/mcp` on
 * host:port (docs/afi.md, "MCP over HTTP"): one SDK transport and one server
 * per session, the same tools as over stdio.
 */
export async function listenMcpHttp(
  options: AfiMcpServerOptions,
  listen: { readonly host: string; readonly port: number },
): Promise<AfiHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const checkHost = isLoopback(listen.host);
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) rpcError(response, 500, -32603, error instanceof Error ? error.message : "internal");
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (checkHost && !LOOPBACK_HOSTS.has(hostName(request.headers.host))) {
      rpcError(response, 403, -32000, "this server answers only to localhost, 127.0.0.1 and [::1] (Host header)");
      return;
    }
    if (new URL(`http://mcp.invalid${request.url ?? "/"}`).pathname !== MCP_HTTP_PATH) {
      rpcError(response, 404, -32000, `MCP is served at ${MCP_HTTP_PATH}`);
      return;
    }
    const id = request.headers[SESSION_HEADER];
    if (typeof id === "string") {
      const transport = sessions.get(id);
      if (transport === undefined) rpcError(response, 404, -32001, "no such session; initialize again");
      else await transport.handleRequest(request, response);
      return;
    }
    if (request.method !== "POST") {
      rpcError(
        response,
        400,
        -32000,
        `a ${request.method} needs the ${SESSION_HEADER} header of an initialized session`,
      );
      return;
    }
    const body = await jsonBody(request);
    if (body === "too large") {
      rpcError(response, 413, -32000, `a request is at most ${MAX_BODY_BYTES} bytes`);
      return;
    }
    if (!isInitializeRequest(body)) {
      rpcError(response, 400, -32000, `a request without ${SESSION_HEADER} must be a JSON-RPC initialize`);
      return;
    }
    await (await openSession()).handleRequest(request, response, body);
  }

  async function openSession(): Promise<StreamableHTTPServerTransport> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        if (sessions.size > MAX_SESSIONS) void sessions.values().next().value?.close();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createAfiMcpServer(options).connect(transport);
    return transport;
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${MCP_HTTP_PATH}`,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The host name of a Host header, lower-cased, without the port (an IPv6 address keeps its brackets). */
function hostName(header: string | undefined): string {
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d*)?$/.exec((header ?? "").trim().toLowerCase());
  return match?.[1] ?? "";
}

/** The JSON body of a POST, at most MAX_BODY_BYTES; undefined when it is not JSON. */
async function jsonBody(request: IncomingMessage): Promise<unknown | "too large"> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) return "too large";
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error with no id, as the SDK's own transport answers a request it refuses. */
function rpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
