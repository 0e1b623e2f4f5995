import { sha256Hex } from "../catalog/canonical-json.js";
import { ForageError, isForageError } from "../forage-error.js";
import {
  connectMcpServer,
  DEFAULT_LIST_DEADLINE_MS,
  type McpListing,
  type McpServerConnection,
  type McpServerTarget,
} from "../mcp/index.js";
import { identifier, type LoadedSource } from "./loaded-source.js";
import { DEATH_SIGNALS, endedOnSignal } from "./signal-guard.js";
import { failureLine, SourceError } from "./source-error.js";
import { type SourceLocation, sourceLabel } from "./source-spec.js";
import { mcpSourceOf } from "./tools-list-source.js";

/** The client's name and version, sent in initialize. */
export interface McpClientInfo {
  readonly name: string;
  readonly version: string;
}

/** What listing a live server needs from the caller: who we are, and where notes for the user go. */
export interface ListContext {
  readonly client: McpClientInfo;
  /** One line for the user (stderr), without the `forage: ` prefix. */
  readonly note: (line: string) => void;
}

/** Overrides the live servers' start-and-list deadline, in milliseconds. */
const DEADLINE_VARIABLE = "FORAGE_MCP_DEADLINE_MS";

/**
 * A live server named on the command line (`mcp:<command line>` or `mcp:<http(s) URL>`): started
 * or reached, listed and closed, or, while servers are held for --watch, listed again over the
 * session already open. The namespace defaults to the server's name, else the command's first
 * word or the URL's host.
 */
export async function mcpServerSource(
  location: Exclude<SourceLocation, { kind: "path" }>,
  namespace: string | undefined,
  context: ListContext,
): Promise<LoadedSource> {
  const label = sourceLabel(location);
  const target = serverTarget(location);
  if (target === "") throw new SourceError(label, `source ${label}: give the server's command line after "mcp:"`, true);
  let listing: McpListing;
  try {
    listing = await listLiveServer(target, label, context);
  } catch (error) {
    throw new SourceError(label, `source ${label}: ${listFailure(error)}`);
  }
  const named = namespace ?? defaultServerNamespace(listing, target);
  return listedSource(listing, named, label);
}

/** A listing as a source under `namespace`; `origin` says where it came from. */
export function listedSource({ intake, tools }: McpListing, namespace: string, origin: string): LoadedSource {
  const { operations, info } = mcpSourceOf(intake, namespace, "MCP server", origin);
  const digest = sha256Hex(JSON.stringify({ server: intake.server, tools }));
  return { content: operations, digest, namespace, infos: [info] };
}

function serverTarget(location: Exclude<SourceLocation, { kind: "path" }>): McpServerTarget {
  return location.kind === "mcp-url" ? { url: location.url, transport: "auto" } : location.commandLine.trim();
}

/** A server's name as its namespace (the last segment of `mcp-servers/everything`), else its command's or host's. */
function defaultServerNamespace(listing: McpListing, target: McpServerTarget): string {
  const name = listing.intake.server.name;
  if (name !== undefined) return identifier(name.split("/").pop() || name);
  if (typeof target === "string") return identifier(target.split(/\s+/)[0] ?? "mcp");
  return identifier("url" in target ? new URL(target.url).hostname.split(".")[0] || "mcp" : target.command);
}

/** Why a listing failed, in one line; a timeout says how to wait longer. */
export function listFailure(error: unknown): string {
  const line = failureLine(error);
  const timedOut = isForageError(error, "invalid_catalog") && error.details.deadlineMs !== undefined;
  return timedOut ? `${line}; set ${DEADLINE_VARIABLE} (milliseconds) to wait longer` : line;
}

/** Live connections kept open while a mount watches, by target; undefined when not watching. */
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

/**
 * Lists a live server: again over its held session when --watch holds it, else started (or
 * reached) afresh, ended at once if forage is told to die meanwhile, with a note for the user
 * while it is slow to answer.
 */
export async function listLiveServer(
  target: McpServerTarget,
  label: string,
  context: ListContext,
): Promise<McpListing> {
  const key = JSON.stringify(target);
  const open = held?.get(key);
  if (open !== undefined) return open.relist();
  const onWaiting = (waitedMs: number): void =>
    context.note(`waiting for MCP server ${label} to start (${Math.round(waitedMs / 1_000)} s)…`);
  const connection = await endedOnSignal((signal) =>
    connectMcpServer(target, { deadlineMs: deadlineMs(), client: context.client, signal, onWaiting }),
  );
  if (held === undefined) {
    await connection.close();
    return connection.listing;
  }
  held.set(key, connection);
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
