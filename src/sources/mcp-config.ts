import { homedir } from "node:os";
import { basename, dirname } from "node:path";
import type { McpServerTarget } from "../mcp/index.js";
import { MAX_CONFIG_SERVERS } from "./source-bounds.js";
import { SourceError } from "./source-error.js";

/** Which client wrote the config: `mcpServers` (Claude Desktop, Claude Code, Cursor) or `servers` (VS Code). */
export type McpConfigFlavor = "mcpServers" | "servers";

/** One server a config declares: what to start or reach, or why it cannot be (disabled, or a problem). */
export type ConfiguredServer =
  | { readonly key: string; readonly state: "ready"; readonly target: McpServerTarget }
  | { readonly key: string; readonly state: "disabled" }
  | { readonly key: string; readonly state: "unusable"; readonly problem: string };

/** The environment variable that gives a VS Code `${input:ID}` its value: `FORAGE_INPUT_API_KEY` for `api-key`. */
export function inputVariable(id: string): string {
  return `FORAGE_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/**
 * The servers of an MCP client config, in the order written. A server is a stdio program
 * (`command`, `args`, `env`, `cwd`) or a remote one (`url`, `headers`, with `type` "http" or
 * "sse", else Streamable HTTP falling back to SSE). Variables in its strings are resolved from
 * the environment (docs/sources.md, "MCP client configs"); one that cannot be makes only that
 * server unusable. The config as a whole is refused only when it is not a map of servers.
 */
export function readMcpConfig(
  path: string,
  document: Record<string, unknown>,
  flavor: McpConfigFlavor,
): ConfiguredServer[] {
  const servers = document[flavor];
  if (!isRecord(servers)) throw new SourceError(path, `source ${path}: \`${flavor}\` is not a map of servers`);
  const entries = Object.entries(servers);
  if (entries.length > MAX_CONFIG_SERVERS)
    throw new SourceError(path, `source ${path}: ${entries.length} servers; the limit is ${MAX_CONFIG_SERVERS}`);
  const variables = new Variables(path, flavor === "servers" ? document.inputs : undefined);
  return entries.map(([key, entry]) => configuredServer(key, entry, variables));
}

function configuredServer(key: string, entry: unknown, variables: Variables): ConfiguredServer {
  if (!isRecord(entry)) return { key, state: "unusable", problem: "its entry is not an object" };
  if (entry.disabled === true) return { key, state: "disabled" };
  try {
    return { key, state: "ready", target: serverTarget(entry, variables) };
  } catch (error) {
    if (error instanceof ConfigProblem) return { key, state: "unusable", problem: error.message };
    throw error;
  }
}

/** A server entry that cannot be used: its message says why, for that server alone. */
class ConfigProblem extends Error {}

function serverTarget(entry: Record<string, unknown>, variables: Variables): McpServerTarget {
  const type = entry.type;
  if (typeof entry.command === "string" && (type === undefined || type === "stdio")) {
    const args = stringList(entry.args, "args").map((arg) => variables.resolve(arg));
    const env = stringMap(entry.env, "env", variables);
    const cwd = typeof entry.cwd === "string" ? variables.resolve(entry.cwd) : undefined;
    return {
      command: variables.resolve(entry.command),
      args,
      ...(env === undefined ? {} : { env }),
      ...(cwd === undefined ? {} : { cwd }),
    };
  }
  if (typeof entry.url === "string") {
    const transport = remoteTransport(type);
    const headers = stringMap(entry.headers, "headers", variables);
    return { url: variables.resolve(entry.url), transport, ...(headers === undefined ? {} : { headers }) };
  }
  throw new ConfigProblem(
    type === undefined || type === "stdio"
      ? "it has neither a `command` to start nor a `url` to reach"
      : `its type ${JSON.stringify(type)} needs a \`url\``,
  );
}

function remoteTransport(type: unknown): "streamable-http" | "sse" | "auto" {
  if (type === undefined) return "auto";
  if (type === "sse") return "sse";
  if (type === "http" || type === "streamable-http" || type === "streamableHttp") return "streamable-http";
  throw new ConfigProblem(`its type ${JSON.stringify(type)} is none of stdio, http, sse`);
}

function stringList(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  throw new ConfigProblem(`its \`${field}\` is not a list of strings`);
}

function stringMap(value: unknown, field: string, variables: Variables): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || !Object.values(value).every((item) => typeof item === "string"))
    throw new ConfigProblem(`its \`${field}\` is not a map of strings`);
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, variables.resolve(item as string)]));
}

/**
 * `${env:NAME}`, `${NAME}` and `${NAME:-default}` from the environment; `${input:ID}` from
 * FORAGE_INPUT_<ID> (VS Code would prompt for it; there is no prompt at mount time);
 * `${workspaceFolder}` and `${userHome}`. Anything else, or a variable without a value, is a problem.
 */
class Variables {
  readonly #workspace: string;
  readonly #inputs: Map<string, string>;

  constructor(path: string, inputs: unknown) {
    const folder = dirname(path);
    // VS Code keeps a workspace's config in .vscode/mcp.json.
    this.#workspace = basename(folder) === ".vscode" ? dirname(folder) : folder;
    this.#inputs = new Map(
      (Array.isArray(inputs) ? inputs : []).flatMap((input: unknown) =>
        isRecord(input) && typeof input.id === "string"
          ? [[input.id, typeof input.description === "string" ? input.description : ""] as const]
          : [],
      ),
    );
  }

  resolve(text: string): string {
    return text.replace(/\$\{([^}]*)\}/g, (_whole, name: string) => this.#value(name));
  }

  #value(name: string): string {
    if (name === "workspaceFolder") return this.#workspace;
    if (name === "userHome") return homedir();
    if (name.startsWith("input:")) return this.#input(name.slice("input:".length));
    const [variable, fallback] = name.startsWith("env:") ? [name.slice("env:".length), undefined] : withDefault(name);
    if (variable === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable))
      throw new ConfigProblem(`it uses \${${name}}, a variable Forage does not resolve`);
    const value = process.env[variable] ?? fallback;
    if (value === undefined) throw new ConfigProblem(`it needs the environment variable ${variable}, which is not set`);
    return value;
  }

  #input(id: string): string {
    const variable = inputVariable(id);
    const value = process.env[variable];
    if (value !== undefined) return value;
    const described = this.#inputs.get(id);
    const what = described ? ` (${described})` : "";
    throw new ConfigProblem(
      `it needs the input "${id}"${what}, which VS Code would prompt for; set ${variable} to give it`,
    );
  }
}

/** `NAME:-default` as its name and default (which may itself hold `:-`); a plain `NAME` has none. */
function withDefault(name: string): [string, string | undefined] {
  const at = name.indexOf(":-");
  return at === -1 ? [name, undefined] : [name.slice(0, at), name.slice(at + 2)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
