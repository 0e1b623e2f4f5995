import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  type AfiClient,
  evidenceJson,
  evidenceText,
  type ReadValue,
  type Reply,
  TargetError,
  withTimeout,
} from "./afi-client.js";

/** How the MCP client starts and asks its server. */
export interface McpClientOptions {
  readonly timeoutMs: number;
  /** The kit's name and version, sent in initialize. */
  readonly client: { readonly name: string; readonly version: string };
}

/** Most of the server's stderr kept, for the message when it will not start. */
const STDERR_TAIL = 1_024;

/** What only an MCP server has, for the scenarios of its binding. */
export interface McpExtras {
  /** The server's tools, by name, as tools/list gave them. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** resources/read of one URI; the text of its first content as the value. */
  readResource(uri: string): Promise<Reply>;
}

/**
 * An AFI client over MCP (AFI transports/mcp): starts `commandLine` (by
 * /bin/sh, as `exec <commandLine>`) over stdio with the SDK's own client and
 * calls its `afi.*` tools. Throws a TargetError when the server will not start
 * or initialize within the timeout.
 */
export async function mcpClient(
  commandLine: string,
  options: McpClientOptions,
): Promise<{ client: AfiClient; extras: McpExtras }> {
  if (commandLine.trim() === "") throw new TargetError('give the server\'s command line after "mcp:"');
  const transport = new StdioClientTransport({
    command: "/bin/sh",
    args: ["-c", `exec ${commandLine}`],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL);
  });
  const client = new Client(options.client, { capabilities: {} });
  let tools: ReadonlyMap<string, Tool>;
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    const listed = await client.listTools({}, { timeout: options.timeoutMs });
    tools = new Map(listed.tools.map((tool) => [tool.name, tool]));
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = stderr.trim().split("\n").pop() ?? "";
    throw new TargetError(
      `mcp:${commandLine}: the server did not start and list its tools: ${firstLine(error)}${said ? ` (${evidenceText(said)})` : ""}`,
    );
  }
  const call = (name: string, args: Record<string, unknown>): Promise<Reply> =>
    callTool(client, name, args, options.timeoutMs);
  // AFI's search takes (query, opts); a server may publish opts nested or flattened beside query.
  const nested = Object.hasOwn(tools.get("afi.search")?.inputSchema.properties ?? {}, "opts");
  const afi: AfiClient = {
    transport: "mcp",
    target: `mcp:${commandLine}`,
    features: { rawPaths: true, contentType: true, paging: true, providerEof: true },
    manifest: () => call("afi.manifest", {}),
    stat: (path) => call("afi.stat", { path }),
    list: (path, opts = {}) => call("afi.list", { path, ...opts }),
    read: async (path, opts = {}) => readValue(await call("afi.read", { path, ...opts })),
    search: (query, opts = {}) => call("afi.search", nested ? { query, opts } : { query, ...opts }),
    close: () => client.close(),
  };
  return { client: afi, extras: { tools, readResource: (uri) => readResource(client, uri, options.timeoutMs) } };
}

async function readResource(client: Client, uri: string, timeoutMs: number): Promise<Reply> {
  const sent = `resources/read ${uri}`;
  try {
    const result = await client.readResource({ uri }, { timeout: timeoutMs });
    const [first] = result.contents;
    const text = first !== undefined && "text" in first ? first.text : undefined;
    const got = evidenceJson(result);
    if (typeof text !== "string") return { kind: "broken", reason: "the resource has no text", sent, got };
    try {
      return { kind: "ok", value: JSON.parse(text), sent, got };
    } catch {
      return { kind: "broken", reason: "the resource's text is not JSON", sent, got };
    }
  } catch (error) {
    return { kind: "broken", reason: firstLine(error), sent, got: "(no result)" };
  }
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<Reply> {
  const defined = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  const sent = `tools/call ${name} ${evidenceJson(defined)}`;
  const work = (async (): Promise<Reply> => {
    let result: CallToolResult;
    try {
      result = (await client.callTool({ name, arguments: defined }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // A JSON-RPC error is the protocol's, which AFI reserves for transport failures.
      if (typeof code === "number")
        return {
          kind: "error",
          error: { "x-jsonrpc-code": code, message: firstLine(error) },
          signal: "a JSON-RPC error, not a tool error with the structured Error",
          sent,
          got: `JSON-RPC error ${code}: ${evidenceText(firstLine(error))}`,
        };
      return { kind: "broken", reason: firstLine(error), sent, got: "(no result)" };
    }
    const text = result.content?.find((content) => content.type === "text")?.text;
    const got = `${result.isError === true ? "isError " : ""}${evidenceJson(result.structuredContent ?? text ?? result.content)}`;
    if (result.isError === true) {
      if (text === undefined)
        return { kind: "error", error: result.content, signal: "a tool error with no text", sent, got };
      try {
        return { kind: "error", error: JSON.parse(text), sent, got };
      } catch {
        return { kind: "error", error: text, signal: "the tool error's text is not JSON", sent, got };
      }
    }
    if (result.structuredContent !== undefined) return { kind: "ok", value: result.structuredContent, sent, got };
    try {
      return { kind: "ok", value: JSON.parse(text ?? ""), sent, got };
    } catch {
      return { kind: "broken", reason: "neither structuredContent nor JSON text in the result", sent, got };
    }
  })();
  return withTimeout(work, timeoutMs + 1_000, sent);
}

/** `afi.read`'s result with its base64 `bytes` decoded. */
function readValue(reply: Reply): Reply<ReadValue> {
  if (reply.kind !== "ok") return reply;
  const { bytes, content_type, eof } = (reply.value ?? {}) as Record<string, unknown>;
  if (typeof bytes !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(bytes) || bytes.length % 4 !== 0)
    return { ...reply, kind: "broken", reason: "bytes is not base64" };
  if (typeof eof !== "boolean") return { ...reply, kind: "broken", reason: "eof is not a boolean" };
  return {
    ...reply,
    kind: "ok",
    value: {
      bytes: new Uint8Array(Buffer.from(bytes, "base64")),
      ...(typeof content_type === "string" ? { content_type } : {}),
      eof,
    },
  };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
