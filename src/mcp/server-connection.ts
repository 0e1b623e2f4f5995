import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ForageError } from "../forage-error.js";
import { DEFAULT_LIST_DEADLINE_MS, MAX_LIST_PAGES, MAX_TOOLS, MAX_TOOLS_LIST_BYTES } from "./limits.js";
import { readServerInfo } from "./server-info.js";
import { readToolsList } from "./tools-list-intake.js";
import type { McpToolsIntake } from "./types.js";

/** Options for connectMcpServer. */
export interface McpConnectOptions {
  /** How long starting, initialize and the whole listing may take; default 15 s. */
  readonly deadlineMs?: number;
  /** The client's own name and version, sent in initialize. */
  readonly client?: { readonly name: string; readonly version: string };
}

/** One listing of a live server: the tools as listed, and what intake made of them. */
export interface McpListing {
  readonly tools: readonly unknown[];
  readonly intake: McpToolsIntake;
}

/** A live server after its first listing. Its tools are never called. */
export interface McpServerConnection {
  readonly listing: McpListing;
  /** Lists every page again under a fresh deadline. */
  relist(): Promise<McpListing>;
  /** Calls `listener` on each notifications/tools/list_changed. */
  onToolsChanged(listener: () => void): void;
  /** Ends the session and the server process (stdin closed, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
  /** Sends the server SIGTERM at once: for a client about to die, which cannot wait on close. */
  kill(): void;
}

/**
 * Pages are read loosely: each tool is judged on its own by readToolsList, so
 * one malformed tool is left out instead of failing the whole listing. (The
 * SDK's listTools would also compile every outputSchema before any bound.)
 */
const ListPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** Most of the server's stderr kept, for the message when it fails. */
const STDERR_TAIL = 1_024;

/**
 * Starts `commandLine` (run by /bin/sh as `exec <commandLine>`) as an MCP
 * server over stdio, initializes, and lists its tools following nextCursor,
 * all within the deadline and the byte and tool bounds. On any failure the
 * server is ended before the ForageError is thrown; the message is one line.
 */
export async function connectMcpServer(
  commandLine: string,
  options: McpConnectOptions = {},
): Promise<McpServerConnection> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_LIST_DEADLINE_MS;
  const transport = new StdioClientTransport({
    command: "/bin/sh",
    args: ["-c", `exec ${commandLine}`],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL);
  });
  const client = new Client(options.client ?? { name: "forage", version: "0" }, { capabilities: {} });
  const failed = watchFailures(client, () => lastLine(stderr));
  const list = async (): Promise<McpListing> => {
    const server = readServerInfo(client.getServerVersion(), client.getInstructions());
    const tools = await listAllTools(client, deadlineMs);
    return { tools, intake: readToolsList({ tools }, server) };
  };
  try {
    const listing = await withDeadline(
      (async () => {
        await client.connect(transport, { timeout: deadlineMs });
        return list();
      })(),
      failed,
      deadlineMs,
      "answer initialize and tools/list",
    );
    return {
      listing,
      relist: () => withDeadline(list(), failed, deadlineMs, "list its tools again"),
      onToolsChanged: (listener) => client.setNotificationHandler(ToolListChangedNotificationSchema, listener),
      close: () => client.close(),
      kill: () => {
        try {
          if (transport.pid !== null) process.kill(transport.pid, "SIGTERM");
        } catch {
          // Already gone: there is nothing left to end.
        }
      },
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

/** Every page of tools/list, refusing more pages, tools or bytes than the bounds allow. */
async function listAllTools(client: Client, deadlineMs: number): Promise<unknown[]> {
  const tools: unknown[] = [];
  let bytes = 0;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      ListPageSchema,
      { timeout: deadlineMs },
    );
    bytes += Buffer.byteLength(JSON.stringify(result));
    if (bytes > MAX_TOOLS_LIST_BYTES)
      throw new ForageError("too_large", `the server listed more than ${MAX_TOOLS_LIST_BYTES} bytes of tools`);
    tools.push(...result.tools);
    if (tools.length > MAX_TOOLS)
      throw new ForageError("too_large", `the server listed more than ${MAX_TOOLS} tools`, { limit: MAX_TOOLS });
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  throw new ForageError("too_large", `the server kept paging past ${MAX_LIST_PAGES} tools/list pages`);
}

/**
 * A promise that rejects when the server exits, or sends something that is
 * not MCP JSON-RPC; every later listing races it, so a dead server fails fast.
 */
function watchFailures(client: Client, stderrLine: () => string): Promise<never> {
  const failed = new Promise<never>((_resolve, fail) => {
    client.onerror = (error) => {
      // A system error (EPIPE on a dead server's stdin) is followed by the close, which says more.
      if (typeof (error as NodeJS.ErrnoException).code === "string") return;
      fail(new ForageError("invalid_catalog", `the server sent something that is not MCP: ${protocolProblem(error)}`));
    };
    client.onclose = () => {
      const said = stderrLine();
      fail(new ForageError("invalid_catalog", `the server exited${said ? `: ${said}` : ""}`));
    };
  });
  failed.catch(() => undefined);
  return failed;
}

async function withDeadline<T>(work: Promise<T>, failed: Promise<never>, deadlineMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, fail) => {
    timer = setTimeout(
      () => fail(new ForageError("invalid_catalog", `the server did not ${what} within ${deadlineMs} ms`)),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([work, failed, timeout]);
  } catch (error) {
    if (error instanceof ForageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ForageError("invalid_catalog", `the server failed: ${firstLine(message)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** JSON.parse names the text it choked on; the SDK's schema check gives a multi-line report, so say it plainly. */
function protocolProblem(error: Error): string {
  return error instanceof SyntaxError ? firstLine(error.message) : "a JSON line that is not a JSON-RPC message";
}

function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .pop() ?? ""
  );
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}
