import { readFileSync } from "node:fs";
import type { OpenApiSelect } from "../openapi/index.js";
import { ACCEPTED_SOURCES } from "../sources/source-kinds.js";
import { parseSourceSpec, type SourceSpec } from "../sources/source-spec.js";
import { CliError } from "./cli-error.js";
import {
  type CommandSpec,
  flagOption,
  listOption,
  type OptionSpec,
  type ParsedCommand,
  parseCommand,
  stringOption,
} from "./command-line.js";
import { mountTokenView, TOKENS_OPTION } from "./token-arguments.js";

/** The FUSE options `-o` passes through to the mount (see MountOptions). */
export interface FuseFlags {
  readonly allowOther: boolean;
  readonly defaultPermissions: boolean;
  readonly autoUnmount: boolean;
  readonly nonEmpty: boolean;
  readonly debug: boolean;
}

/** What `forage mount` and `forage export` were asked to do. */
export interface MountArguments {
  readonly sources: readonly SourceSpec[];
  readonly example: boolean;
  readonly target: string;
  readonly subtree: string | undefined;
  readonly bound: readonly string[] | undefined;
  /** Where `bound` came from when a token chose it: the tokens file's line (docs/afi.md, "Tokens"). */
  readonly boundOrigin?: string;
  /** `--tokens` with `-o token=FILE`: the view is a token's, and the manifest says auth is required. */
  readonly authRequired?: boolean;
  /** `-o token=FILE`: the file holding this mount's (or MCP session's) bearer token. */
  readonly tokenFile?: string;
  readonly watch: boolean;
  /** `-o ro`: a kernel read-only mount, without the /.afi/search control file. */
  readonly readOnly: boolean;
  readonly fuse: FuseFlags;
  /** `--daemon`: return once mounted and serve in the background. */
  readonly daemon: boolean;
  /** `--log-file`: where a daemon writes; undefined for the default (docs/cli.md, "Daemon mode"). */
  readonly logFile: string | undefined;
}

/** What a source argument may be, for every command's help. */
export const SOURCE_LINES = [
  "A source is one of:",
  ...ACCEPTED_SOURCES.map((kind) => `  ${kind}`),
  "A live server's tools are listed, never called. Prefix NAME= to put a source under namespace NAME.",
];

/** The options that choose the catalog, shared by every command that loads one. */
export const CATALOG_OPTIONS: readonly OptionSpec[] = [
  { name: "example", help: "use the built-in example catalog instead of sources" },
  { name: "namespace", value: "NAME", help: "put the single source under namespace NAME (for several: NAME=source)" },
  {
    name: "select",
    value: "tag:NAME|path:GLOB",
    multiple: true,
    help: "keep only an OpenAPI spec's operations with tag NAME or a path matching GLOB (repeatable)",
  },
];

/** `forage mount`: every option, and how to stop a mount. */
export const MOUNT_COMMAND: CommandSpec = {
  name: "mount",
  summary: "serve a catalog as a FUSE filesystem (AFI profile 2; profile 1 with -o ro)",
  synopsis: [
    "forage mount [options] [-o OPT[,OPT...]] [NAME=]<source>... <mountpoint>",
    "forage mount [options] --example <mountpoint>",
  ],
  options: [
    { name: "option", short: "o", value: "OPTS", multiple: true, help: "mount options, comma-separated (below)" },
    ...CATALOG_OPTIONS,
    TOKENS_OPTION,
    { name: "watch", help: "reload the sources when they change; a broken edit keeps the last good revision" },
    { name: "daemon", help: "return once mounted and keep serving in the background; prints pid and log file" },
    { name: "log-file", value: "FILE", help: "with --daemon: append the daemon's output to FILE" },
    { name: "debug", short: "d", help: "same as -o debug" },
  ],
  sections: [
    {
      title: "mount options (-o)",
      lines: [
        "ro                   read-only in the kernel: fastest warm reads, no /.afi/search (AFI profile 1)",
        "subtree=NAMESPACE    mount only this namespace (a.b or a/b) as the root",
        "bound=FILE           show only operations matching FILE's patterns (one a.b.c, a.b.* or a.** per line)",
        "token=FILE           with --tokens: FILE holds a token; the mount shows that token's view (AFI's token=)",
        "allow_other          let other users read the mount (non-root: needs user_allow_other in /etc/fuse.conf)",
        "default_permissions  let the kernel check the mode bits (0555 directories, 0444 files)",
        "auto_unmount         unmount even if the daemon is killed (kill -9)",
        "nonempty             mount over a non-empty directory, hiding its files while mounted",
        "debug                print libfuse's request trace on stderr",
      ],
    },
    { title: "sources", lines: SOURCE_LINES },
    {
      title: "in the background (--daemon)",
      lines: [
        "The command returns once the mount is ready (or fails with the daemon's message and exit code).",
        "The daemon appends its output to --log-file FILE, or else to $XDG_RUNTIME_DIR/forage/<name>-<hash>.log",
        "(/tmp/forage-<uid>/<name>-<hash>.log without XDG_RUNTIME_DIR), <name> being the mountpoint's.",
      ],
    },
    {
      title: "unmounting",
      lines: [
        "Ctrl-C (or SIGTERM) in the foreground, or from anywhere, whichever process serves it:",
        "  forage unmount <mountpoint>     or     fusermount3 -u <mountpoint>",
        "One mountpoint takes one mount: a second forage mount on it fails until the first ends.",
      ],
    },
  ],
  examples: [
    "forage mount --example ./mnt                     # the built-in example; Ctrl-C unmounts",
    "forage mount ttt=./tictactoe.yaml stock=./catalog.yaml ./mnt",
    "forage mount --watch -o subtree=apps.bazaar,bound=./bound.txt ./ops.js ./mnt",
    "forage mount --daemon -o ro,allow_other ./ops.js /srv/ops && forage unmount /srv/ops",
    "forage mount --tokens ./tokens.txt -o token=./agent.token ./ops.js ./mnt   # the agent token's view",
  ],
};

/** `forage export`: writes what a read-only mount would show into a directory. */
export const EXPORT_COMMAND: CommandSpec = {
  name: "export",
  summary: "write the catalog's tree to an ordinary directory (AFI profile 1: no .search/, no /.afi/search)",
  synopsis: [
    "forage export [-o subtree=NS,bound=FILE] [NAME=]<source>... <directory>",
    "forage export [-o ...] --example <directory>",
  ],
  options: [
    { name: "option", short: "o", value: "OPTS", multiple: true, help: "subtree=NAMESPACE, bound=FILE (as for mount)" },
    ...CATALOG_OPTIONS,
  ],
  sections: [
    { title: "sources", lines: SOURCE_LINES },
    {
      title: "the directory",
      lines: [
        "It must be empty or absent; export creates it. A failed export removes what it wrote,",
        "never a directory that was there before. Text search is grep: an export has no ranked search.",
      ],
    },
  ],
  examples: ["forage export --example ./tree && tsc -p ./tree", "forage export ttt=./tictactoe.yaml ./tree"],
};

/** Parses `forage mount`'s arguments, or returns "help". */
export function parseMountArguments(argv: readonly string[]): MountArguments | "help" {
  const parsed = parseCommand(MOUNT_COMMAND, argv);
  if (parsed === "help") return "help";
  const logFile = stringOption(parsed, "log-file");
  const daemon = flagOption(parsed, "daemon");
  if (logFile !== undefined && !daemon) throw new CliError("--log-file goes with --daemon; see forage mount --help", 2);
  const options = parseMountOptions(listOption(parsed, "option"), "mount");
  const fuse = { ...options.fuse, debug: options.fuse.debug || flagOption(parsed, "debug") };
  const view = { ...options, ...mountTokenView(stringOption(parsed, "tokens"), options) };
  return { ...catalogArguments(parsed), ...view, fuse, watch: flagOption(parsed, "watch"), daemon, logFile };
}

/** Parses `forage export`'s arguments, or returns "help". */
export function parseExportArguments(argv: readonly string[]): MountArguments | "help" {
  const parsed = parseCommand(EXPORT_COMMAND, argv);
  if (parsed === "help") return "help";
  const options = parseMountOptions(listOption(parsed, "option"), "export");
  return { ...catalogArguments(parsed), ...options, watch: false, daemon: false, logFile: undefined };
}

/** The sources (or --example) and the target, the last positional. */
function catalogArguments(parsed: ParsedCommand): Pick<MountArguments, "sources" | "example" | "target"> {
  const positional = [...parsed.positionals];
  const target = positional.pop();
  if (target === undefined) throw new CliError("missing the mountpoint (or export directory)", 2);
  return { ...catalogSources(parsed, positional), target };
}

/** The sources among `positional` (NAME=source, --namespace), or --example and none. */
export function catalogSources(
  parsed: ParsedCommand,
  positional: readonly string[],
): Pick<MountArguments, "sources" | "example"> {
  const example = flagOption(parsed, "example");
  const namespace = stringOption(parsed, "namespace");
  if (example === positional.length > 0)
    throw new CliError(example ? "--example takes no source" : "give a source, or --example", 2);
  if (namespace !== undefined && positional.length !== 1)
    throw new CliError("--namespace goes with exactly one source; use NAME=file for several", 2);
  const select = parseSelect(listOption(parsed, "select"));
  const sources = positional
    .map(parseSourceSpec)
    .map((source) => (namespace === undefined ? source : { ...source, namespace }))
    .map((source) => (select === undefined ? source : { ...source, select }));
  return { sources, example };
}

/** `--select tag:NAME` and `--select path:GLOB`, for OpenAPI sources (docs/intake.md, "Selecting part of a spec"). */
function parseSelect(values: readonly string[]): OpenApiSelect | undefined {
  if (values.length === 0) return undefined;
  const tags: string[] = [];
  const paths: string[] = [];
  for (const value of values) {
    const [kind, what] = value.split(/:(.*)/s, 2) as [string, string | undefined];
    if (kind === "tag" && what) tags.push(what);
    else if (kind === "path" && what) paths.push(what);
    else
      throw new CliError(`--select ${JSON.stringify(value)}: expected tag:NAME or path:GLOB (e.g. path:/repos/**)`, 2);
  }
  return { tags, paths };
}

const FUSE_FLAGS: Readonly<Record<string, keyof FuseFlags>> = {
  allow_other: "allowOther",
  default_permissions: "defaultPermissions",
  auto_unmount: "autoUnmount",
  nonempty: "nonEmpty",
  debug: "debug",
};

/** `-o` options, as sshfs takes them: comma-separated, repeatable. Export and serve take only those that shape the tree. */
export function parseMountOptions(
  groups: readonly string[],
  command: "mount" | "export" | "serve",
): Pick<MountArguments, "subtree" | "bound" | "readOnly" | "fuse" | "tokenFile"> {
  let subtree: string | undefined;
  let bound: string[] | undefined;
  let tokenFile: string | undefined;
  let readOnly = false;
  const fuse: Record<keyof FuseFlags, boolean> = {
    allowOther: false,
    defaultPermissions: false,
    autoUnmount: false,
    nonEmpty: false,
    debug: false,
  };
  for (const option of groups.flatMap((group) => group.split(",")).filter((option) => option !== "")) {
    const [key, value] = option.split(/=(.*)/s, 2) as [string, string | undefined];
    const flag = FUSE_FLAGS[key];
    if (key === "subtree" && value) subtree = value.replace(/^\/+|\/+$/g, "").replaceAll("/", ".");
    else if (key === "bound" && value) bound = readBoundFile(value);
    else if (key === "ro" && value === undefined) readOnly = true;
    else if (key === "token" && value && command !== "export") tokenFile = value;
    else if (command !== "mount" && flag !== undefined)
      throw new CliError(`-o ${key} applies to mount, not ${command}`, 2);
    else if (flag !== undefined && value === undefined) fuse[flag] = true;
    else throw new CliError(`unknown or incomplete mount option ${JSON.stringify(option)}; ${expected(command)}`, 2);
  }
  return { subtree, bound, readOnly, fuse, tokenFile };
}

function expected(command: "mount" | "export" | "serve"): string {
  if (command === "serve") return "serve takes subtree=<namespace>, bound=<file>, token=<file> and ro";
  return command === "export"
    ? "export takes subtree=<namespace>, bound=<file> and ro (an export is always read-only)"
    : `expected ro, subtree=<namespace>, bound=<file>, token=<file>, ${Object.keys(FUSE_FLAGS).join(", ")}`;
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
