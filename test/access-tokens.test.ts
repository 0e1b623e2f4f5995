// docs/afi.md, "Tokens": --tokens over HTTP (fetch, and curl once), MCP (the SDK's client against a real
// `forage serve --mcp`) and FUSE (a real mount, asked with ls, cat and grep) shows each token the same
// view: one table of (token, path, visible?) cases for all three, then the unauthorized answers.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  CLI,
  type Daemon,
  freshMountpoint,
  mountSkipReason,
  removeMountpoint,
  sh,
  spawnDaemon,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";
import { type ServeProcess, startServe, stopServe } from "./helpers/serve-process.js";
import {
  type AccessProbe,
  expectTableCloaking,
  TOKENS,
  type TokenName,
  UNKNOWN_TOKEN,
  writeTokenFile,
  writeTokensFile,
} from "./helpers/token-cases.js";

const run = promisify(execFile);
const NAMES = Object.keys(TOKENS) as TokenName[];

let directory: string;
let tokensFile: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "forage-tokens-"));
  tokensFile = writeTokensFile(directory);
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** The operation paths of a ranked results.json. */
function rankedPaths(text: string): string[] {
  return (JSON.parse(text) as { results: { path: string }[] }).results.map((result) => result.path);
}

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const rankedFile = (query: string): string => `/.search/${query}/results.json`;

/** Starts `forage serve --http 127.0.0.1:0 --tokens <the table's file> ...`, kept in `started` for stopping. */
async function serveHttp(started: ServeProcess[], extra: readonly string[]): Promise<string> {
  const served = await startServe(["--http", "127.0.0.1:0", "--tokens", tokensFile, ...extra, "--example"]);
  started.push(served);
  return served.url;
}

describe("HTTP", () => {
  const children: ServeProcess[] = [];
  let url: string;
  beforeAll(async () => {
    url = await serveHttp(children, []);
  });
  afterAll(async () => {
    for (const served of children) await stopServe(served);
  });

  const get = (path: string, authorization?: string, init: RequestInit = {}): Promise<Response> =>
    fetch(new URL(path, url), {
      ...init,
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });

  function probe(name: TokenName): AccessProbe {
    const bearer = `Bearer ${TOKENS[name].token}`;
    const query = (path: string) => encodeURIComponent(path);
    const answer = async (response: Response): Promise<unknown> => {
      if (response.status === 404) {
        expect(await response.json()).toMatchObject({ code: "not_found" });
        return undefined;
      }
      expect(response.status).toBe(200);
      return response.json();
    };
    return {
      exists: async (path) => (await answer(await get(`/afi/stat?path=${query(path)}`, bearer))) !== undefined,
      names: async (path) => {
        const page = (await answer(await get(`/afi/list?path=${query(path)}`, bearer))) as
          | { entries: { path: string }[] }
          | undefined;
        return page?.entries.map((entry) => baseName(entry.path));
      },
      searchFiles: async (text) => {
        const body = JSON.stringify({ query: text, opts: { limit: 1000 } });
        const response = await get("/afi/search", bearer, { method: "POST", body });
        const { matches } = (await answer(response)) as { matches: { path: string }[] };
        return [...new Set(matches.map((match) => match.path))];
      },
      ranked: async (text) =>
        rankedPaths(await (await get(`/afi/read?path=${query(rankedFile(text))}`, bearer)).text()),
      read: async (path) => (await get(`/afi/read?path=${query(path)}`, bearer)).text(),
    };
  }

  test.each(NAMES)("the table's cloaking for %s", async (name) => {
    await expectTableCloaking(probe(name), name);
  });

  test("curl sends the token: a path in its view is read, one outside is not_found", async () => {
    const header = `Authorization: Bearer ${TOKENS.bob.token}`;
    const base = `${url}afi/read?path=`;
    const { stdout } = await run("curl", ["-s", "-H", header, `${base}%2Fmail%2Fmessages%2Fsend.d.ts`]);
    expect(stdout).toContain("mail.messages.send");
    const hidden = await run("curl", ["-s", "-w", "\\n%{http_code}", "-H", header, `${base}%2Fcomputers`]);
    const [body, status] = hidden.stdout.split("\n");
    expect(status).toBe("404");
    expect(JSON.parse(body as string)).toMatchObject({ code: "not_found", path: "/computers" });
  });

  test.each([
    ["no Authorization header", undefined, 'Bearer realm="forage"', "missing_token"],
    ["an unknown token", `Bearer ${UNKNOWN_TOKEN}`, 'Bearer realm="forage", error="invalid_token"', "invalid_token"],
    ["another scheme", `Basic ${Buffer.from("a:b").toString("base64")}`, 'error="invalid_token"', "invalid_token"],
    ["a granted token with extra text", `Bearer ${TOKENS.alice.token} x`, 'error="invalid_token"', "invalid_token"],
  ])(
    "%s is 401 unauthorized with WWW-Authenticate, on every operation",
    async (_, authorization, challenge, reason) => {
      const requests: [string, RequestInit][] = [
        ["/afi/stat?path=/", {}],
        ["/afi/list?path=/", {}],
        ["/afi/read?path=/README.md", {}],
        ["/afi/search", { method: "POST", body: JSON.stringify({ query: "read" }) }],
      ];
      for (const [path, init] of requests) {
        const response = await get(path, authorization, init);
        expect(response.status, path).toBe(401);
        expect(response.headers.get("www-authenticate"), path).toContain(challenge);
        expect(await response.json(), path).toMatchObject({ code: "unauthorized", "x-forage-reason": reason });
      }
    },
  );

  test("the manifest needs no token and says bearer auth is required, without any view's facts", async () => {
    const response = await get("/.afi/manifest.json");
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ profile: 2, auth: { required: true, methods: ["bearer"] } });
    expect(Object.keys(manifest).filter((key) => key.startsWith("x-forage-"))).toEqual([]);
    const badToken = await get("/.afi/manifest.json", `Bearer ${UNKNOWN_TOKEN}`);
    expect(badToken.status).toBe(200);
    expect(await badToken.json()).toEqual(manifest);
    const own = (await (await get("/.afi/manifest.json", `Bearer ${TOKENS.alice.token}`)).json()) as object;
    expect(own).toMatchObject({ auth: { required: true, methods: ["bearer"] }, "x-forage-operations": 5 });
  });

  test("a CORS preflight needs no token, and the rate limit applies before the token is checked", async () => {
    const limited = await serveHttp(children, ["--cors", "*", "--rate", "1/s"]);
    const preflight = await fetch(new URL("/afi/stat?path=/", limited), {
      method: "OPTIONS",
      headers: { Origin: "https://app.example.com", "Access-Control-Request-Headers": "authorization" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const guess = await fetch(new URL("/afi/stat?path=/", limited), {
        headers: { Authorization: `Bearer ${UNKNOWN_TOKEN}${attempt}` },
      });
      statuses.push(guess.status);
    }
    expect(statuses[0]).toBe(401);
    expect(statuses.slice(1)).toContain(429);
  });
});

describe("MCP", () => {
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  async function connect(options: readonly string[]): Promise<Client> {
    const client = new Client({ name: "forage-tokens-test", version: "0" });
    const args = [CLI, "serve", "--mcp", "--tokens", tokensFile, ...options, "--example"];
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" }));
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** The structured content of a success, or undefined for a not_found tool error. */
  async function answer(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
    const result = await call(client, name, args);
    if (result.isError !== true) return result.structuredContent;
    expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ code: "not_found" });
    return undefined;
  }

  function probe(client: Client): AccessProbe {
    const read = async (path: string): Promise<string> => {
      const { bytes } = (await answer(client, "afi.read", { path })) as { bytes: string };
      return Buffer.from(bytes, "base64").toString("utf8");
    };
    return {
      exists: async (path) => (await answer(client, "afi.stat", { path })) !== undefined,
      names: async (path) => {
        const page = (await answer(client, "afi.list", { path })) as { entries: { path: string }[] } | undefined;
        return page?.entries.map((entry) => baseName(entry.path));
      },
      searchFiles: async (text) => {
        const { matches } = (await answer(client, "afi.search", { query: text, limit: 1000 })) as {
          matches: { path: string }[];
        };
        return [...new Set(matches.map((match) => match.path))];
      },
      // The ranked directory and forage.search are one search: both must agree.
      ranked: async (text) => {
        const fromTree = rankedPaths(await read(rankedFile(text)));
        const tool = (await answer(client, "forage.search", { query: text, limit: 50 })) as {
          results: { path: string }[];
        };
        expect(tool.results.map((result) => result.path)).toEqual(fromTree);
        return fromTree;
      },
      read,
    };
  }

  test.each(NAMES)("the table's cloaking for %s, the token given by -o token=FILE", async (name) => {
    const client = await connect(["-o", `token=${writeTokenFile(directory, name, TOKENS[name].token)}`]);
    await expectTableCloaking(probe(client), name);
    const manifest = (await call(client, "afi.manifest", {})).structuredContent;
    expect(manifest).toMatchObject({ auth: { required: true, methods: ["bearer"] } });
  });

  test.each([
    ["without -o token=FILE", [], "missing_token"],
    ["with a token the file does not grant", ["unknown"], "invalid_token"],
  ])("%s every tool but afi.manifest is unauthorized", async (_, token, reason) => {
    const options = token.length === 0 ? [] : ["-o", `token=${writeTokenFile(directory, "unknown", UNKNOWN_TOKEN)}`];
    const client = await connect(options);
    const manifest = (await call(client, "afi.manifest", {})).structuredContent as Record<string, unknown>;
    expect(manifest).toMatchObject({ auth: { required: true, methods: ["bearer"] } });
    expect(Object.keys(manifest).filter((key) => key.startsWith("x-forage-"))).toEqual([]);
    const calls: [string, Record<string, unknown>][] = [
      ["afi.stat", { path: "/" }],
      ["afi.list", { path: "/" }],
      ["afi.read", { path: "/.afi/manifest.json" }],
      ["afi.search", { query: "read" }],
      ["forage.search", { query: "read a file" }],
      ["forage.list", {}],
      ["forage.describe", { path: "" }],
    ];
    for (const [name, args] of calls) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      const payload = JSON.parse((result.content[0] as { text: string }).text);
      expect(payload, name).toMatchObject({ code: "unauthorized", "x-forage-reason": reason });
    }
  });
});

const skip = mountSkipReason();
if (skip !== undefined) console.warn(`FUSE token tests skipped: ${skip}`);

describe.skipIf(skip !== undefined)("FUSE", () => {
  const mounts = new Map<TokenName, Daemon>();
  beforeAll(async () => {
    await Promise.all(
      NAMES.map(async (name) => {
        const token = writeTokenFile(directory, `fuse-${name}`, TOKENS[name].token);
        const args = ["--tokens", tokensFile, "-o", `token=${token}`, "--example"];
        mounts.set(name, await startDaemon(args, freshMountpoint(`tokens-${name}`)));
      }),
    );
  });
  afterAll(async () => {
    await stopAllDaemons();
    for (const daemon of mounts.values()) removeMountpoint(daemon.mountpoint);
  });

  /** A shell command's stdout; ENOENT (ls's "No such file or directory") is undefined; any other failure throws. */
  function shell(command: string, cwd: string): string | undefined {
    const result = sh(command, cwd);
    if (result.status === 0) return result.stdout;
    if (/No such file or directory/.test(result.stderr)) return undefined;
    throw new Error(`${command}: exit ${result.status}: ${result.stderr}`);
  }

  const quoted = (path: string): string => `'.${path.replace(/'/g, "'\\''")}'`;

  function probe(mountpoint: string): AccessProbe {
    const lines = (text: string | undefined): string[] | undefined => text?.split("\n").filter(Boolean);
    return {
      exists: async (path) => shell(`ls -d ${quoted(path)}`, mountpoint) !== undefined,
      names: async (path) => lines(shell(`ls -A ${quoted(path)}`, mountpoint)),
      searchFiles: async (text) =>
        (lines(shell(`grep -rlF '${text}' . || true`, mountpoint)) ?? []).map((file) => file.slice(1)),
      // `ls` of a query directory: its symlinks are NN-<operation path>.d.ts, in rank order.
      ranked: async (text) =>
        (lines(shell(`ls ${quoted(`/.search/${text}`)}`, mountpoint)) ?? [])
          .filter((name) => name.endsWith(".d.ts"))
          .map((name) => name.replace(/^\d+-/, "").slice(0, -".d.ts".length)),
      read: async (path) => shell(`cat ${quoted(path)}`, mountpoint) ?? "",
    };
  }

  test.each(NAMES)("the table's cloaking for %s, the token given by -o token=FILE", async (name) => {
    const daemon = mounts.get(name) as Daemon;
    await expectTableCloaking(probe(daemon.mountpoint), name);
    const manifest = JSON.parse(sh("cat .afi/manifest.json", daemon.mountpoint).stdout);
    expect(manifest).toMatchObject({ auth: { required: true, methods: ["bearer"] } });
  });

  test.each([
    ["a token the file does not grant", "unknown", /the token in .*unknown\.token is not granted by tokens file/],
    ["no -o token=FILE", undefined, /--tokens on a mount needs -o token=FILE/],
  ])("%s: the mount refuses to start (exit 2) and nothing is mounted", async (_, token, message) => {
    const mountpoint = freshMountpoint("tokens-refused");
    const options = token === undefined ? [] : ["-o", `token=${writeTokenFile(directory, token, UNKNOWN_TOKEN)}`];
    const daemon = spawnDaemon([CLI, "mount", "--tokens", tokensFile, ...options, "--example", mountpoint], mountpoint);
    const { code } = await daemon.exited;
    expect(code).toBe(2);
    expect(daemon.stderr()).toMatch(message);
    expect(sh(`grep -c ' ${mountpoint} ' /proc/mounts || true`).stdout.trim()).toBe("0");
    removeMountpoint(mountpoint);
  });
});
