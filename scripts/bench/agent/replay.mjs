#!/usr/bin/env node
// Replays the mount agents' logged shell calls of a round against a mount of this checkout's build
// and of a baseline build, in one run, and sums the bytes each agent would have read from each:
// what a change to the mount's surface saves on the agents' own commands. A proxy: agents adapt to
// what they read, so a real round (README.md, "Protocol") is what counts; this tells a change's
// direction and size before one is run.
//
// Each calls.jsonl is a size's shell log (agent-shell.mjs); its mount agents' commands named that
// size's mountpoint, `<dir of calls.jsonl>/mnt`, which is rewritten to a fresh mountpoint of each
// build. A command that still names the runs folder after the rewrite (an answers file, the plain
// folder) is skipped and counted. The plain agents' logged bytes are printed beside, for the ratio.
//
// Usage: node scripts/bench/agent/replay.mjs --baseline <other-checkout>/dist
//          --round <calls.jsonl>=<catalog-dir> [--round …] [--json]

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { median } from "../stats.mjs";

const { values } = parseArgs({
  options: { baseline: { type: "string" }, round: { type: "string", multiple: true }, json: { type: "boolean" } },
});
if (values.baseline === undefined || values.round === undefined) {
  console.error("usage: replay.mjs --baseline <dist-dir> --round <calls.jsonl>=<catalog-dir> [--round …] [--json]");
  process.exit(2);
}
const builds = { baseline: resolve(values.baseline), this: resolve(import.meta.dirname, "../../../dist") };
const rounds = values.round.map((spec) => {
  const at = spec.lastIndexOf("=");
  if (at === -1) throw new Error(`--round ${spec}: expected <calls.jsonl>=<catalog-dir>`);
  return { calls: resolve(spec.slice(0, at)), catalog: resolve(spec.slice(at + 1)) };
});

const report = rounds.map(replayRound);
if (values.json) console.log(JSON.stringify({ builds, rounds: report }, null, 2));
else for (const round of report) console.log(`${table(round)}\n`);

/** One size's log replayed on both builds: bytes per mount agent, and the plain agents' logged bytes. */
function replayRound({ calls, catalog }) {
  const lines = readFileSync(calls, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
  const runsDir = dirname(calls);
  const mountCalls = lines.filter((line) => String(line.agent).startsWith("mount-"));
  const plain = perAgent(lines.filter((line) => String(line.agent).startsWith("plain-")).map(logged));
  const replayed = {};
  for (const [name, dist] of Object.entries(builds)) replayed[name] = replayOn(dist, catalog, runsDir, mountCalls);
  return { calls, catalog, logged: perAgent(mountCalls.map(logged)), plain, ...replayed };
}

function logged(line) {
  return { agent: line.agent, bytes: line.bytes };
}

/** Mounts `catalog` with the build at `dist`, runs each command there, unmounts. */
function replayOn(dist, catalog, runsDir, mountCalls) {
  const mountpoint = mkdtempSync(join(tmpdir(), "forage-replay-"));
  const mounted = spawnSync(process.execPath, [join(dist, "cli/main.js"), "mount", "--daemon", catalog, mountpoint], {
    encoding: "utf8",
  });
  if (mounted.status !== 0) throw new Error(`mount with ${dist} failed: ${mounted.stderr}`);
  try {
    const original = join(runsDir, "mnt");
    let skipped = 0;
    const runs = [];
    for (const call of mountCalls) {
      const command = call.command.replaceAll(original, mountpoint);
      if (command.includes(runsDir)) {
        skipped += 1;
        continue;
      }
      const run = spawnSync("bash", ["-c", command], { cwd: mountpoint, maxBuffer: 64 * 1024 * 1024 });
      runs.push({ agent: call.agent, bytes: run.stdout.length + run.stderr.length });
    }
    return { ...perAgent(runs), skipped };
  } finally {
    spawnSync("fusermount3", ["-u", mountpoint]);
    rmSync(mountpoint, { recursive: true, force: true });
  }
}

/** Bytes summed per agent, with their median and mean over the agents. */
function perAgent(runs) {
  const agents = {};
  for (const { agent, bytes } of runs) agents[agent] = (agents[agent] ?? 0) + bytes;
  const sums = Object.values(agents);
  return {
    agents,
    median: sums.length === 0 ? 0 : median(sums),
    mean: sums.length === 0 ? 0 : sums.reduce((a, b) => a + b, 0) / sums.length,
  };
}

function table(round) {
  const ratio = (a, b) => (b === 0 ? "" : `${(a / b).toFixed(2)}×`);
  const rows = Object.keys(round.logged.agents).map(
    (agent) =>
      `| ${agent} | ${round.logged.agents[agent]} | ${round.baseline.agents[agent] ?? 0} | ${round.this.agents[agent] ?? 0} |`,
  );
  const summary = ["median", "mean"].map(
    (key) =>
      `| ${key} | ${Math.round(round.logged[key])} | ${Math.round(round.baseline[key])} | ${Math.round(round.this[key])} ` +
      `(${ratio(round.this[key], round.baseline[key])} of baseline, ${ratio(round.this[key], round.plain[key])} of plain's ${Math.round(round.plain[key])}) |`,
  );
  return [
    `${round.calls} on ${round.catalog} (skipped per build: ${round.baseline.skipped}, ${round.this.skipped})`,
    "| mount agent | logged bytes | baseline replayed | this build replayed |",
    "| --- | ---: | ---: | ---: |",
    ...rows,
    ...summary,
  ].join("\n");
}
