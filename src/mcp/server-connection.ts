import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ForageError, isForageError } from "../forage-error.js";
import { DEFAULT_LIST_DEADLINE_MS, MAX_LIST_PAGES, MAX_TOOLS, MAX_TOOLS_LIST_BYTES } from "./limits.js";
import { readServerInfo } from "./server-info.js";
import { readToolsList } from "./tools-list-intake.js";
import type { McpToolsIntake } from "./types.js";

/**
 * Which server to list: a command line (run by /bin/sh as `exec <command line>`), a program
 * with its arguments and environment (as MCP client configs write them), or a remote server's
 * URL over Streamable HTTP, SSE, or Streamable HTTP falling back to SSE ("auto").
 */
export type McpServerTarget =
  | string
  | {
      readonly command: string;
      readonly args?: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | {
      readonly url: string;
      readonly transport: "streamable-http" | "sse" | "auto";
      readonly headers?: Readonly<Record<string, string>>;
    };

/** Options for connectMcpServer. */
export interface McpConnectOptions {
  /** How long starting, initialize and the whole listing may take; default DEFAULT_LIST_DEADLINE_MS. */
  readonly deadlineMs?: number;
  /** The client's own name and version, sent in initialize. */
  readonly client?: { readonly name: string; readonly version: string };
  /** Ends the server at once when aborted (SIGTERM to a child): for a client about to die mid-listing. */
  readonly signal?: AbortSignal;
  /** Called after 2 s without the listing, then every 10 s, with the time waited; never once it settles. */
  readonly onWaiting?: (waitedMs: number) => void;
}

/** When a slow server is first reported to onWaiting, and how often again. */
const FIRST_WAIT_NOTE_MS = 2_000;
const NEXT_WAIT_NOTE_MS = 10_000;

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
 * Starts or reaches the server, initializes, and lists its tools following
 * nextCursor, all within the deadline and the byte and tool bounds. A remote
 * server on "auto" is tried over Streamable HTTP first and, when that answers
 * with an HTTP client error other than 401, over SSE (the SDK's documented
 * fallback for older servers). On any failure the server is ended before the
 * ForageError is thrown; the message is one line.
 */
export async function connectMcpServer(
  target: McpServerTarget,
  options: McpConnectOptions = {},
): Promise<McpServerConnection> {
  if (typeof target === "object" && "url" in target && target.transport === "auto") {
    try {
      return await connectOver({ ...target, transport: "streamable-http" }, options);
    } catch (error) {
      const status = isForageError(error, "invalid_catalog") ? error.details.httpStatus : undefined;
      if (typeof status !== "number" || status < 400 || status >= 500 || status === 401) throw error;
      return connectOver({ ...target, transport: "sse" }, options);
    }
  }
  return connectOver(target, options);
}

async function connectOver(target: McpServerTarget, options: McpConnectOptions): Promise<McpServerConnection> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_LIST_DEADLINE_MS;
  const transport = transportFor(target);
  let stderr = "";
  if (transport instanceof StdioClientTransport)
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL);
    });
  const kill = (): void => {
    if (!(transport instanceof StdioClientTransport)) {
      void transport.close().catch(() => undefined);
      return;
    }
    try {
      if (transport.pid !== null) process.kill(transport.pid, "SIGTERM");
    } catch {
      // Already gone: there is nothing left to end.
    }
  };
  options.signal?.addEventListener("abort", kill, { once: true });
  const client = new Client(options.client ?? { name: "forage", version: "0" }, { capabilities: {} });
  const failed = watchFailures(client, () => lastLine(stderr), !(transport instanceof StdioClientTransport));
  const list = async (): Promise<McpListing> => {
    const server = readServerInfo(client.getServerVersion(), client.getInstructions());
    const tools = await listAllTools(client, deadlineMs);
    return { tools, intake: readToolsList({ tools }, server) };
  };
  const stopWaiting = waitNotes(options.onWaiting);
  try {
    const listing = await withDeadline(
      (async () => {
        await client.connect(transport, { timeout: deadlineMs });
        return list();
      })(),
      failed,
      deadlineMs,
      "answer initialize and tools/list",
    ).finally(stopWaiting);
    return {
      listing,
      relist: () => withDeadline(list(), failed, deadlineMs, "list its tools again"),
      onToolsChanged: (listener) => client.setNotificationHandler(ToolListChangedNotificationSchema, listener),
      close: async () => {
        options.signal?.removeEventListener("abort", kill);
        await client.close();
      },
      kill,
    };
  } catch (error) {
    options.signal?.removeEventListener("abort", kill);
    await client.close().catch(() => undefined);
    throw error;
  }
}

/** Calls `onWaiting` on a timer until the returned function stops it; the timer never keeps the process alive. */
function waitNotes(onWaiting: ((waitedMs: number) => void) | undefined): () => void {
  if (onWaiting === undefined) return () => undefined;
  const started = performance.now();
  const note = (): void => {
    onWaiting(performance.now() - started);
    timer = setTimeout(note, NEXT_WAIT_NOTE_MS).unref();
  };
  let timer = setTimeout(note, FIRST_WAIT_NOTE_MS).unref();
  return () => clearTimeout(timer);
}

function transportFor(target: McpServerTarget): Transport {
  if (typeof target === "string")
    return new StdioClientTransport({ command: "/bin/sh", args: ["-c", `exec ${target}`], stderr: "pipe" });
  if ("command" in target) {
    return new StdioClientTransport({
      command: target.command,
      args: [...(target.args ?? [])],
      ...(target.env === undefined ? {} : { env: { ...getDefaultEnvironment(), ...target.env } }),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      stderr: "pipe",
    });
  }
  const requestInit = target.headers === undefined ? undefined : { headers: { ...target.headers } };
  const url = new URL(target.url);
  return target.transport === "sse"
    ? new SSEClientTransport(url, { requestInit })
    : new StreamableHTTPClientTransport(url, { requestInit });
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
function watchFailures(client: Client, stderrLine: () => string, remote: boolean): Promise<never> {
  const failed = new Promise<never>((_resolve, fail) => {
    client.onerror = (error) => {
      const code = (error as { code?: unknown }).code;
      // A system error (EPIPE on a dead server's stdin) is followed by the close, which says more.
      if (typeof code === "string") return;
      // Over HTTP, only unparsable JSON or a message that fails the schema (its issues) is "not MCP"; the rest is
      // a failed request (an HTTP status as a numeric code, a refused connection).
      const malformed = error instanceof SyntaxError || Array.isArray((error as { issues?: unknown }).issues);
      if (remote && !malformed) return fail(transportFailure(error));
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
      () =>
        fail(new ForageError("invalid_catalog", `the server did not ${what} within ${deadlineMs} ms`, { deadlineMs })),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([work, failed, timeout]);
  } catch (error) {
    throw error instanceof ForageError ? error : transportFailure(error);
  } finally {
    clearTimeout(timer);
  }
}

/** A failure of the client or its transport, in one line; an HTTP status (the SDK's numeric code) is kept. */
function transportFailure(error: unknown): ForageError {
  const status = (error as { code?: unknown }).code;
  if (status === 401 || error instanceof UnauthorizedError)
    return new ForageError("unsupported", "the server asks for OAuth sign-in (HTTP 401), which Forage does not do", {
      httpStatus: 401,
    });
  const message = error instanceof Error ? error.message : String(error);
  // fetch says only "fetch failed"; its cause's code says why (ECONNREFUSED, ENOTFOUND).
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  return new ForageError(
    "invalid_catalog",
    `the server failed: ${firstLine(message)}${typeof cause === "string" ? ` (${cause})` : ""}`,
    typeof status === "number" ? { httpStatus: status } : {},
  );
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
