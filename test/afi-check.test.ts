// docs/afi.md, "Conformance kit": `forage afi-check` as a real process against Forage over FUSE, HTTP and MCP
// (profile 2 on each), and against deliberately broken providers: a proxy in front of a real
// `forage serve --http` that breaks one law, one that never answers, and a port nobody listens on.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GROUPS } from "../src/afi-check/scenario.js";
import { SCENARIOS } from "../src/afi-check/scenario-table.js";
import {
  CLI,
  freshMountpoint,
  mountSkipReason,
  removeMountpoint,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";
import { type ServeProcess, startServe, stopServe } from "./helpers/serve-process.js";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `forage afi-check <args>` as its own process; never a synchronous spawn, since the providers below live in
 * this one. Unless a test sets it, the kit's --timeout is 30 s: a guard against a hung provider only, which a
 * busy machine's slow answers (an MCP server's start above all) never reach. The process itself is killed
 * after 110 s, a guard below vitest's 120 s per test.
 */
function afiCheck(args: readonly string[]): Promise<Run> {
  const timeout = args.includes("--timeout") ? [] : ["--timeout", "30"];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, "afi-check", ...args, ...timeout],
      { timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface JsonRow {
  readonly id: string;
  readonly status: string;
  readonly reason?: string;
  readonly evidence?: { sent: string; got: string };
}

/** The ids of the scenarios with `status` in a --json report. */
function ids(run: Run, status: string): string[] {
  return (JSON.parse(run.stdout) as { results: JsonRow[] }).results
    .filter((row) => row.status === status)
    .map((row) => row.id);
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function close(server: Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** What a broken proxy may change: the upstream answer of one request, as status and body. */
type Breakage = (
  request: { method: string; path: string; body: string },
  answer: { status: number; body: string },
) => { status: number; body: string } | undefined;

/** A provider that is Forage's HTTP server in every answer but those `breakage` rewrites. */
function brokenProxy(upstream: string, breakage: Breakage): Promise<Server> {
  return listen(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = request.method ?? "GET";
    const forwarded = await fetch(new URL(request.url ?? "/", upstream), {
      method,
      ...(method === "POST" ? { body } : {}),
      headers: request.headers.range === undefined ? {} : { range: request.headers.range },
    });
    const bytes = Buffer.from(await forwarded.arrayBuffer());
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "content-range", "accept-ranges", "x-afi-eof"]) {
      const value = forwarded.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const changed = breakage(
      { method, path: request.url ?? "/", body },
      { status: forwarded.status, body: bytes.toString("utf8") },
    );
    if (changed === undefined) {
      response.writeHead(forwarded.status, headers).end(bytes);
      return;
    }
    response.writeHead(changed.status, { "content-type": "application/json" }).end(changed.body);
  });
}

test("the table: every group has scenarios, ids are <group>-NN, unique and in order", () => {
  const prefixes: Record<string, string> = {
    Discovery: "discovery",
    "Path model": "path",
    "stat / list": "statlist",
    read: "read",
    search: "search",
    "Access control": "access",
    Errors: "errors",
  };
  for (const group of GROUPS) {
    const ids = SCENARIOS.filter((scenario) => scenario.group === group).map((scenario) => scenario.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(ids.map((_id, index) => `${prefixes[group]}-${String(index + 1).padStart(2, "0")}`));
  }
  expect(SCENARIOS.map((scenario) => scenario.group)).toEqual(
    GROUPS.flatMap((group) => SCENARIOS.filter((scenario) => scenario.group === group).map(() => group)),
  );
});

describe("Forage passes at profile 2 over HTTP and MCP", () => {
  let http: ServeProcess | undefined;
  beforeAll(async () => {
    http = await startServe(["--http", "127.0.0.1:0", "--example"]);
  });
  afterAll(async () => {
    await stopServe(http);
  });

  test("forage serve --http: the table, every group passing, exit 0", async () => {
    const run = await afiCheck([http?.url ?? ""]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("Declared profile: 2 (Search); testing 2 (Search)");
    for (const group of ["Discovery", "Path model", "stat / list", "read", "search", "Errors"])
      expect(run.stdout).toMatch(new RegExp(`^${group.replace("/", "\\/")} \\.+ \\d+/\\d+ +PASS`, "m"));
    expect(run.stdout).toContain("The provider conforms to profile 2.");
    expect(run.code).toBe(0);
  });

  test("forage serve --mcp, started by the kit: exit 0, the MCP-only scenarios ran and passed", async () => {
    const run = await afiCheck([`mcp:${process.execPath} ${CLI} serve --mcp --example`, "--json"]);
    expect(run.code).toBe(0);
    expect(ids(run, "failed")).toEqual([]);
    expect(ids(run, "warned")).toEqual([]);
    expect(ids(run, "passed")).toEqual(
      expect.arrayContaining(["discovery-07", "discovery-08", "read-07", "search-07", "statlist-04", "path-08"]),
    );
  });

  test("under -o bound=, a --hidden path is cloaked: access-02 to access-04 pass over MCP", async () => {
    const directory = mkdtempSync(join(tmpdir(), "forage-afi-check-"));
    try {
      const bound = join(directory, "bound.txt");
      writeFileSync(bound, "computers.local.files.*\n");
      const run = await afiCheck([
        `mcp:${process.execPath} ${CLI} serve --mcp -o bound=${bound} --example`,
        "--hidden",
        "/mail",
        "--hidden",
        "/computers/local/shell",
        "--json",
      ]);
      expect(run.code).toBe(0);
      expect(ids(run, "passed")).toEqual(expect.arrayContaining(["access-02", "access-03", "access-04"]));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("with --tokens over HTTP: no token is unauthorized (access-01), and a token's view cloaks the rest", async () => {
    const directory = mkdtempSync(join(tmpdir(), "forage-afi-check-"));
    let tokened: ServeProcess | undefined;
    try {
      const tokens = join(directory, "tokens.txt");
      writeFileSync(tokens, "agent-7f3c9a1e5b2d4c6f8a0b mail.**\n", { mode: 0o600 });
      tokened = await startServe(["--http", "127.0.0.1:0", "--tokens", tokens, "--example"]);
      const run = await afiCheck([
        tokened.url,
        "--token",
        "agent-7f3c9a1e5b2d4c6f8a0b",
        "--hidden",
        "/weather",
        "--json",
      ]);
      expect(ids(run, "failed")).toEqual([]);
      expect(ids(run, "passed")).toEqual(expect.arrayContaining(["access-01", "access-02", "access-03", "access-04"]));
      expect(run.code).toBe(0);
    } finally {
      await stopServe(tokened);
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test("--profile 1 tests profile 1: search is skipped as not declared", async () => {
    const run = await afiCheck([http?.url ?? "", "--profile", "1", "--json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { testedProfile: number; results: JsonRow[] };
    expect(report.testedProfile).toBe(1);
    const search = report.results.filter((row) => row.id.startsWith("search-"));
    expect(search.every((row) => row.status === "skipped" && row.reason?.startsWith("not declared"))).toBe(true);
  });
});

const skip = mountSkipReason();
if (skip !== undefined) console.log(`afi-check over FUSE skipped: ${skip}`);

describe.skipIf(skip !== undefined)("Forage passes at profile 2 over FUSE", () => {
  let mnt: string;
  beforeAll(async () => {
    mnt = freshMountpoint("afi-check");
    await startDaemon(["--example"], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
  });

  test("forage mount --example: exit 0; what FUSE cannot express is skipped, saying so", async () => {
    const run = await afiCheck([mnt, "--json"]);
    expect(run.code).toBe(0);
    expect(ids(run, "failed")).toEqual([]);
    expect(ids(run, "passed")).toEqual(expect.arrayContaining(["search-01", "search-04", "read-05", "path-04"]));
    const rows = (JSON.parse(run.stdout) as { results: JsonRow[] }).results;
    expect(rows.find((row) => row.id === "statlist-04")?.reason).toMatch(/^not over FUSE: /);
  });
});

describe("broken providers fail, naming the scenario", () => {
  let upstream: ServeProcess | undefined;
  const servers: Server[] = [];
  beforeAll(async () => {
    upstream = await startServe(["--http", "127.0.0.1:0", "--example"]);
  });
  afterAll(async () => {
    for (const server of servers) await close(server);
    await stopServe(upstream);
  });

  async function proxy(breakage: Breakage): Promise<string> {
    const server = await brokenProxy(upstream?.url ?? "", breakage);
    servers.push(server);
    return urlOf(server);
  }

  test("an invalid regex answered as internal fails search-04 alone, with its evidence", async () => {
    const url = await proxy(({ path }, answer) =>
      path === "/afi/search" && answer.body.includes('"invalid_path"')
        ? { status: 500, body: JSON.stringify({ code: "internal", message: "regex engine crashed" }) }
        : undefined,
    );
    const run = await afiCheck([url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^search \.+ \d+\/\d+ +FAIL/m);
    expect(run.stdout).toMatch(
      /^ {2}✗ search-04 with regex declared, an invalid regex is invalid_path: expected invalid_path, got internal; sent POST \/afi\/search \{"query":\{"regex":"\(unclosed"\}.*got 500 \{"code":"internal"/m,
    );
    expect(run.stdout).toContain("The provider does NOT conform to profile 2.");
    expect(run.stdout.split("\n").filter((line) => line.startsWith("  ✗ "))).toHaveLength(1);
  });

  test("a manifest claiming profile 2 without search fails discovery-03; the file it no longer equals, discovery-06; the search it still answers, discovery-09", async () => {
    const url = await proxy(({ path }, answer) => {
      if (path !== "/.afi/manifest.json") return undefined;
      const manifest = JSON.parse(answer.body) as { capabilities: string[] };
      manifest.capabilities = ["stat", "list", "read"];
      return { status: 200, body: JSON.stringify(manifest) };
    });
    const run = await afiCheck([url, "--json"]);
    expect(run.code).toBe(1);
    expect(ids(run, "failed")).toEqual(["discovery-03", "discovery-06", "discovery-09"]);
  });

  test("not_found as a bare string with status 500 fails errors-01 and the scenarios expecting not_found", async () => {
    const url = await proxy((_request, answer) =>
      answer.body.includes('"not_found"') ? { status: 500, body: '"no such path"' } : undefined,
    );
    const run = await afiCheck([url, "--json"]);
    expect(run.code).toBe(1);
    expect(ids(run, "failed")).toEqual(expect.arrayContaining(["statlist-01", "read-08", "errors-01"]));
  });

  test("a provider that answers only its manifest is bounded by --timeout and --deadline", async () => {
    const url = await proxy(() => undefined);
    let hung = 0;
    const hanging = await listen((request, response) => {
      // The manifest goes to the working proxy; every other request is left waiting.
      if (request.url !== "/.afi/manifest.json") {
        hung += 1;
        return;
      }
      response.writeHead(307, { location: new URL(request.url, url).toString() }).end();
    });
    servers.push(hanging);
    // Each hung request takes at least the timeout, and none starts after the deadline, so at most
    // deadline / timeout + 1 of them are sent: the work is bounded whatever the clock does. The timeout
    // is generous so that the manifest, the one answered request, fits it on a busy machine.
    const [timeout, deadline] = [5, 12];
    const run = await afiCheck([
      urlOf(hanging),
      "--timeout",
      String(timeout),
      "--deadline",
      String(deadline),
      "--json",
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { results: JsonRow[]; timeouts: number };
    expect(hung).toBeGreaterThan(0);
    expect(hung).toBeLessThanOrEqual(deadline / timeout + 1);
    expect(report.timeouts).toBe(hung);
    const reasons = report.results.map((row) => row.reason ?? "");
    expect(reasons.filter((reason) => reason.includes("deadline passed")).length).toBeGreaterThan(0);
  });

  test("an unreachable URL, a bad target and a bad option exit 2 with one line naming the target", async () => {
    const closed = await listen(() => undefined);
    const url = urlOf(closed);
    await close(closed);
    const unreachable = await afiCheck([url]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toBe("");
    expect(unreachable.stderr).toBe(`forage: afi-check: ${url}: the request failed: ECONNREFUSED\n`);
    const missing = await afiCheck(["/nonexistent/afi-check-mountpoint"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("/nonexistent/afi-check-mountpoint: no such directory");
    const scheme = await afiCheck(["ftp://127.0.0.1/"]);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toBe("forage: afi-check: ftp://127.0.0.1/ is not an http: or https: URL\n");
    const mcp = await afiCheck(["mcp:/nonexistent/afi-server"]);
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toMatch(/^forage: afi-check: mcp:\/nonexistent\/afi-server: the server did not start/);
    expect((await afiCheck([url, "--profile", "5"])).code).toBe(2);
  });
});
