import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../catalog/canonical-json.js";
import { compareCodeUnits } from "../catalog/operation-path.js";
import type { OperationDefinition } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import {
  connectMcpServer,
  DEFAULT_LIST_DEADLINE_MS,
  type McpListing,
  type McpServerConnection,
  type McpToolsIntake,
  parseToolsListText,
  readToolsList,
} from "../mcp/index.js";
import type { SourceInfo, SourceSection } from "../tree/source-info.js";
import { defaultNamespace, type LoadedSource, MCP_PREFIX, readSource, type SourceSpec } from "./catalog-source.js";
import { CliError } from "./cli-error.js";
import { describeFailure } from "./describe-failure.js";
import { packageVersion } from "./package-version.js";

/** Overrides the live servers' start-and-list deadline, in milliseconds. */
const DEADLINE_VARIABLE = "FORAGE_MCP_DEADLINE_MS";

/** A live server (`mcp:<command line>`) or a folder of tools/list files as a source. */
export async function mcpSource(source: SourceSpec): Promise<LoadedSource> {
  return source.file.startsWith(MCP_PREFIX) ? serverSource(source) : folderSource(source);
}

/** A saved tools/list result as a source, or undefined when the text is not one. */
export function toolsListFile(text: string, source: SourceSpec): LoadedSource | undefined {
  const document = parseToolsListText(text);
  if (document === undefined) return undefined;
  const namespace = source.namespace ?? defaultNamespace(source.file);
  const { operations, info } = sourceOf(readToolsList(document), namespace, "MCP tools/list file", source.file);
  return { content: operations, digest: sha256Hex(text), namespace, infos: [info] };
}

/** Each `*.json` file of a folder, under its own namespace (its stem), itself under the folder's NAME= when given. */
function folderSource(source: SourceSpec): LoadedSource {
  const files = readdirSync(source.file)
    .filter((name) => name.toLowerCase().endsWith(".json"))
    .sort(compareCodeUnits)
    .map((name) => join(source.file, name));
  if (files.length === 0)
    throw new CliError(`source ${source.file}: a folder source holds MCP tools/list files (*.json); found none`);
  const loaded = files.map((file) => {
    const text = readSource(file);
    const stem = defaultNamespace(file);
    const listed = toolsListFile(text, { file, namespace: stem });
    if (listed === undefined)
      throw new CliError(`source ${file}: expected an MCP tools/list result: { "tools": [...] }`);
    const operations = (listed.content as OperationDefinition[]).map((operation) => ({
      ...operation,
      path: `${stem}.${operation.path}`,
    }));
    const infos = (listed.infos ?? []).map((info) => ({ ...info, namespace: qualified(source.namespace, stem) }));
    return { operations, infos, digest: listed.digest };
  });
  return {
    content: loaded.flatMap(({ operations }) => operations),
    digest: sha256Hex(loaded.map(({ digest }) => digest).join("\u0000")),
    namespace: source.namespace,
    infos: loaded.flatMap(({ infos }) => infos),
  };
}

/**
 * A live server: started, listed and closed, or, while servers are held for
 * --watch, listed again over the session already open. The namespace
 * defaults to the server's name, else the command's first word.
 */
async function serverSource(source: SourceSpec): Promise<LoadedSource> {
  const commandLine = source.file.slice(MCP_PREFIX.length).trim();
  if (commandLine === "") throw new CliError(`source ${source.file}: give the server's command line after "mcp:"`, 2);
  let listing: McpListing;
  try {
    listing = await listServer(commandLine);
  } catch (error) {
    throw new CliError(`source ${source.file}: ${describeFailure(error)}`);
  }
  const { intake, tools } = listing;
  const namespace = source.namespace ?? defaultNamespace(intake.server.name ?? commandLine.split(/\s+/)[0] ?? "mcp");
  const { operations, info } = sourceOf(intake, namespace, "MCP server", source.file);
  const digest = sha256Hex(JSON.stringify({ server: intake.server, tools }));
  return { content: operations, digest, namespace, infos: [info] };
}

function qualified(namespace: string | undefined, stem: string): string {
  return namespace === undefined ? stem : `${namespace}.${stem}`;
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

async function listServer(commandLine: string): Promise<McpListing> {
  const open = held?.get(commandLine);
  if (open !== undefined) return open.relist();
  const connection = await connectMcpServer(commandLine, {
    deadlineMs: deadlineMs(),
    client: { name: "forage", version: packageVersion() },
  });
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

/** The operations (one segment each, not yet under the namespace) and what the mount shows of the source. */
function sourceOf(
  intake: McpToolsIntake,
  namespace: string,
  kind: string,
  origin: string,
): { operations: OperationDefinition[]; info: SourceInfo } {
  const operations = intake.operations.map(({ path, input, output, description, capabilities }) => ({
    path,
    input,
    ...(output === undefined ? {} : { output }),
    ...(description === undefined ? {} : { description }),
    capabilities,
  }));
  const { name, title, version, description, instructions } = intake.server;
  const sections: SourceSection[] = [];
  // The title is for people; the name, which the namespace defaults to, stays visible beside it.
  if (title !== undefined && name !== undefined) sections.push({ heading: "Server", lines: [`name: ${name}`] });
  if (instructions !== undefined) sections.push({ heading: "Instructions", lines: instructions.split("\n") });
  const shownTitle = title ?? name;
  return {
    operations,
    info: {
      namespace,
      kind,
      origin,
      ...(shownTitle === undefined ? {} : { title: shownTitle }),
      ...(version === undefined ? {} : { version }),
      ...(description === undefined ? {} : { description }),
      sections,
      declared: intake.declared,
      unsupported: intake.unsupported
        .filter(({ unvalidated }) => unvalidated === undefined)
        .map(({ toolName, summary, reason }) => ({
          name: toolName,
          ...(summary === undefined ? {} : { summary }),
          reason,
        })),
      // A tool only the compiler refused is shown from the server's own schemas, not validated (docs/mount.md).
      unvalidated: intake.unsupported.flatMap(({ toolName, summary, reason, unvalidated }) =>
        unvalidated === undefined
          ? []
          : [{ ...unvalidated, name: toolName, ...(summary === undefined ? {} : { summary }), reason }],
      ),
    },
  };
}
