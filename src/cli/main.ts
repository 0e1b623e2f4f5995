#!/bin/sh
//bin/true 2>/dev/null; case "$1" in mount) case "$GLIBC_TUNABLES" in *glibc.malloc.hugetlb=*) ;; *) GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"; export GLIBC_TUNABLES ;; esac; exec node --max-semi-space-size=8 "$0" "$@" ;; esac; exec node "$0" "$@"
// The two lines above are the bin's launcher (docs/cli.md, "How the bin starts Node"): /bin/sh runs the
// second, which is a comment to JavaScript, and a mount gets its heap flag and glibc's huge pages for
// large allocations without a second Node start.
// Each command's module loads when it runs, so `forage --version` and a mount load only what they use.
import { SourceError } from "../sources/source-error.js";
import { CliError } from "./cli-error.js";
import { type CommandIo, processIo } from "./command-io.js";
import { commandHelp } from "./command-line.js";
import { describeFailure } from "./describe-failure.js";
import { packageVersion } from "./package-version.js";

/** Runs one CLI command and returns its exit code (docs/cli.md, "Exit codes"); every failure is one line on stderr. */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "mount":
        return await (await import("./mount-command.js")).runMount(rest, io);
      case "unmount":
        return await (await import("./unmount-command.js")).runUnmount(rest, io);
      case "serve":
        return await (await import("./serve-command.js")).runServe(rest, io);
      case "export":
        return await (await import("./export-command.js")).runExport(rest, io);
      case "afi-check":
        return await (await import("./afi-check-command.js")).runAfiCheck(rest, io);
      case "openapi":
        return await runOpenApi(rest, io);
      case "--version":
        io.stdout(`${packageVersion()}\n`);
        return 0;
      case "help":
        return await help(rest, io);
      case "--help":
      case "-h":
        io.stdout((await import("./help.js")).fullHelp());
        return 0;
      case undefined:
        io.stderr((await import("./help.js")).fullHelp());
        return 2;
      default:
        throw new CliError(`unknown command ${JSON.stringify(command)}; see forage --help`, 2);
    }
  } catch (error) {
    io.stderr(`forage: ${describeFailure(error)}\n`);
    if (error instanceof SourceError) return error.usage ? 2 : 1;
    return error instanceof CliError ? error.exitCode : 1;
  }
}

/** `forage help [<command>]`. */
async function help(argv: readonly string[], io: CommandIo): Promise<number> {
  const { COMMANDS, fullHelp } = await import("./help.js");
  const [name, extra] = argv;
  if (name === undefined) {
    io.stdout(fullHelp());
    return 0;
  }
  const spec = COMMANDS[name];
  if (spec === undefined || extra !== undefined)
    throw new CliError(
      `no help for ${JSON.stringify(argv.join(" "))}; commands: ${Object.keys(COMMANDS).join(", ")}`,
      2,
    );
  io.stdout(commandHelp(spec));
  return 0;
}

async function runOpenApi(argv: readonly string[], io: CommandIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  const { OPENAPI_PREVIEW_COMMAND, runOpenApiPreview } = await import("./openapi-preview.js");
  if (subcommand === "--help" || subcommand === "-h") {
    io.stdout(commandHelp(OPENAPI_PREVIEW_COMMAND));
    return 0;
  }
  if (subcommand !== "preview")
    throw new CliError("usage: forage openapi preview <spec> [--json]; see forage openapi --help", 2);
  return runOpenApiPreview(rest, io);
}

process.exitCode = await main(process.argv.slice(2));
