import { sha256Hex } from "../catalog/canonical-json.js";
import { ForageError } from "../forage-error.js";
import { connectMcpServer, DEFAULT_LIST_DEADLINE_MS, type McpListing, type McpServerConnection } from "../mcp/index.js";
import { identifier, type LoadedSource } from "./loaded-source.js";
import { failureLine, SourceError } from "./source-error.js";
import { type SourceLocation, sourceLabel } from "./source-spec.js";
import { mcpSourceOf } from "./tools-list-source.js";

/** The client's name and version, sent in initialize. */
export interface McpClientInfo {
  readonly name: string;
  readonly version: string;
}

/** Overrides the live servers' start-and-list deadline, in milliseconds. */
const DEADLINE_VARIABLE = "FORAGE_MCP_DEADLINE_MS";

/**
 * A live server: started, listed and closed, or, while servers are held for
 * --watch, listed again over the session already open. The namespace
 * defaults to the server's name, else the command's first word.
 */
export async function mcpServerSource(
  location: Extract<SourceLocation, { kind: "mcp-command" }>,
  namespace: string | undefined,
  client: McpClientInfo,
): Promise<LoadedSource> {
  const commandLine = location.commandLine.trim();
  const label = sourceLabel(location);
  if (commandLine === "")
    throw new SourceError(label, `source ${label}: give the server's command line after "mcp:"`, true);
  let listing: McpListing;
  try {
    listing = await listServer(commandLine, client);
  } catch (error) {
    throw new SourceError(label, `source ${label}: ${failureLine(error)}`);
  }
  const { intake, tools } = listing;
  const named = namespace ?? defaultServerNamespace(intake.server.name ?? commandLine.split(/\s+/)[0] ?? "mcp");
  const { operations, info } = mcpSourceOf(intake, named, "MCP server", label);
  const digest = sha256Hex(JSON.stringify({ server: intake.server, tools }));
  return { content: operations, digest, namespace: named, infos: [info] };
}

/** A server's name as its namespace: the last segment of `mcp-servers/everything`, spelled as an identifier. */
function defaultServerNamespace(name: string): string {
  return identifier(name.split("/").pop() || name);
}

const DEATH_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Live connections kept open while a mount watches, by command line; undefined when not watching. */
let held: Map<string, McpServerConnection> | undefined;
const changeListeners = new Set<() => void>();

/**
 * Keeps live servers connected after their first listing, so a
 * notifications/tools/list_changed reaches `onToolsChanged` listeners and
 * the next load lists again over the same session. `close` ends them all.
 */
export function holdMcpServers(): { onToolsChanged(listener: () => void): () => void; close(): Promise<void> } {
  const connections = new Map<string, McpServerConnection>();
  held = connections;
  // The mount dies of SIGINT, SIGTERM or SIGHUP once unmounted, before an asynchronous close could finish.
  const killAll = (): void => {
    for (const connection of connections.values()) connection.kill();
  };
  for (const signal of DEATH_SIGNALS) process.on(signal, killAll);
  return {
    onToolsChanged: (listener) => {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    close: async () => {
      for (const signal of DEATH_SIGNALS) process.off(signal, killAll);
      held = undefined;
      changeListeners.clear();
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}

async function listServer(commandLine: string, client: McpClientInfo): Promise<McpListing> {
  const open = held?.get(commandLine);
  if (open !== undefined) return open.relist();
  const connection = await connectMcpServer(commandLine, { deadlineMs: deadlineMs(), client });
  if (held === undefined) {
    await connection.close();
    return connection.listing;
  }
  held.set(commandLine, connection);
  connection.onToolsChanged(() => {
    for (const listener of changeListeners) listener();
  });
  return connection.listing;
}

function deadlineMs(): number {
  const configured = process.env[DEADLINE_VARIABLE];
  if (configured === undefined) return DEFAULT_LIST_DEADLINE_MS;
  const value = Number(configured);
  if (!Number.isInteger(value) || value <= 0)
    throw new ForageError("invalid_argument", `${DEADLINE_VARIABLE} must be a positive whole number of milliseconds`);
  return value;
}
