#!/usr/bin/env node
// Lays out the two conditions of the agent benchmark for one catalog:
//   <work-dir>/plain/   a copy of the catalog's tools/list files (the plain-files condition)
//   <work-dir>/mnt/     the mountpoint of `forage mount <catalog-dir> <work-dir>/mnt` (the mount condition)
// and writes <work-dir>/mount.sh, <work-dir>/unmount.sh and <work-dir>/shell.sh, the shell every agent's
// commands run through (agent-shell.mjs, logging to <work-dir>/calls.jsonl). It also checks the tasks file against the
// catalog (every need has an alternative here; no alternative names a tool a present server
// lacks). With --check-mount it mounts once, checks that every server is a namespace with one
// operation file per tool, and unmounts.
//
// Usage: node scripts/bench/agent/prepare.mjs <catalog-dir> <work-dir> --tasks FILE [--check-mount]
// (--tasks is required: the benchmark's tasks are import-tasks.mjs's, written outside the repository.)

import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { segmentKey, toolKey } from "./tool-names.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..", "..");
const cli = join(root, "dist", "cli", "main.js");
const MOUNT_WAIT_MS = 120_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { tasks: { type: "string" }, "check-mount": { type: "boolean" } },
});
if (positionals.length !== 2 || values.tasks === undefined) {
  console.error("usage: prepare.mjs <catalog-dir> <work-dir> --tasks FILE [--check-mount]");
  process.exit(2);
}
const [catalogDir, workDir] = positionals.map((path) => resolve(path));
if (!existsSync(catalogDir)) {
  console.error(`no catalog at ${catalogDir}; build it first (scripts/bench/agent/README.md, "Catalogs")`);
  process.exit(1);
}

const catalog = readCatalog(catalogDir);
console.log(`catalog ${catalogDir}: ${catalog.servers.size} servers, ${catalog.tools} tools`);
const tasks = JSON.parse(readFileSync(values.tasks, "utf8")).tasks;
console.log(`tasks ${resolve(values.tasks)}: ${tasks.length}`);
const taskProblems = checkTasks(tasks, catalog);
for (const problem of taskProblems) console.log(`task problem: ${problem}`);

const plain = join(workDir, "plain");
const mnt = join(workDir, "mnt");
rmSync(plain, { recursive: true, force: true });
mkdirSync(plain, { recursive: true });
mkdirSync(mnt, { recursive: true });
for (const server of catalog.servers.keys())
  copyFileSync(join(catalogDir, `${server}.json`), join(plain, `${server}.json`));
const mountCommand = [process.execPath, cli, "mount", catalogDir, mnt];
script(
  "mount.sh",
  `# Mounts the catalog for the mount condition; stays in the foreground.\nexec ${mountCommand.map(shellQuote).join(" ")}`,
);
script("unmount.sh", `fusermount3 -u ${shellQuote(mnt)}`);
const callLog = join(workDir, "calls.jsonl");
script(
  "shell.sh",
  "# The agents' shell: give it to each agent's harness as `shell.sh -c COMMAND`, with\n" +
    "# AGENT_SHELL_TAG=<condition>-<size>-<batch> set for that agent; every call is logged to calls.jsonl.\n" +
    `AGENT_SHELL_LOG="\${AGENT_SHELL_LOG:-${callLog}}" exec ${shellQuote(process.execPath)} ${shellQuote(join(here, "agent-shell.mjs"))} "$@"`,
);
console.log(`plain condition: ${plain} (${catalog.servers.size} files)`);
console.log(`mount condition: ${mnt}, mounted by ${join(workDir, "mount.sh")}`);
console.log(`agents' shell: ${join(workDir, "shell.sh")}, logging every call to ${callLog}`);
// A log left from an earlier run would be scored with this one: say so, but never delete what was counted.
if (existsSync(callLog)) console.log(`warning: ${callLog} already holds calls; move it away before the agents start`);

let failed = taskProblems.length > 0;
if (values["check-mount"]) failed = !(await checkMount(mountCommand, mnt, catalog, tasks)) || failed;
process.exit(failed ? 1 : 0);

/** Every `<server>.json` with its tool names; a file that is not a tools/list result stops the run. */
function readCatalog(dir) {
  const servers = new Map();
  let tools = 0;
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const server = file.slice(0, -".json".length);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(server)) throw new Error(`${file}: the file stem is not an identifier`);
    const parsed = JSON.parse(readFileSync(join(dir, file), "utf8"));
    if (!Array.isArray(parsed?.tools)) throw new Error(`${file}: not a tools/list result ({ "tools": [...] })`);
    servers.set(server, new Set(parsed.tools.map((tool) => tool.name)));
    tools += parsed.tools.length;
  }
  return { servers, tools };
}

/** What is wrong with the tasks for this catalog; also a scored name that two tools share (the scorer could not tell them apart). */
function checkTasks(tasks, { servers }) {
  const problems = [];
  const byKey = new Map();
  for (const [server, names] of servers) {
    for (const name of names) {
      const key = toolKey(`${server}::${name}`);
      byKey.set(key, [...(byKey.get(key) ?? []), `${server}::${name}`]);
    }
  }
  const ids = new Set();
  for (const task of tasks) {
    if (ids.has(task.id)) problems.push(`${task.id}: duplicate id`);
    ids.add(task.id);
    for (const need of task.needs) {
      let present = 0;
      for (const alternative of need.anyOf) {
        const [server, name] = alternative.split("::");
        if (!servers.has(server)) continue;
        if (!servers.get(server).has(name)) problems.push(`${task.id}: ${alternative} is not a tool of ${server}`);
        else present += 1;
        const sharing = (byKey.get(toolKey(alternative)) ?? []).filter((other) => !need.anyOf.includes(other));
        if (sharing.length > 0) problems.push(`${task.id}: ${alternative} scores the same as ${sharing.join(", ")}`);
      }
      if (present === 0) problems.push(`${task.id}: no alternative of [${need.anyOf.join(", ")}] is in this catalog`);
    }
  }
  return problems;
}

/**
 * Mounts, waits for the tree, compares it with the catalog, unmounts. True when every tool is
 * there. Also names each task need whose tools the mount left out, since an agent in the mount
 * condition can then only find it through the mount's list of left-out tools.
 */
async function checkMount(command, mountpoint, { servers }, taskList) {
  if (!existsSync(cli)) {
    console.log(`check-mount: ${cli} is missing; run npm run build`);
    return false;
  }
  const daemon = spawn(command[0], command.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  daemon.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise((resolveExit) => daemon.on("exit", (code) => resolveExit(code)));
  try {
    const ready = await Promise.race([
      waitFor(() => existsSync(join(mountpoint, "README.md"))),
      exited.then(() => false),
    ]);
    if (!ready) {
      console.log(`check-mount: the mount did not come up: ${stderr.trim().split("\n").slice(-3).join(" | ")}`);
      return false;
    }
    const missing = [];
    let files = 0;
    for (const [server, names] of servers) {
      const dir = join(mountpoint, server);
      const present = new Set(
        existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".d.ts") && !name.startsWith("@")) : [],
      );
      files += present.size;
      const segments = new Set([...present].map((name) => segmentKey(name.slice(0, -".d.ts".length))));
      for (const name of names) if (!segments.has(segmentKey(name))) missing.push(`${server}::${name}`);
    }
    console.log(
      `check-mount: ${files} operation files under ${servers.size} namespaces; ${missing.length} tools missing`,
    );
    for (const name of missing.slice(0, 20)) console.log(`  missing: ${name}`);
    if (missing.length > 20) console.log(`  …and ${missing.length - 20} more`);
    const gone = new Set(missing);
    let hit = 0;
    for (const task of taskList) {
      for (const need of task.needs) {
        const here = need.anyOf.filter((name) => servers.get(name.split("::")[0])?.has(name.split("::")[1]));
        const left = here.filter((name) => gone.has(name));
        if (left.length === 0) continue;
        const all = left.length === here.length ? "every alternative" : `${left.length} of ${here.length} alternatives`;
        console.log(`  task ${task.id}: ${all} left out of the mount: ${left.join(", ")}`);
        hit += 1;
      }
    }
    console.log(`check-mount: ${hit} task needs have tools left out of the mount`);
    return missing.length === 0;
  } finally {
    if (daemon.exitCode === null) {
      spawn("fusermount3", ["-u", mountpoint], { stdio: "ignore" });
      await Promise.race([exited, sleep(10_000)]);
      if (daemon.exitCode === null) daemon.kill("SIGKILL");
    }
  }
}

async function waitFor(condition) {
  for (const started = Date.now(); Date.now() - started < MOUNT_WAIT_MS; await sleep(250)) {
    if (condition()) return true;
  }
  return false;
}

function sleep(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

function script(name, body) {
  const path = join(workDir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

function shellQuote(text) {
  return /^[A-Za-z0-9_./=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
