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
forward(child.stdout, process.stdout, "stdoutBytes");
forward(child.stderr, process.stderr, "stderrBytes");
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

/**
 * Passes one of the command's streams through and counts the bytes handed on. When the agent's
 * reader closes early (`agent-shell.mjs -c … | head`), what it read ends there: later output is
 * neither counted nor written, and the call is still logged instead of the wrapper dying of EPIPE.
 */
function forward(from, to, counter) {
  let open = true;
  to.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
    open = false;
  });
  from.on("data", (chunk) => {
    if (!open) return;
    counts[counter] += chunk.length;
    to.write(chunk);
  });
}

/** The command of `-c COMMAND`, `-lc COMMAND` or `-l -c COMMAND`; a login shell's -l changes nothing here. */
function commandOf(args) {
  const flags = args.slice(0, -1).join(" ");
  if (args.length >= 2 && ["-c", "-lc", "-cl", "-l -c"].includes(flags)) return args[args.length - 1];
  return undefined;
}
