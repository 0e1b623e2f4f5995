import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { type CommandSpec, commandHelp, flagOption, listOption, parseCommand, stringOption } from "./command-line.js";
import { packageVersion } from "./package-version.js";

/** Defaults of the two bounds, in seconds. */
const DEFAULT_TIMEOUT_S = 10;
const DEFAULT_DEADLINE_S = 120;

/** `forage afi-check`: AFI's conformance kit against any provider. */
export const AFI_CHECK_COMMAND: CommandSpec = {
  name: "afi-check",
  summary: "check that an AFI provider (FUSE mount, HTTP URL or MCP server) meets the profile it declares",
  synopsis: ["forage afi-check <mountpoint | http://HOST:PORT/ | mcp:<command>> [--profile N] [--json]"],
  options: [
    { name: "profile", value: "N", help: "test at most profile N (0, 1 or 2); default the manifest's own" },
    { name: "json", help: "print the result as JSON instead of the table" },
    { name: "token", value: "TOKEN", help: "HTTP: send Authorization: Bearer TOKEN" },
    {
      name: "hidden",
      value: "PATH",
      multiple: true,
      help: "a path the caller may not see, for the access-control scenarios (repeatable)",
    },
    { name: "timeout", value: "SECONDS", help: `most time one request may take (default ${DEFAULT_TIMEOUT_S})` },
    { name: "deadline", value: "SECONDS", help: `most time the whole run may take (default ${DEFAULT_DEADLINE_S})` },
  ],
  sections: [
    {
      title: "what it checks",
      lines: [
        "The scenarios of AFI's test kit plan: discovery, path model, stat / list, read, search,",
        "access control, errors. It reads the manifest first, walks the provider from / for paths,",
        "and runs only what the manifest declares; a scenario above the tested profile is skipped.",
        "A scenario the transport cannot express (a cursor over FUSE) is skipped, saying why.",
      ],
    },
  ],
  examples: [
    "forage afi-check ./mnt                                   # a FUSE mount",
    "forage afi-check http://127.0.0.1:8080/ --profile 1",
    "forage afi-check 'mcp:forage serve --mcp --example' --json",
  ],
  exitCodes: [
    "0  the provider conforms to the tested profile (the declared one, capped by --profile)",
    "1  it does not: the failed scenarios are listed with their evidence",
    "2  usage error, or the target cannot be reached (one line on stderr naming it)",
  ],
};

/** Runs the kit against the one positional target and prints its report. */
export async function runAfiCheck(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommand(AFI_CHECK_COMMAND, argv);
  if (parsed === "help") {
    io.stdout(commandHelp(AFI_CHECK_COMMAND));
    return 0;
  }
  const [target, extra] = parsed.positionals;
  if (target === undefined || extra !== undefined)
    throw new CliError("give one target: a mountpoint, an http URL or mcp:<command>; see forage afi-check --help", 2);
  const profile = stringOption(parsed, "profile");
  if (profile !== undefined && !/^[0-2]$/.test(profile))
    throw new CliError(`--profile takes 0, 1 or 2, not ${JSON.stringify(profile)}`, 2);
  const timeoutMs = seconds(parsed, "timeout", DEFAULT_TIMEOUT_S) * 1000;
  const deadlineMs = seconds(parsed, "deadline", DEFAULT_DEADLINE_S) * 1000;
  const token = stringOption(parsed, "token");
  // Loaded here, not at the top: `forage --help` imports this file for its spec alone.
  const kit = await import("../afi-check/index.js");
  const version = packageVersion();
  let opened: Awaited<ReturnType<typeof kit.openTarget>>;
  try {
    opened = await kit.openTarget(target, {
      timeoutMs,
      ...(token === undefined ? {} : { token }),
      kit: { name: "forage-afi-check", version },
    });
  } catch (error) {
    if (error instanceof kit.TargetError && error.hung) exitSoon();
    throw error instanceof kit.TargetError ? new CliError(`afi-check: ${error.message}`, 2) : error;
  }
  let hung = false;
  try {
    const result = await kit.runCheck(opened.client, {
      deadlineMs,
      hidden: listOption(parsed, "hidden"),
      ...(profile === undefined ? {} : { profileCap: Number(profile) }),
      ...(opened.anonymous === undefined ? {} : { anonymous: opened.anonymous }),
      ...(opened.mcp === undefined ? {} : { mcp: opened.mcp }),
    });
    hung = result.timeouts > 0;
    io.stdout(flagOption(parsed, "json") ? kit.jsonReport(result, version) : kit.textReport(result, version));
    return result.conforms ? 0 : 1;
  } catch (error) {
    hung = error instanceof kit.TargetError && error.hung;
    throw error instanceof kit.TargetError ? new CliError(`afi-check: ${error.message}`, 2) : error;
  } finally {
    await opened.client.close().catch(() => undefined);
    if (hung) exitSoon();
  }
}

/**
 * A system call to a hung FUSE mount cannot be called off and keeps the
 * process alive after its report: once the exit code is set, leave anyway.
 */
function exitSoon(): void {
  setTimeout(() => process.exit(), 1_000).unref();
}

function seconds(parsed: Parameters<typeof stringOption>[0], name: string, fallback: number): number {
  const value = stringOption(parsed, name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || number <= 0 || number > 3600)
    throw new CliError(`--${name} takes a number of seconds from 0 to 3600, not ${JSON.stringify(value)}`, 2);
  return number;
}
