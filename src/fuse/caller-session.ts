import { readFileSync } from "node:fs";

/**
 * The Unix session of the process that opened a file, as "sid:<n>": a shell's
 * `echo > f` and `cat f` share it, unrelated agents and terminals do not.
 * Control files use it to keep one caller's pending request from another's.
 * Undefined when /proc cannot tell (the process is gone, or no pid was given).
 */
export function callerSession(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which sits in parentheses and may hold spaces: state, ppid, pgrp, session.
    const session = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3];
    return session === undefined ? undefined : `sid:${session}`;
  } catch {
    return undefined;
  }
}
