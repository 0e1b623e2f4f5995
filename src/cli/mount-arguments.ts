import { readFileSync } from "node:fs";
import { parseSourceSpec, type SourceSpec } from "./catalog-source.js";
import { CliError } from "./cli-error.js";

/** What `forage mount` and `forage export` were asked to do. */
export interface MountArguments {
  readonly sources: readonly SourceSpec[];
  readonly example: boolean;
  readonly target: string;
  readonly subtree: string | undefined;
  readonly bound: readonly string[] | undefined;
  readonly watch: boolean;
  readonly debug: boolean;
  /** `-o ro`: a kernel read-only mount, without the /.afi/search control file. */
  readonly readOnly: boolean;
}

/**
 * Parses `[--example] [--watch] [--namespace NAME] [-o ro,subtree=NS,bound=FILE] <source>... <target>`.
 * `--namespace` applies to the single source given with it.
 */
export function parseMountArguments(argv: readonly string[]): MountArguments {
  const positional: string[] = [];
  const options: string[] = [];
  let example = false;
  let watch = false;
  let debug = false;
  let namespace: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (argument === "--example") example = true;
    else if (argument === "--watch") watch = true;
    else if (argument === "--debug") debug = true;
    else if (argument === "-o") options.push(...optionValue(argv, (index += 1), "-o").split(","));
    else if (argument.startsWith("-o") && argument.length > 2) options.push(...argument.slice(2).split(","));
    else if (argument === "--namespace") namespace = optionValue(argv, (index += 1), "--namespace");
    else if (argument.startsWith("-")) throw new CliError(`unknown option ${argument}`, 2);
    else positional.push(argument);
  }
  const target = positional.pop();
  if (target === undefined) throw new CliError("missing the mountpoint (or export directory)", 2);
  if (example === positional.length > 0)
    throw new CliError(example ? "--example takes no source" : "give a source, or --example", 2);
  if (namespace !== undefined && positional.length !== 1)
    throw new CliError("--namespace goes with exactly one source; use NAME=file for several", 2);
  const sources = positional
    .map(parseSourceSpec)
    .map((source) => (namespace === undefined ? source : { ...source, namespace }));
  return { sources, example, target, watch, debug, ...parseMountOptions(options) };
}

function optionValue(argv: readonly string[], index: number, flag: string): string {
  const value = argv[index];
  if (value === undefined) throw new CliError(`${flag} needs a value`, 2);
  return value;
}

/** `-o` options: `ro`, `subtree=NS`, `bound=FILE`. */
function parseMountOptions(options: readonly string[]): {
  subtree: string | undefined;
  bound: readonly string[] | undefined;
  readOnly: boolean;
} {
  let subtree: string | undefined;
  let bound: string[] | undefined;
  let readOnly = false;
  for (const option of options) {
    const [key, value] = option.split(/=(.*)/s, 2) as [string, string | undefined];
    if (key === "ro" && value === undefined) readOnly = true;
    else if (key === "subtree" && value)
      subtree = value
        .replace(/^\/+|\/+$/g, "")
        .split("/")
        .join(".");
    else if (key === "bound" && value) bound = readBoundFile(value);
    else
      throw new CliError(
        `unknown or incomplete mount option ${JSON.stringify(option)}: expected ro, subtree=<namespace> or bound=<file>`,
        2,
      );
  }
  return { subtree, bound, readOnly };
}

/** A bound file: one operation path pattern per line; blank lines and `#` comments are skipped. */
export function readBoundFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read bound file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*/, "").trim())
    .filter((line) => line.length > 0);
}
