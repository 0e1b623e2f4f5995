import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type AfiClient, TargetError } from "./afi-client.js";
import { fuseClient } from "./fuse-client.js";
import { httpClient } from "./http-client.js";
import { type McpExtras, mcpClient } from "./mcp-client.js";

/** How to reach a target. */
export interface TargetOptions {
  readonly timeoutMs: number;
  /** A bearer token for HTTP. */
  readonly token?: string;
  /** The kit's name and version, for MCP's initialize. */
  readonly kit: { readonly name: string; readonly version: string };
}

/** A client for the target, and what its transport adds. */
export interface OpenTarget {
  readonly client: AfiClient;
  /** The same HTTP provider without the token, when one was given. */
  readonly anonymous?: AfiClient;
  readonly mcp?: McpExtras;
}

/**
 * The target as a client: `mcp:<command>` an MCP server over stdio, an
 * http(s) URL the HTTP binding, anything else a FUSE mountpoint. A target
 * that cannot be named or reached at all is a TargetError.
 */
export async function openTarget(target: string, options: TargetOptions): Promise<OpenTarget> {
  if (target.startsWith("mcp:")) {
    const { client, extras } = await mcpClient(target.slice("mcp:".length), {
      timeoutMs: options.timeoutMs,
      client: options.kit,
    });
    return { client, mcp: extras };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    const client = httpClient(target, {
      timeoutMs: options.timeoutMs,
      ...(options.token === undefined ? {} : { token: options.token }),
    });
    if (options.token === undefined) return { client };
    return { client, anonymous: httpClient(target, { timeoutMs: options.timeoutMs }) };
  }
  return { client: fuseClient(await mountpoint(target, options.timeoutMs), { timeoutMs: options.timeoutMs }) };
}

/** The mountpoint as an absolute path, once it is known to be a directory that answers. */
async function mountpoint(target: string, timeoutMs: number): Promise<string> {
  const path = resolve(target);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TargetError(`${target}: no answer within ${timeoutMs} ms`, true)), timeoutMs);
  });
  try {
    const info = await Promise.race([stat(path), timeout]);
    if (!info.isDirectory())
      throw new TargetError(`${target} is not a directory (a FUSE mountpoint, an http URL or mcp:<command>)`);
    return path;
  } catch (error) {
    if (error instanceof TargetError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new TargetError(`${target}: ${code === "ENOENT" ? "no such directory" : code}`);
  } finally {
    clearTimeout(timer);
  }
}
