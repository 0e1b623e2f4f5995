import type { AfiHttpOptions } from "../afi/http-server.js";
import { loadRevision } from "./catalog-tree-source.js";
import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { type CommandSpec, commandHelp, flagOption, listOption, parseCommand, stringOption } from "./command-line.js";
import { count } from "./count.js";
import { CATALOG_OPTIONS, catalogSources, parseMountOptions, SOURCE_LINES } from "./mount-arguments.js";
import { packageVersion } from "./package-version.js";

/** `forage serve`: the catalog's tree over AFI's MCP or HTTP transport. */
export const SERVE_COMMAND: CommandSpec = {
  name: "serve",
  summary: "serve the catalog's tree over AFI's MCP (stdio or Streamable HTTP) or HTTP transport, without FUSE",
  synopsis: [
    "forage serve --mcp [-o subtree=NS,bound=FILE,ro] [NAME=]<source>...",
    "forage serve --http [HOST:]PORT [--cors ORIGIN] [--rate N/s] [-o ...] [NAME=]<source>...",
    "forage serve --mcp --http [HOST:]PORT [-o ...] [NAME=]<source>...",
    "forage serve (--mcp | --http [HOST:]PORT | --mcp --http [HOST:]PORT) --example",
  ],
  options: [
    { name: "mcp", help: "speak MCP on stdin/stdout: tools afi.* and forage.*, resource afi://manifest.json" },
    {
      name: "http",
      value: "[HOST:]PORT",
      help: "serve AFI's HTTP/JSON binding (with --mcp: MCP over Streamable HTTP); HOST defaults to 127.0.0.1",
    },
    { name: "cors", value: "ORIGIN", help: "with --http: allow browser requests from ORIGIN (or *)" },
    { name: "rate", value: "N/s", help: "with --http: at most N requests a second per client address, else 429" },
    {
      name: "option",
      short: "o",
      value: "OPTS",
      multiple: true,
      help: "subtree=NAMESPACE, bound=FILE, ro (as for mount)",
    },
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
        "--mcp --http serves the same MCP server over Streamable HTTP at http://HOST:PORT/mcp instead of stdio;",
        "on a loopback HOST it answers only requests whose Host is localhost, 127.0.0.1 or [::1].",
        "--http ends on Ctrl-C or SIGTERM. Bind a non-loopback HOST only on a network you trust: there is no auth.",
      ],
    },
  ],
  examples: [
    "forage serve --mcp --example                     # as an MCP server command for an agent",
    "forage serve --http 8080 ttt=./tictactoe.yaml && curl 'http://127.0.0.1:8080/afi/list?path=/'",
    "forage serve --http 0.0.0.0:8080 --cors '*' --rate 20/s -o bound=./bound.txt ./ops.js",
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
  const { subtree, bound, readOnly } = parseMountOptions(listOption(parsed, "option"), "serve");
  const revision = await loadRevision({ ...catalogSources(parsed, parsed.positionals), subtree, bound, readOnly });
  // Loaded here, not at the top: `forage --help` imports this file for its spec alone.
  const { createAfiCore } = await import("../afi/afi-core.js");
  const afi = createAfiCore(revision.tree, { servedSince: new Date() });
  const what = `${count(revision.operationCount, "operation")} (revision ${revision.catalog.revision}, ${revision.tree.stamp})`;
  const mcpOptions = { afi, forage: revision.forage, subtree, version: packageVersion() };
  if (listen === undefined) {
    const { serveMcpOverStdio } = await import("../afi/mcp-stdio.js");
    io.stderr(`forage: serving ${what} over MCP on stdio\n`);
    await serveMcpOverStdio(mcpOptions);
    return 0;
  }
  const server = mcp
    ? await (await import("../afi/mcp-http.js")).listenMcpHttp(mcpOptions, listen)
    : await (await import("../afi/http-server.js")).listenHttp(afi, listen);
  io.stdout(
    `forage: serving ${what} over ${mcp ? "MCP (Streamable HTTP)" : "HTTP"} at ${server.url}\nstop:  Ctrl-C here\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  io.stdout("forage: stopped serving\n");
  return 0;
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
