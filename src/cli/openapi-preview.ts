import { readFile, stat } from "node:fs/promises";
import type { NormalizedOpenApi, OpenApiOperation } from "../openapi/index.js";
import { MAX_SPEC_BYTES, normalizeOpenApi, toOpenApiTableRow } from "../openapi/index.js";
import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { type CommandSpec, commandHelp, flagOption, parseCommand, stringOption } from "./command-line.js";
import { describeFailure } from "./describe-failure.js";

/** `forage openapi preview`: what intake would take from a spec, and why it leaves the rest. */
export const OPENAPI_PREVIEW_COMMAND: CommandSpec = {
  name: "openapi preview",
  summary: "list a spec's supported operations, and every unsupported one with its reason",
  synopsis: ["forage openapi preview <spec.json|spec.yaml> [--json] [--auth-parameter NAME]"],
  options: [
    { name: "json", help: "print the preview as JSON" },
    { name: "auth-parameter", value: "NAME", help: "treat parameter NAME as the API's credential, not an input" },
  ],
  examples: ["forage openapi preview ./tictactoe.yaml", "forage openapi preview ./uspto.json --json | jq .unsupported"],
};

interface PreviewArguments {
  readonly spec: string;
  readonly json: boolean;
  readonly authParameter: string | undefined;
}

/**
 * `forage openapi preview <spec> [--json]`: the spec's supported operations
 * and every unsupported one with its reason. `argv` is what follows
 * "preview". Every refusal is one line on stderr and a non-zero exit code
 * (2 for usage, 1 otherwise), never a stack trace.
 */
export async function runOpenApiPreview(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const args = parsePreviewArguments(argv);
    if (args === "help") {
      io.stdout(commandHelp(OPENAPI_PREVIEW_COMMAND));
      return 0;
    }
    const preview = previewOf(
      args.spec,
      await readSpec(args.spec),
      args.authParameter === undefined ? {} : { authParameter: args.authParameter },
    );
    io.stdout(args.json ? `${JSON.stringify(previewJson(preview), null, 2)}\n` : previewText(preview));
    return 0;
  } catch (error) {
    io.stderr(`forage: ${terminalSafe(describeFailure(error)).replace(/\n/g, " ")}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

function parsePreviewArguments(argv: readonly string[]): PreviewArguments | "help" {
  const parsed = parseCommand(OPENAPI_PREVIEW_COMMAND, argv);
  if (parsed === "help") return "help";
  const [spec, extra] = parsed.positionals;
  if (spec === undefined || extra !== undefined) throw new CliError(`usage: ${OPENAPI_PREVIEW_COMMAND.synopsis[0]}`, 2);
  const authParameter = stringOption(parsed, "auth-parameter");
  if (authParameter === "") throw new CliError("--auth-parameter needs a value (NAME)", 2);
  return { spec, json: flagOption(parsed, "json"), authParameter };
}

/** What intake makes of the spec; a refusal names the file it refuses, as every CLI error names its source. */
function previewOf(file: string, text: string, options: { authParameter?: string }): NormalizedOpenApi {
  try {
    return normalizeOpenApi(text, options);
  } catch (error) {
    throw new CliError(`${file}: ${describeFailure(error)}`);
  }
}

// The size is checked before reading, so a huge file is refused without loading it.
async function readSpec(file: string): Promise<string> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError(`${file} is not a file`);
    if (info.size > MAX_SPEC_BYTES)
      throw new CliError(`${file} is ${info.size} bytes; specs are limited to ${MAX_SPEC_BYTES} (2 MiB)`);
    return await readFile(file, "utf8");
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The preview as JSON: rows and hints, never validators. */
function previewJson(preview: NormalizedOpenApi): unknown {
  return {
    version: preview.version,
    info: preview.info,
    servers: preview.servers,
    auth: preview.auth,
    operations: preview.operations.map(operationJson),
    unsupported: preview.unsupported,
    notes: preview.notes,
  };
}

function operationJson(operation: OpenApiOperation): unknown {
  return {
    ...toOpenApiTableRow(operation),
    deprecated: operation.deprecated,
    security: operation.security,
    ...(operation.servers === undefined ? {} : { servers: operation.servers }),
    notes: operation.notes,
  };
}

function previewText(preview: NormalizedOpenApi): string {
  const lines: string[] = [];
  const title = [preview.info.title, preview.info.version].filter((part) => part !== undefined).join(" ");
  lines.push(`${title === "" ? "(untitled)" : title} (OpenAPI ${preview.version}; provider text is third-party)`);
  lines.push(`servers (hints only): ${preview.servers.map((server) => server.url).join(", ") || "none"}`);
  lines.push("", `supported operations: ${preview.operations.length}`);
  lines.push(
    ...table(
      ["METHOD", "PATH", "NAME", "EFFECT"],
      preview.operations.map((op) => [op.method, op.path, op.name, op.effect]),
    ),
  );
  const shown = preview.unsupported.filter(({ sourceSchema }) => sourceSchema !== undefined).length;
  // A mount still shows the ones whose schemas intake could read, marked not validated (docs/mount.md).
  lines.push("", `unsupported operations: ${preview.unsupported.length} (${shown} shown in a mount, not validated)`);
  lines.push(
    ...table(
      ["METHOD", "PATH", "NAME", "IN A MOUNT", "REASON"],
      preview.unsupported.map((op) => [
        op.method,
        op.path,
        op.name,
        op.sourceSchema === undefined ? "no files" : "not validated",
        op.reason,
      ]),
    ),
  );
  const notes = [
    ...preview.notes,
    ...preview.operations.flatMap((op) => op.notes.map((note) => `${op.method} ${op.path}: ${note}`)),
  ];
  if (notes.length > 0) lines.push("", "notes:", ...notes.map((note) => `  - ${note}`));
  return `${lines.map(terminalSafe).join("\n")}\n`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return ["  (none)"];
  const widths = header.map((title, column) =>
    Math.min(48, Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length))),
  );
  const format = (row: readonly string[]): string =>
    `  ${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join("  ")}`.trimEnd();
  return [format(header), ...rows.map(format)];
}

/** Escapes control and bidirectional-override characters, so third-party text cannot drive the terminal. */
function terminalSafe(text: string): string {
  return text.replace(
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
