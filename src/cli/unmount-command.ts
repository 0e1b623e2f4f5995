import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { clearStaleMount, lockHolder, mountedType, waitForLockRelease } from "../fuse/index.js";
import { CliError } from "./cli-error.js";
import type { CommandIo } from "./command-io.js";
import { type CommandSpec, commandHelp, parseCommand } from "./command-line.js";
import { describeFailure } from "./describe-failure.js";

/** How long `forage unmount` waits for the serving process to finish after the kernel let go. */
const SERVER_EXIT_WAIT_MS = 5_000;

/** `forage unmount`: ends a forage mount, whichever process serves it. */
export const UNMOUNT_COMMAND: CommandSpec = {
  name: "unmount",
  summary: "unmount a forage mount, whichever process serves it (a dead mount is cleared too)",
  synopsis: ["forage unmount <mountpoint>"],
  options: [],
  sections: [
    {
      title: "what it does",
      lines: [
        "Runs fusermount3 -u on the mountpoint, then waits for the serving forage process to exit.",
        'A dead mount ("Transport endpoint is not connected", its daemon killed) is cleared with fusermount3 -u -z.',
        "Nothing mounted there, or a mount that is not forage's, is an error (exit 1).",
      ],
    },
  ],
  examples: ["forage unmount ./mnt", "fusermount3 -u ./mnt                # the same, without forage"],
};

/** Unmounts the forage mount at the one positional argument. */
export async function runUnmount(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommand(UNMOUNT_COMMAND, argv);
  if (parsed === "help") {
    io.stdout(commandHelp(UNMOUNT_COMMAND));
    return 0;
  }
  const [given, extra] = parsed.positionals;
  if (given === undefined || extra !== undefined)
    throw new CliError("give exactly one mountpoint; see forage unmount --help", 2);
  const path = resolve(given);
  if (clearDeadMount(path)) {
    io.stdout(`forage: cleared the dead mount at ${path} (its daemon was gone)\n`);
    return 0;
  }
  if (!existsSync(path)) throw new CliError(`${path} does not exist; nothing to unmount`);
  const canonical = realpathSync(path);
  const type = mountedType(canonical);
  if (type === undefined) throw new CliError(`nothing is mounted at ${path}`);
  if (type !== "fuse.forage") {
    throw new CliError(
      `${path} is a ${type} mount, not forage's; not touching it (fusermount3 -u or umount it yourself)`,
    );
  }
  const holder = await lockHolder(canonical);
  const result = spawnSync("fusermount3", ["-u", canonical], { encoding: "utf8" });
  if (result.error !== undefined) throw new CliError(`cannot run fusermount3: ${result.error.message}`);
  if (result.status !== 0) {
    const reason = result.stderr.trim().split("\n")[0] || `fusermount3 exited with ${result.status}`;
    throw new CliError(
      `${reason} (if files there are still open, close them, or detach lazily: fusermount3 -u -z ${path})`,
    );
  }
  const finished = holder === undefined || (await waitForLockRelease(canonical, SERVER_EXIT_WAIT_MS));
  const server = holder === undefined ? "" : ` (served by pid ${holder.pid}${finished ? "" : ", still exiting"})`;
  io.stdout(`forage: unmounted ${path}${server}\n`);
  return 0;
}

function clearDeadMount(path: string): boolean {
  try {
    return clearStaleMount(path);
  } catch (error) {
    throw new CliError(describeFailure(error));
  }
}
