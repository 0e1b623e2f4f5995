#!/usr/bin/env node
// HTTP load benchmark (BENCHMARKS.md, "HTTP: forage serve --http against a static file server").
//
// In one run, on loopback only (127.0.0.1), it loads:
//   forage   `forage serve --http 127.0.0.1:0 <source>`, no --rate (the rate limit is off), over the
//            example catalog scaled to N operations (scaledExampleOperations);
//   static   serve-handler (static-server.mjs) serving what `forage export` wrote for the same source;
// and, for search, which no static server can answer, `grep -rnF` over the export, a process per query.
//
// Requests (Forage | static):
//   stat     GET /afi/stat?path=P                  | GET /P with Range: bytes=0-0 (206: Content-Range names the
//                                                    size, Last-Modified the time; autocannon 9 never completes a
//                                                    HEAD answer that carries Content-Length, so no HEAD)
//   read     GET /afi/read?path=P                  | GET /P
//   list     GET /afi/list?path=D                  | GET /D/ with Accept: application/json (serve-handler's JSON listing)
//   search   POST /afi/search, first 100 matches of a word in most files | grep -rnF WORD . | head -100
//   search   POST /afi/search of a string in no file (every file read)    | grep -rnF STRING .
// P cycles through 1,000 operation files and D through 1,000 directories, sampled evenly from the
// export; before any load every sampled path is fetched from both servers, and each file must
// come back with the same bytes from both. Load for stat, read and list is autocannon
// (programmatic, in this process) over BENCH_CONNECTIONS connections. Search is one request after
// another (fetch, keep-alive; a search is one thread's work, and more connections would only
// queue behind it), against grep one process after another; each runs at least once a round.
// Each round runs every request for BENCH_DURATION seconds on each system, alternating which goes
// first; the report gives medians over rounds, and the forage/static ratio is the median of each
// round's own ratio. Any non-2xx answer (a 429 would mean the rate limit was on) fails the run.
//
//   node scripts/bench/http/run.mjs [operations]     (default 10000)
//   BENCH_ROUNDS=7 BENCH_DURATION=2 BENCH_CONNECTIONS=10   (many short rounds: on a shared machine a
//   ratio taken within seconds holds better than long runs far apart)
//
// Needs a built dist/ (npm run build). Progress goes to stderr, the markdown report to stdout, the
// raw figures to <tmpdir>/forage-bench-http-<operations>.json. Both servers are stopped and the
// export removed on exit, on errors and on SIGINT/SIGTERM.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { formatMs, formatRatio, max, median, min, percentile, timedAsync } from "../stats.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const projectRoot = resolve(here, "../../..");
const cli = join(projectRoot, "dist/cli/main.js");

const operations = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const duration = Number(process.env.BENCH_DURATION ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SAMPLE = 1_000;
const COMMON_WORD = "maxLength";
const ABSENT_STRING = "xyzzy-in-no-file";
const SEARCH_LIMIT = 100;

const log = (line) => process.stderr.write(`[bench/http] ${line}\n`);

// ---- Cleanup: no server or export may outlive this process ----------------------------------

const children = new Set();
const workDir = mkdtempSync(join(tmpdir(), "forage-bench-http-"));
function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(workDir, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    log(`${signal}: stopping the servers`);
    process.exit(code);
  });
}

// ---- The catalog and its export ----------------------------------------------------------------

function prepare() {
  const source = join(workDir, "source.mjs");
  const index = pathToFileURL(join(projectRoot, "dist/index.js")).href;
  writeFileSync(
    source,
    `// Written by scripts/bench/http/run.mjs: the example catalog scaled to ${operations} operations.\n` +
      `import { scaledExampleOperations } from ${JSON.stringify(index)};\n` +
      `export const operations = scaledExampleOperations(${operations});\n`,
  );
  const tree = join(workDir, "tree");
  const exported = spawnSync(process.execPath, [cli, "export", source, tree], { encoding: "utf8" });
  if (exported.status !== 0) throw new Error(`forage export failed: ${exported.stderr}`);
  log(exported.stdout.trim());
  const entries = readdirSync(tree, { recursive: true, withFileTypes: true })
    .map((entry) => ({ path: `/${join(entry.parentPath ?? entry.path, entry.name).slice(tree.length + 1)}`, entry }))
    .filter(({ path }) => !path.startsWith("/.afi"))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  // An operation's files, not the root's README.md and manifest, which say what each transport offers.
  const isOperationFile = ({ path, entry }) =>
    entry.isFile() && path.lastIndexOf("/") > 0 && !path.split("/").pop().startsWith("@");
  const files = evenly(entries.filter(isOperationFile).map(({ path }) => path));
  const directories = evenly(entries.filter(({ entry }) => entry.isDirectory()).map(({ path }) => path));
  return { source, tree, files, directories, fileCount: entries.filter(({ entry }) => entry.isFile()).length };
}

/** SAMPLE items spread evenly over the list (all of it when shorter). */
function evenly(list) {
  if (list.length <= SAMPLE) return list;
  return Array.from({ length: SAMPLE }, (_, i) => list[Math.floor((i * list.length) / SAMPLE)]);
}

// ---- Servers -------------------------------------------------------------------------------------

/** Starts a server process and resolves to { url, pid } once it prints its address. */
function start(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let output = "";
  return new Promise((resolvePromise, reject) => {
    const collect = (chunk) => {
      output += chunk;
      const found = pattern.exec(output);
      if (found) resolvePromise({ url: found[1].replace(/\/$/, ""), pid: child.pid });
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${output}`)));
  });
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

// ---- Requests ------------------------------------------------------------------------------------

const query = (path) => encodeURIComponent(path);
const urlPath = (path) => path.split("/").map(encodeURIComponent).join("/");
const searchBody = (text) => JSON.stringify({ query: text, opts: { limit: SEARCH_LIMIT } });

function workloads(size) {
  return [
    {
      name: "stat",
      paths: size.files,
      forage: (path) => ({ method: "GET", path: `/afi/stat?path=${query(path)}` }),
      static: (path) => ({ method: "GET", path: urlPath(path), headers: { range: "bytes=0-0" } }),
    },
    {
      name: "read",
      paths: size.files,
      forage: (path) => ({ method: "GET", path: `/afi/read?path=${query(path)}` }),
      static: (path) => ({ method: "GET", path: urlPath(path) }),
    },
    {
      name: "list",
      paths: size.directories,
      forage: (path) => ({ method: "GET", path: `/afi/list?path=${query(path)}` }),
      static: (path) => ({ method: "GET", path: `${urlPath(path)}/`, headers: { accept: "application/json" } }),
    },
    {
      name: `search: first ${SEARCH_LIMIT} matches of "${COMMON_WORD}"`,
      search: COMMON_WORD,
      grep: `grep -rnF ${COMMON_WORD} . | head -${SEARCH_LIMIT}`,
    },
    {
      name: `search: "${ABSENT_STRING}", in no file`,
      search: ABSENT_STRING,
      grep: `grep -rnF ${ABSENT_STRING} . ; true`,
    },
  ];
}

/** Every sampled path answers 2xx on both servers, and every file has the same bytes on both. */
async function verify(size, forage, statik) {
  for (const path of size.files) {
    const [a, b] = await Promise.all([
      fetch(`${forage.url}/afi/read?path=${query(path)}`),
      fetch(`${statik.url}${urlPath(path)}`),
    ]);
    const [x, y] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    if (!a.ok || !b.ok || !Buffer.from(x).equals(Buffer.from(y)))
      throw new Error(
        `${path}: forage ${a.status}, static ${b.status}, bytes equal: ${Buffer.from(x).equals(Buffer.from(y))}`,
      );
  }
  for (const path of size.directories) {
    const [a, b] = await Promise.all([
      fetch(`${forage.url}/afi/list?path=${query(path)}`),
      fetch(`${statik.url}${urlPath(path)}/`, { headers: { accept: "application/json" } }),
    ]);
    await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    if (!a.ok || !b.ok) throw new Error(`${path}/: forage list ${a.status}, static listing ${b.status}`);
  }
  log(`verified ${size.files.length} files (same bytes) and ${size.directories.length} directories on both servers`);
}

/** autocannon against one server, cycling through the workload's requests. */
async function load(url, requestFor, paths, count) {
  let next = 0;
  return measured({
    url,
    connections: count,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          const made = requestFor(paths[next++ % paths.length]);
          return { ...request, ...made, headers: { ...request.headers, ...made.headers } };
        },
      },
    ],
  });
}

/**
 * Runs autocannon and summarises it. Latency percentiles come from every response's own time
 * (stats.mjs, nearest-rank), since autocannon's histogram keeps whole milliseconds only.
 */
async function measured(options) {
  const latencies = [];
  const instance = autocannon(options);
  instance.on("response", (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  return summary(await instance, latencies);
}

function summary(result, latencies) {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(
      `non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}: ${JSON.stringify(result.statusCodeStats)}`,
    );
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    total: result.requests.total,
  };
}

/** Forage's search, POSTed one request after another (fetch, keep-alive) for the round's duration. */
function searchFor(url, text) {
  return oneAtATime(async () => {
    const answer = await fetch(`${url}/afi/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: searchBody(text),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`search ${JSON.stringify(text)}: ${answer.status}`);
  });
}

/** grep over the export, one process after another for the round's duration. */
function grepFor(command, tree) {
  return oneAtATime(async () => {
    const ran = spawnSync("sh", ["-c", command], { cwd: tree, stdio: ["ignore", "ignore", "pipe"] });
    if (ran.status !== 0) throw new Error(`${command}: exit ${ran.status} ${ran.stderr}`);
  });
}

/** Runs `action` again and again for the round's duration, at least once; a query can take longer than a round. */
async function oneAtATime(action) {
  const samples = [];
  const until = performance.now() + duration * 1_000;
  do samples.push(await timedAsync(action));
  while (performance.now() < until);
  const total = samples.reduce((sum, ms) => sum + ms, 0);
  return {
    rps: (samples.length * 1_000) / total,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    total: samples.length,
  };
}

// ---- Run -----------------------------------------------------------------------------------------

async function main() {
  log(`${operations} operations; ${rounds} rounds of ${duration} s per request and system; ${connections} connections`);
  const size = prepare();
  const forage = await start([cli, "serve", "--http", "127.0.0.1:0", size.source], /over HTTP at (http:\/\/\S+)/);
  const statik = await start([join(here, "static-server.mjs"), size.tree], /static at (http:\/\/\S+)/);
  for (const { url } of [forage, statik])
    if (!url.startsWith("http://127.0.0.1:")) throw new Error(`refusing to load ${url}: loopback only`);
  log(`forage at ${forage.url}, static at ${statik.url}`);
  await verify(size, forage, statik);
  const loadBefore = loadavg()[0];
  const results = [];
  for (const workload of workloads(size)) {
    const runs = { forage: [], static: [] };
    const systems = {
      forage: () =>
        workload.search === undefined
          ? load(forage.url, workload.forage, workload.paths, connections)
          : searchFor(forage.url, workload.search),
      static: async () =>
        workload.grep === undefined
          ? load(statik.url, workload.static, workload.paths, connections)
          : grepFor(workload.grep, size.tree),
    };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ["forage", "static"] : ["static", "forage"];
      for (const system of order) runs[system].push(await systems[system]());
      log(
        `${workload.name} round ${round + 1}: forage ${runs.forage.at(-1).rps.toFixed(0)} req/s, static ${runs.static.at(-1).rps.toFixed(0)} req/s`,
      );
    }
    results.push({ name: workload.name, grep: workload.grep, runs });
  }
  const memory = { forage: rssMb(forage.pid), static: rssMb(statik.pid) };
  const raw = join(tmpdir(), `forage-bench-http-${operations}.json`);
  writeFileSync(raw, JSON.stringify({ operations, rounds, duration, connections, memory, results }, null, 2));
  log(`raw figures: ${raw}`);
  process.stdout.write(report(size, results, memory, [loadBefore, loadavg()[0]]));
  await stopServers();
}

async function stopServers() {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once("exit", done);
          child.kill("SIGTERM");
        }),
    ),
  );
}

/** Requests a second: whole above 100, else with one decimal (a search may take a second). */
const rate = (rps) => rps.toFixed(rps >= 100 ? 0 : 1);

function report(size, results, memory, loads) {
  const rows = results.map(({ name, grep, runs }) => {
    const m = (system, key) => median(runs[system].map((run) => run[key]));
    const ratios = runs.forage.map((run, i) => run.rps / runs.static[i].rps);
    // A | inside a table cell, even in a code span, must be escaped.
    const against = grep === undefined ? "serve-handler" : `\`${grep.replace(/ ; true$/, "").replaceAll("|", "\\|")}\``;
    return `| ${name} | ${rate(m("forage", "rps"))} | ${formatMs(m("forage", "p50"))} / ${formatMs(m("forage", "p99"))} | ${against} | ${rate(m("static", "rps"))} | ${formatMs(m("static", "p50"))} / ${formatMs(m("static", "p99"))} | ${formatRatio(median(ratios), 1)} (${formatRatio(min(ratios), 1)}–${formatRatio(max(ratios), 1)}) |`;
  });
  return [
    `${operations.toLocaleString("en")} operations, ${size.fileCount.toLocaleString("en")} files in the export. ` +
      `${rounds} rounds × ${duration} s per request and system; ${connections} connections for stat, read and list, 1 for search. ` +
      `Node ${process.version}, Linux ${release()}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}; load average ${loads.map((n) => n.toFixed(2)).join(" → ")}.`,
    "",
    "| request | forage req/s | forage p50 / p99 ms | against | its req/s | its p50 / p99 ms | forage ÷ it, req/s: median of the rounds' ratios (range) |",
    "| --- | ---: | ---: | --- | ---: | ---: | ---: |",
    ...rows,
    "",
    `RSS after the run: forage ${memory.forage.toFixed(0)} MB, static server ${memory.static.toFixed(0)} MB.`,
    "",
  ].join("\n");
}

await main();
