#!/usr/bin/env node
import { CliError } from "./cli-error.js";
import { type CommandIo, processIo } from "./command-io.js";
import { describeFailure } from "./describe-failure.js";
import { runExport } from "./export-command.js";
import { packageVersion } from "./package-version.js";

const USAGE = `usage:
  forage mount [--watch] [-o ro,subtree=<namespace>,bound=<file>] <source>... <mountpoint>
  forage mount --example <mountpoint>
  forage export [-o ro,subtree=<namespace>,bound=<file>] (<source>... | --example) <directory>
  forage openapi preview <spec> [--json]

-o ro mounts read-only in the kernel: repeated reads never reach the daemon, and there is no
/.afi/search control file (AFI profile 1; grep and /.search/<query>/ still work).
A source is a JS module exporting \`operations\` or \`catalog\`, an OpenAPI 3.0/3.1 spec (.json/.yaml),
or a JSON/YAML catalog file; an MCP tools/list result (.json/.yaml), a folder of them, or mcp:<command line>
to list a live MCP server over stdio (its tools are never called). Prefix NAME= to put a source under namespace NAME.
`;

/** Runs one CLI command and returns its exit code; every failure is one line on stderr. */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "mount":
        return await (await import("./mount-command.js")).runMount(rest, io);
      case "export":
        return await runExport(rest, io);
      case "openapi":
        return await runOpenApi(rest, io);
      case "--version":
        io.stdout(`${packageVersion()}\n`);
        return 0;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new CliError(`unknown command ${JSON.stringify(command)}\n${USAGE}`, 2);
    }
  } catch (error) {
    io.stderr(`forage: ${describeFailure(error)}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

async function runOpenApi(argv: readonly string[], io: CommandIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== "preview") throw new CliError("usage: forage openapi preview <spec> [--json]", 2);
  return (await import("./openapi-preview.js")).runOpenApiPreview([...rest], io);
}

process.exitCode = await main(process.argv.slice(2));
