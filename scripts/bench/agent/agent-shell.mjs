#!/usr/bin/env node
// The agents' shell: runs one command as `bash -c COMMAND` would, passing its input and output
// through unchanged, and appends one JSON line to the log named by AGENT_SHELL_LOG:
//   {"agent": AGENT_SHELL_TAG, "at": ISO time, "command", "exit", "stdoutBytes", "stderrBytes", "bytes", "ms"}
// so that score.mjs counts each agent's shell calls and the bytes they printed (what the agent read)
// from the log, not from what the agent says. Give it to an agent's harness as the shell it runs
// commands with; it takes bash's `-c COMMAND` (also `-lc`, `-l -c`), so it can stand in for `bash`.
// A call with no log configured fails, so an agent's calls are never silently uncounted.
//
// Usage: AGENT_SHELL_LOG=<file.jsonl> AGENT_SHELL_TAG=<condition>-<size>-<batch> agent-shell.mjs -c COMMAND

import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { constants } from "node:os";

const log = process.env.AGENT_SHELL_LOG;
const agent = process.env.AGENT_SHELL_TAG;
const command = commandOf(process.argv.slice(2));
if (log === undefined || agent === undefined || command === undefined) {
  process.stderr.write("usage: AGENT_SHELL_LOG=FILE AGENT_SHELL_TAG=CONDITION-SIZE-BATCH agent-shell.mjs -c COMMAND\n");
  process.exit(2);
}

const started = Date.now();
const counts = { stdoutBytes: 0, stderrBytes: 0 };
const child = spawn("bash", ["-c", command], { stdio: ["inherit", "pipe", "pipe"] });
child.stdout.on("data", (chunk) => {
  counts.stdoutBytes += chunk.length;
  process.stdout.write(chunk);
});
child.stderr.on("data", (chunk) => {
  counts.stderrBytes += chunk.length;
  process.stderr.write(chunk);
});
child.on("close", (code, signal) => {
  const exit = code ?? 128 + (constants.signals[signal] ?? 0);
  const entry = {
    agent,
    at: new Date(started).toISOString(),
    command,
    exit,
    ...counts,
    bytes: counts.stdoutBytes + counts.stderrBytes,
    ms: Date.now() - started,
  };
  // One short append per call: O_APPEND keeps concurrent agents' lines whole.
  appendFileSync(log, `${JSON.stringify(entry)}\n`);
  process.exitCode = exit;
});

/** The command of `-c COMMAND`, `-lc COMMAND` or `-l -c COMMAND`; a login shell's -l changes nothing here. */
function commandOf(args) {
  const flags = args.slice(0, -1).join(" ");
  if (args.length >= 2 && ["-c", "-lc", "-cl", "-l -c"].includes(flags)) return args[args.length - 1];
  return undefined;
}
