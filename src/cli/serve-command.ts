import type { AfiHttpOptions, AfiViewSelector } from "../afi/http-server.js";
import type { LockReason } from "../afi/locked-view.js";
import type { ToolNameStyle } from "../afi/mcp-server.js";
import type { TokenGrant } from "../afi/tokens-file.js";
import type { AfiCore } from "../afi/types.js";
import { type LoadedRevision, loadSourcesCatalog, viewRevision } from "./catalog-tree-source.js";
import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { type CommandSpec, commandHelp, flagOption, listOption, parseCommand, stringOption } from "./command-line.js";
import { count } from "./count.js";
import { CATALOG_OPTIONS, catalogSources, parseMountOptions, SOURCE_LINES } from "./mount-arguments.js";
import { packageVersion } from "./package-version.js";
import { checkTokenOptions, grantOf, TOKENS_OPTION, tokenGrants } from "./token-arguments.js";

/** `forage serve`: the catalog's tree over AFI's MCP or HTTP transport. */
export const SERVE_COMMAND: CommandSpec = {
  name: "serve",
  summary: "serve the catalog's tree over AFI's MCP (stdio or Streamable HTTP) or HTTP transport, without FUSE",
  synopsis: [
    "forage serve --mcp [--tool-names STYLE] [--tokens FILE -o token=FILE] [-o subtree=NS,bound=FILE,ro] [NAME=]<source>...",
    "forage serve --http [HOST:]PORT [--tokens FILE] [--cors ORIGIN] [--rate N/s] [-o ...] [NAME=]<source>...",
    "forage serve --mcp --http [HOST:]PORT [-o subtree=NS,bound=FILE,ro] [NAME=]<source>...",
    "forage serve (--mcp | --http [HOST:]PORT | --mcp --http [HOST:]PORT) --example",
  ],
  options: [
    { name: "mcp", help: "speak MCP on stdin/stdout: tools afi.* and forage.*, resource afi://manifest.json" },
    {
      name: "http",
      value: "[HOST:]PORT",
      help: "serve AFI's HTTP/JSON binding (with --mcp: MCP over Streamable HTTP); HOST defaults to 127.0.0.1",
    },
    {
      name: "tool-names",
      value: "STYLE",
      help: "with --mcp: dotted (afi.read, as AFI names them; the default) or underscored (afi_read, for strict clients)",
    },
    { name: "cors", value: "ORIGIN", help: "with --http: allow browser requests from ORIGIN (or *)" },
    { name: "rate", value: "N/s", help: "with --http: at most N requests a second per client address, else 429" },
    {
      name: "option",
      short: "o",
      value: "OPTS",
      multiple: true,
      help: "subtree=NAMESPACE, bound=FILE, ro (as for mount); with --mcp --tokens, token=FILE",
    },
    TOKENS_OPTION,
    ...CATALOG_OPTIONS,
  ],
  sections: [
    { title: "sources", lines: SOURCE_LINES },
    {
      title: "what is served",
      lines: [
        "The same tree as forage mount, through AFI's stat, list, read and search (docs/afi.md).",
        "With -o ro the manifest declares profile 1 and search is refused as unsupported.",
        "--mcp writes only MCP messages on stdout; forage's own lines go to stderr. It ends when stdin closes.",
        "Some MCP clients refuse a dot in a tool name: --tool-names underscored serves afi_read, forage_search, ...",
        "--mcp --http serves the same MCP server over Streamable HTTP at http://HOST:PORT/mcp instead of stdio;",
        "on a loopback HOST it answers only requests whose Host is localhost, 127.0.0.1 or [::1].",
        "--http ends on Ctrl-C or SIGTERM. Without --tokens there is no auth: bind a non-loopback HOST only on a",
        "network you trust (and with --tokens put TLS in front of it, since bearer tokens travel in the clear).",
      ],
    },
    {
      title: "tokens (--tokens FILE)",
      lines: [
        "Each line of FILE is TOKEN PATTERN...: a bearer token (16 or more characters) and the bound= patterns of",
        "its view; FILE must be readable by its owner only (chmod 600). Paths outside a token's view are not_found.",
        "--http: each request's Authorization: Bearer <token> selects its view; the manifest needs no token.",
        "--mcp: -o token=FILE names a file holding the session's token. Without it, or with an unknown token,",
        "every tool but afi.manifest answers unauthorized. --mcp --http does not take --tokens yet.",
      ],
    },
  ],
  examples: [
    "forage serve --mcp --example                     # as an MCP server command for an agent",
    "forage serve --http 8080 ttt=./tictactoe.yaml && curl 'http://127.0.0.1:8080/afi/list?path=/'",
    "forage serve --http 0.0.0.0:8080 --cors '*' --rate 20/s -o bound=./bound.txt ./ops.js",
    'forage serve --http 8080 --tokens ./tokens.txt --example && curl -H "Authorization: Bearer $TOKEN" ...',
    "forage serve --mcp --tokens ./tokens.txt -o token=./agent.token --example",
    "forage serve --mcp --http 3000 --example          # MCP over Streamable HTTP at http://127.0.0.1:3000/mcp",
  ],
};

/** `forage serve`: loads the sources once and serves them until stdin closes (MCP) or a signal (HTTP). */
export async function runServe(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommand(SERVE_COMMAND, argv);
  if (parsed === "help") {
    io.stdout(commandHelp(SERVE_COMMAND));
    return 0;
  }
  const mcp = flagOption(parsed, "mcp");
  const http = stringOption(parsed, "http");
  if (!mcp && http === undefined)
    throw new CliError("give --mcp, --http [HOST:]PORT or both (MCP over HTTP); see forage serve --help", 2);
  const cors = stringOption(parsed, "cors");
  const rate = stringOption(parsed, "rate");
  if (mcp && (cors !== undefined || rate !== undefined))
    throw new CliError("--cors and --rate go with --http alone (AFI's HTTP binding); see forage serve --help", 2);
  const listen = http === undefined ? undefined : httpListen(http, cors, rate);
  const toolNames = toolNameStyle(stringOption(parsed, "tool-names"), mcp);
  const tokensFile = stringOption(parsed, "tokens");
  const { subtree, bound, readOnly, tokenFile } = parseMountOptions(listOption(parsed, "option"), "serve");
  checkTokenOptions(tokensFile, { bound, tokenFile }, "serve");
  // A bearer per request would suit MCP over HTTP better than one token for the process; until then, refuse.
  if (mcp && listen !== undefined && tokensFile !== undefined)
    throw new CliError("--tokens goes with --mcp on stdio or with --http alone, not yet with MCP over HTTP", 2);
  if (tokenFile !== undefined && !mcp)
    throw new CliError("-o token= goes with --mcp: over HTTP each request's Authorization header names its token", 2);
  const grants = tokensFile === undefined ? undefined : tokenGrants(tokensFile);
  // The MCP session's token, read before the sources are loaded, like every file of the access setup.
  const grant = grants === undefined || tokenFile === undefined ? undefined : grantOf(grants, tokenFile);
  const { sources, example } = catalogSources(parsed, parsed.positionals);
  const loaded = await loadSourcesCatalog(sources, example);
  // Loaded here, not at the top: `forage --help` imports this file for its spec alone.
  const { createAfiCore } = await import("../afi/afi-core.js");
  const servedSince = new Date();
  const served: Served = {
    view: (chosen) =>
      viewRevision(loaded, {
        subtree,
        readOnly,
        bound: chosen?.bound ?? bound,
        boundOrigin: chosen?.origin,
        authRequired: chosen !== undefined,
      }),
    core: (revision) => createAfiCore(revision.tree, { servedSince }),
    subtree,
    toolNames,
  };
  if (mcp && listen !== undefined) return serveMcpHttp(served, listen, io);
  if (listen !== undefined) return serveHttp(served, grants, listen, io);
  if (grants === undefined || grant !== undefined) return serveMcp(served, served.view(grant), grant, io);
  const reason =
    tokenFile === undefined ? "no -o token=FILE" : `the token in ${tokenFile} is not granted by ${tokensFile}`;
  io.stderr(`forage: ${reason}: every MCP tool but afi.manifest answers unauthorized\n`);
  return serveLockedMcp(served, grants, tokenFile === undefined ? "missing_token" : "invalid_token");
}

/** What every transport serves: a view of the loaded catalog per grant (or bound=), and its AFI core. */
interface Served {
  view(grant?: TokenGrant): LoadedRevision;
  core(revision: LoadedRevision): AfiCore;
  readonly subtree: string | undefined;
  readonly toolNames: ToolNameStyle;
}

/** `--tool-names STYLE`, which goes with --mcp only. */
function toolNameStyle(style: string | undefined, mcp: boolean): ToolNameStyle {
  if (style === undefined) return "dotted";
  if (!mcp) throw new CliError("--tool-names goes with --mcp (it names MCP tools); see forage serve --help", 2);
  if (style === "dotted" || style === "underscored") return style;
  throw new CliError(`--tool-names takes dotted or underscored, not ${JSON.stringify(style)}`, 2);
}

/** `--mcp` with one view: the catalog's, bound='s, or the session token's. */
async function serveMcp(
  served: Served,
  revision: LoadedRevision,
  grant: TokenGrant | undefined,
  io: CommandIo,
): Promise<number> {
  const { serveMcpOverStdio } = await import("../afi/mcp-stdio.js");
  const scope = grant === undefined ? "" : ` to the token of ${grant.origin}`;
  io.stderr(`forage: serving ${describeRevision(revision)} over MCP on stdio${scope}\n`);
  const afi = served.core(revision);
  await serveMcpOverStdio({
    afi,
    forage: revision.forage,
    subtree: served.subtree,
    version: packageVersion(),
    toolNames: served.toolNames,
  });
  return 0;
}

/** `--mcp --http`: the MCP server over Streamable HTTP, one view for every session. */
async function serveMcpHttp(served: Served, listen: AfiHttpOptions, io: CommandIo): Promise<number> {
  const { listenMcpHttp } = await import("../afi/mcp-http.js");
  const revision = served.view();
  const options = {
    afi: served.core(revision),
    forage: revision.forage,
    subtree: served.subtree,
    version: packageVersion(),
    toolNames: served.toolNames,
  };
  const server = await listenMcpHttp(options, listen);
  io.stdout(
    `forage: serving ${describeRevision(revision)} over MCP (Streamable HTTP) at ${server.url}\nstop:  Ctrl-C here\n`,
  );
  return untilSignal(server, io);
}

/** `--mcp --tokens` without a granted token: the public manifest, and unauthorized for every other tool. */
async function serveLockedMcp(served: Served, grants: readonly TokenGrant[], reason: LockReason): Promise<number> {
  const { serveMcpOverStdio } = await import("../afi/mcp-stdio.js");
  const { lockedAfiCore, lockedForage, publicManifest } = await import("../afi/locked-view.js");
  const manifest = publicManifest(served.core(served.view(grants[0])).manifest());
  const afi = lockedAfiCore(manifest, reason);
  await serveMcpOverStdio({
    afi,
    forage: lockedForage(reason),
    subtree: served.subtree,
    version: packageVersion(),
    toolNames: served.toolNames,
  });
  return 0;
}

/** `--http`: one core for everyone, or with `--tokens` each token's view, all built before listening. */
async function serveHttp(
  served: Served,
  grants: readonly TokenGrant[] | undefined,
  listen: AfiHttpOptions,
  io: CommandIo,
): Promise<number> {
  const { listenHttp } = await import("../afi/http-server.js");
  const revision = grants === undefined ? served.view() : undefined;
  const afi =
    revision === undefined
      ? await tokenSelector((grants ?? []).map((grant) => [grant.token, served.core(served.view(grant))] as const))
      : served.core(revision);
  const description =
    revision === undefined ? `${count(grants?.length ?? 0, "token")}' views` : describeRevision(revision);
  const server = await listenHttp(afi, listen);
  io.stdout(`forage: serving ${description} over HTTP at ${server.url}\nstop:  Ctrl-C here\n`);
  return untilSignal(server, io);
}

/** Serves until Ctrl-C or SIGTERM, then closes the server. */
async function untilSignal(server: { close(): Promise<void> }, io: CommandIo): Promise<number> {
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  io.stdout("forage: stopped serving\n");
  return 0;
}

function describeRevision(revision: LoadedRevision): string {
  return `${count(revision.operationCount, "operation")} (revision ${revision.catalog.revision}, ${revision.tree.stamp})`;
}

/** Each request's core by its bearer token: the token's view, or a locked core for a missing or unknown one. */
async function tokenSelector(views: readonly (readonly [string, AfiCore])[]): Promise<AfiViewSelector> {
  const { TokenTable } = await import("../afi/token-table.js");
  const { lockedAfiCore, publicManifest } = await import("../afi/locked-view.js");
  const table = new TokenTable(views);
  // The manifest is the same for every token, less one view's facts: any view gives it.
  const manifest = publicManifest((views[0] as readonly [string, AfiCore])[1].manifest());
  const missing = lockedAfiCore(manifest, "missing_token");
  const invalid = lockedAfiCore(manifest, "invalid_token");
  return (bearer) => (bearer === undefined ? missing : (table.find(bearer) ?? invalid));
}

/** `--http [HOST:]PORT`, `--cors`, `--rate N/s`, checked before anything is loaded. */
function httpListen(address: string, cors: string | undefined, rate: string | undefined): AfiHttpOptions {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(address);
  const port = Number(match?.[2]);
  if (match === null || port > 65_535)
    throw new CliError(`--http takes [HOST:]PORT (e.g. 8080 or 127.0.0.1:8080), not ${JSON.stringify(address)}`, 2);
  const host = (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, "");
  if (cors !== undefined && cors !== "*" && !/^https?:\/\/[^/\s]+$/.test(cors))
    throw new CliError(`--cors takes * or an origin such as https://app.example.com, not ${JSON.stringify(cors)}`, 2);
  const perSecond = rate === undefined ? undefined : Number(/^(\d+)\/s$/.exec(rate)?.[1] ?? Number.NaN);
  if (perSecond !== undefined && !(Number.isSafeInteger(perSecond) && perSecond >= 1))
    throw new CliError(`--rate takes N/s with N at least 1 (e.g. 20/s), not ${JSON.stringify(rate)}`, 2);
  return { host, port, cors, ratePerSecond: perSecond };
}
