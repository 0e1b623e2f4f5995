import { parseArgs } from "node:util";
import { CliError } from "./cli-error.js";

/** One option of a command, as `parseArgs` takes it and as its help lists it. */
export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  /** The value's placeholder in the help; absent for a flag. */
  readonly value?: string;
  readonly multiple?: boolean;
  readonly help: string;
}

/** A command's arguments and the text of its help, kept together so the help lists every option. */
export interface CommandSpec {
  /** As typed after `forage`: "mount", "openapi preview". */
  readonly name: string;
  readonly summary: string;
  readonly synopsis: readonly string[];
  readonly options: readonly OptionSpec[];
  /** Further sections of the help, each a title and its lines. */
  readonly sections?: readonly { readonly title: string; readonly lines: readonly string[] }[];
  readonly examples: readonly string[];
  /** The command's own exit codes, when they differ from EXIT_CODES. */
  readonly exitCodes?: readonly string[];
}

/** What a command line held: its options by long name, and its positionals. */
export interface ParsedCommand {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

const HELP_OPTION: OptionSpec = { name: "help", short: "h", help: "print this help and exit" };

/** Exit codes every command shares; `forage help` and each command's help print them. */
export const EXIT_CODES = [
  "0  success",
  "1  runtime failure: a source cannot be read, the mount or export failed, nothing to unmount",
  "2  usage error: an unknown option or command, a missing or extra argument (message on stderr)",
];

/** Parses `argv` by `spec`, or returns "help" for -h/--help; a mistake is a CliError with exit code 2. */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): ParsedCommand | "help" {
  const options = Object.fromEntries(
    [...spec.options, HELP_OPTION].map((option) => [
      option.name,
      {
        type: option.value === undefined ? ("boolean" as const) : ("string" as const),
        multiple: option.multiple ?? false,
        ...(option.short === undefined ? {} : { short: option.short }),
      },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${usageMistake(spec, error)}; see forage ${spec.name} --help`, 2);
  }
  if (parsed.values.help === true) return "help";
  return { values: parsed.values, positionals: parsed.positionals };
}

/** parseArgs' messages name the option in its own words; ours name it as typed, in one line. */
function usageMistake(spec: CommandSpec, error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  // "Unknown option '--nope'", "Option '-o, --option <value>' argument missing": the first quoted part.
  const words = (/'([^']+)'/.exec(message)?.[1] ?? "").split(/[ ,]+/);
  const option = spec.options.find((candidate) => words.includes(`--${candidate.name}`));
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${words[0] ?? ""}`.trim();
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) {
    const flags = `${option.short === undefined ? "" : `-${option.short}, `}--${option.name}`;
    return option.value === undefined ? `${flags} takes no value` : `${flags} needs a value (${option.value})`;
  }
  return message.split("\n")[0] ?? message;
}

/** The option's string value, if given. */
export function stringOption(parsed: ParsedCommand, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

/** Every value given for a repeatable option. */
export function listOption(parsed: ParsedCommand, name: string): string[] {
  const value = parsed.values[name];
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

/** True when the flag was given. */
export function flagOption(parsed: ParsedCommand, name: string): boolean {
  return parsed.values[name] === true;
}

/** The command's complete help: synopsis, every option, its sections, examples and exit codes. */
export function commandHelp(spec: CommandSpec, { exitCodes = true } = {}): string {
  const options = [...spec.options, HELP_OPTION].map((option) => {
    const short = option.short === undefined ? "    " : `-${option.short}, `;
    const value = option.value === undefined ? "" : ` ${option.value}`;
    return [`${short}--${option.name}${value}`, option.help] as const;
  });
  const width = Math.max(...options.map(([flags]) => flags.length)) + 2;
  const lines = [
    `forage ${spec.name}: ${spec.summary}`,
    "",
    "usage:",
    ...spec.synopsis.map((line) => `  ${line}`),
    "",
    "options:",
    ...options.map(([flags, help]) => `  ${flags.padEnd(width)}${help}`),
  ];
  for (const section of spec.sections ?? []) lines.push("", `${section.title}:`, ...section.lines.map(indent));
  lines.push("", "examples:", ...spec.examples.map(indent));
  if (exitCodes) lines.push("", "exit codes:", ...(spec.exitCodes ?? EXIT_CODES).map(indent));
  return `${lines.join("\n")}\n`;
}

function indent(line: string): string {
  return line === "" ? "" : `  ${line}`;
}
