#!/usr/bin/env node
// Builds the ~500-tool catalog: a folder of MCP tools/list results, one `<server>.json` per
// real npm MCP server. Each pinned server (servers.json) is installed into a cache folder,
// started over stdio with the official SDK client, asked for initialize + tools/list (every
// page), and stopped. No tool is ever called. Servers that fail to install or start are
// skipped and recorded in the manifest, written next to the folder as `<out>.manifest.json`
// (beside it, not in it, so a folder mount never takes it for a server).
//
// Usage: node scripts/bench/agent/fetch-catalog.mjs <out-dir> [--cache DIR] [--timeout MS] [--only a,b]

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const MAX_PAGES = 100;
const INSTALL_PARALLEL = 3;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cache: { type: "string", default: join(tmpdir(), "forage-agent-bench-servers") },
    timeout: { type: "string", default: "60000" },
    only: { type: "string" },
  },
});
if (positionals.length !== 1) {
  console.error("usage: fetch-catalog.mjs <out-dir> [--cache DIR] [--timeout MS] [--only a,b]");
  process.exit(2);
}
const out = resolve(positionals[0]);
const cache = resolve(values.cache);
const timeoutMs = Number(values.timeout);
const only = values.only === undefined ? undefined : new Set(values.only.split(","));
const pinned = JSON.parse(readFileSync(join(here, "servers.json"), "utf8")).servers.filter(
  (entry) => only === undefined || only.has(entry.server),
);

mkdirSync(out, { recursive: true });
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), "forage-agent-bench-"));

const installs = await inBatches(pinned, INSTALL_PARALLEL, install);
const results = [];
for (const [index, entry] of pinned.entries()) {
  const installed = installs[index];
  const result = installed.error === undefined ? await listServer(entry, installed.bin) : installed;
  results.push({ server: entry.server, package: entry.package, version: entry.version, ...result });
  const note = result.error === undefined ? `${result.tools} tools` : `SKIPPED: ${result.error}`;
  console.error(`${entry.server.padEnd(24)} ${note}`);
}
rmSync(scratch, { recursive: true, force: true });

const listed = results.filter((result) => result.error === undefined);
const manifest = {
  built: new Date().toISOString(),
  script: "scripts/bench/agent/fetch-catalog.mjs",
  sdk: sdkVersion(),
  node: process.version,
  servers: listed.length,
  tools: listed.reduce((sum, result) => sum + result.tools, 0),
  skipped: results.filter((result) => result.error !== undefined),
  listed,
};
writeFileSync(join(dirname(out), `${basename(out)}.manifest.json`), `${JSON.stringify(manifest, null, 2)}\n`);
console.error(`${manifest.tools} tools from ${manifest.servers} servers; ${manifest.skipped.length} skipped`);

/** Installs one pinned package into its own prefix (no install scripts: nothing downloads a browser) and finds its bin. */
async function install(entry) {
  const prefix = join(cache, `${entry.server}-${entry.version}`);
  const spec = `${entry.package}@${entry.version}`;
  try {
    mkdirSync(prefix, { recursive: true });
    const manifestPath = join(prefix, "node_modules", entry.package, "package.json");
    if (!exists(manifestPath)) {
      await run("npm", ["install", "--prefix", prefix, "--ignore-scripts", "--no-audit", "--no-fund", spec], {
        timeout: 600_000,
        maxBuffer: 16 * 1024 * 1024,
      });
    }
    const bin = binOf(JSON.parse(readFileSync(manifestPath, "utf8")), entry.bin);
    if (bin === undefined) return { error: `${spec} declares no bin` };
    return { bin: join(dirname(manifestPath), bin) };
  } catch (error) {
    return { error: `install failed: ${firstLine(error)}` };
  }
}

/** Starts a server, lists every page of its tools, and stops it; a server that hangs is cut off at the timeout. */
async function listServer(entry, bin) {
  const fill = (text) => text.replaceAll("{tmp}", scratch);
  for (const [path, content] of Object.entries(entry.files ?? {})) {
    mkdirSync(dirname(fill(path)), { recursive: true });
    writeFileSync(fill(path), typeof content === "string" ? content : JSON.stringify(content));
  }
  const env = { ...getDefaultEnvironment(), HOME: scratch };
  for (const [key, value] of Object.entries(entry.env ?? {})) env[key] = fill(value);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...(entry.args ?? []).map(fill)],
    env,
    cwd: scratch,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const client = new Client({ name: "forage-agent-bench", version: "0.1.0" });
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no tools/list answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const tools = await Promise.race([listAll(client, transport), deadline]);
    const names = new Set(tools.map((tool) => tool.name));
    if (names.size !== tools.length) return { error: "duplicate tool names" };
    if (tools.length === 0) return { error: "listed no tools" };
    writeFileSync(join(out, `${entry.server}.json`), `${JSON.stringify({ tools }, null, 2)}\n`);
    return { tools: tools.length, serverInfo: client.getServerVersion() };
  } catch (error) {
    const tail = stderr
      .trim()
      .split("\n")
      .slice(-2)
      .join(" | ")
      .replaceAll(cache, "<cache>")
      .replaceAll(scratch, "<tmp>");
    return { error: `${firstLine(error)}${tail === "" ? "" : ` (stderr: ${tail.slice(0, 300)})`}` };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
}

/** initialize, then tools/list following nextCursor. */
async function listAll(client, transport) {
  await client.connect(transport);
  const tools = [];
  let cursor;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") return tools;
  }
  throw new Error(`more than ${MAX_PAGES} pages of tools`);
}

/** The bin script a package runs: the named one, else its only or first one. */
function binOf(packageJson, wanted) {
  const { bin } = packageJson;
  if (typeof bin === "string") return bin;
  if (bin === undefined || bin === null) return undefined;
  return wanted === undefined ? Object.values(bin)[0] : bin[wanted];
}

/** Runs `work` over `items`, at most `width` at once, keeping order. */
async function inBatches(items, width, work) {
  const results = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

function sdkVersion() {
  const require = (path) => JSON.parse(readFileSync(path, "utf8"));
  const root = join(here, "..", "..", "..", "node_modules", "@modelcontextprotocol", "sdk", "package.json");
  return exists(root) ? require(root).version : "unknown";
}

function exists(path) {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

/** An error's message on one line (a validation error's JSON included), cut short. */
function firstLine(error) {
  return String(error instanceof Error ? error.message : error)
    .replace(/\s+/g, " ")
    .slice(0, 300);
}
