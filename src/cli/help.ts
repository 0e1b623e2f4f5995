import { AFI_CHECK_COMMAND } from "./afi-check-command.js";
import { type CommandSpec, commandHelp, EXIT_CODES } from "./command-line.js";
import { EXPORT_COMMAND, MOUNT_COMMAND } from "./mount-arguments.js";
import { OPENAPI_PREVIEW_COMMAND } from "./openapi-preview.js";
import { SERVE_COMMAND } from "./serve-command.js";
import { UNMOUNT_COMMAND } from "./unmount-command.js";

/** Every command, by the name `forage help <name>` takes. */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  mount: MOUNT_COMMAND,
  unmount: UNMOUNT_COMMAND,
  serve: SERVE_COMMAND,
  export: EXPORT_COMMAND,
  openapi: OPENAPI_PREVIEW_COMMAND,
  "afi-check": AFI_CHECK_COMMAND,
};

/** `forage --help`: every command's complete help, then the exit codes once. */
export function fullHelp(): string {
  const specs = Object.values(COMMANDS);
  const overview = [
    "forage: list, search and describe a catalog of operations, as files",
    "",
    "usage:",
    ...specs.flatMap((spec) => spec.synopsis.map((line) => `  ${line}`)),
    "  forage help [<command>]  |  forage <command> --help  |  forage --version",
  ];
  const sections = specs.map((spec) => commandHelp(spec, { exitCodes: false }).trimEnd());
  return `${[overview.join("\n"), ...sections, ["exit codes:", ...EXIT_CODES.map((line) => `  ${line}`)].join("\n")].join("\n\n")}\n`;
}
