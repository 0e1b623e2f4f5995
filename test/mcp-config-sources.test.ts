// MCP setups as clients write them, with real servers from npm and real failures:
// docs/sources.md, "MCP client configs" (each server a namespace, variables, disabled servers),
// "Failure isolation" (a failed server is named on stderr and in the mount, the rest mount),
// "Remote servers" (Streamable HTTP, the SSE fallback, OAuth refused), "Saved JSON-RPC replies",
// "What a source is" (an unrecognized source lists every kind, a missing one says so), "Bounds of
// the sources layer" (a file's size is taken before it is read), "Waiting for a server, and the
// deadline", "No child outlives forage" and "Watching" (a config file reloads).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs spell ${env:…} and ${input:…} as clients write them.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { readMcpConfig } from "../src/sources/mcp-config.js";
import { yamlTopLevelKey } from "../src/sources/yaml-top-key.js";
import {
  CLI,
  type Daemon,
  freshMountpoint,
  mountSkipReason,
  quote,
  removeMountpoint,
  sh,
  spawnDaemon,
  startDaemon,
  stopAllDaemons,
  until,
} from "./helpers/mount-daemon.js";
import { processesWith, scratchDirectories } from "./helpers/scratch.js";

const root = process.cwd();
const fixtures = join(import.meta.dirname, "fixtures", "mcp");
const everythingBin = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const filesystemBin = join(root, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const cli = `${quote(process.execPath)} ${quote(CLI)}`;
const skip = mountSkipReason();

const directory = scratchDirectories("forage-mcp-config");

const node = process.execPath;
const stdio = (bin: string, ...args: string[]) => ({ command: node, args: [bin, ...args] });
const nodeScript = (script: string, marker: string) => ({ command: node, args: ["-e", script, marker] });

function writeJson(folder: string, name: string, value: unknown): string {
  const file = join(folder, name);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

describe("a config file with mcpServers (Claude Desktop, Claude Code, Cursor)", () => {
  test("each server is a namespace by its key; a broken or exiting one is named on stderr and in the tree; a disabled one is skipped", () => {
    const work = directory("mixed");
    const tag = `forage-config-broken-${process.pid}`;
    const config = writeJson(work, ".mcp.json", {
      mcpServers: {
        everything: stdio(everythingBin),
        "file-system": stdio(filesystemBin, "/tmp"),
        garbage: nodeScript("console.log('hello, I am not JSON-RPC'); setInterval(() => {}, 1000)", tag),
        exits: nodeScript("process.exit(3)", tag),
        off: { ...stdio(everythingBin), disabled: true },
      },
    });
    const out = join(work, "tree");
    const result = sh(`${cli} export ${quote(config)} ${quote(out)}`);
    expect(result.status).toBe(0);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(["everything", "file_system", "garbage", "exits"]));
    expect(readdirSync(out)).not.toContain("off");
    expect(readdirSync(join(out, "everything"))).toContain("echo.d.ts");
    expect(readdirSync(join(out, "file_system"))).toContain("read_text_file.d.ts");
    expect(readdirSync(join(out, "garbage")).filter((name) => !name.startsWith("@"))).toEqual([]);
    expect(readFileSync(join(out, "garbage/@source.txt"), "utf8")).toMatch(
      /Kind: MCP server that failed to list its tools: the server sent something that is not MCP/,
    );
    expect(readFileSync(join(out, "exits/@source.txt"), "utf8")).toMatch(/Kind: MCP server that failed .*exited/);
    expect(result.stderr).toMatch(/forage: MCP server garbage \(\.mcp\.json\) failed, the others mount: .*not MCP/);
    expect(result.stderr).toMatch(/forage: MCP server exits \(\.mcp\.json\) failed, the others mount: .*exited/);
    expect(result.stderr).toMatch(/MCP server off is disabled there; skipped/);
    expect(processesWith(tag)).toEqual([]);
  });

  test("NAME=config puts every server under NAME; a saved JSON-RPC tools/list reply is a source too", () => {
    const work = directory("named");
    const config = writeJson(work, "claude_desktop_config.json", { mcpServers: { live: stdio(everythingBin) } });
    const saved = JSON.parse(readFileSync(join(fixtures, "filesystem.json"), "utf8"));
    const reply = writeJson(work, "reply.json", { jsonrpc: "2.0", id: 7, result: saved });
    const out = join(work, "tree");
    const result = sh(`${cli} export ${quote(`tools=${config}`)} ${quote(reply)} ${quote(out)}`);
    expect(result.status).toBe(0);
    expect(readdirSync(join(out, "tools")).filter((name) => !name.startsWith("@"))).toEqual(["live"]);
    expect(JSON.parse(readFileSync(join(out, "tools/live/echo.json"), "utf8")).path).toBe("tools.live.echo");
    expect(readdirSync(join(out, "reply"))).toContain("write_file.json");
  });
});

describe("VS Code's mcp.json (servers, inputs, variables)", () => {
  const vscodeConfig = (work: string) =>
    writeJson(work, "mcp.json", {
      inputs: [{ type: "promptString", id: "fs-root", description: "Folder the server may read" }],
      servers: {
        files: { type: "stdio", command: node, args: [filesystemBin, "${input:fs-root}"] },
        home: { type: "stdio", command: node, args: [filesystemBin, "${env:FORAGE_TEST_FS_ROOT}"] },
      },
    });

  test("${input:…} is given by FORAGE_INPUT_<ID>, ${env:…} by the environment", () => {
    const work = directory("vscode");
    const out = join(work, "tree");
    const env = "FORAGE_INPUT_FS_ROOT=/tmp FORAGE_TEST_FS_ROOT=/tmp";
    const result = sh(`${env} ${cli} export ${quote(vscodeConfig(work))} ${quote(out)}`);
    expect(result.status).toBe(0);
    expect(readdirSync(join(out, "files"))).toContain("list_directory.d.ts");
    expect(readdirSync(join(out, "home"))).toContain("list_directory.d.ts");
  });

  test("an input without a value fails that server alone, saying how to give it", () => {
    const work = directory("vscode-missing");
    const out = join(work, "tree");
    const result = sh(
      `env -u FORAGE_INPUT_FS_ROOT FORAGE_TEST_FS_ROOT=/tmp ${cli} export ${quote(vscodeConfig(work))} ${quote(out)}`,
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /MCP server files \(mcp\.json\) failed, the others mount: it needs the input "fs-root" \(Folder the server may read\), which VS Code would prompt for; set FORAGE_INPUT_FS_ROOT to give it/,
    );
    expect(readdirSync(join(out, "home"))).toContain("list_directory.d.ts");
    expect(readFileSync(join(out, "files/@source.txt"), "utf8")).toContain("FORAGE_INPUT_FS_ROOT");
  });

  test("variables resolve from the environment and the config's place (a unit of the config reader)", () => {
    process.env.FORAGE_TEST_TOKEN = "t0ken";
    try {
      const servers = readMcpConfig(
        "/work/project/.vscode/mcp.json",
        {
          servers: {
            remote: {
              type: "http",
              url: "https://example.com/mcp",
              headers: { Authorization: "Bearer ${env:FORAGE_TEST_TOKEN}" },
            },
            local: { command: "run", args: ["${workspaceFolder}/x", "${FORAGE_TEST_UNSET:-fallback}"] },
            odd: { command: "run", args: ["${command:pick}"] },
            sse: { type: "sse", url: "http://127.0.0.1:1/sse" },
          },
        },
        "servers",
      );
      expect(servers).toEqual([
        {
          key: "remote",
          state: "ready",
          target: {
            url: "https://example.com/mcp",
            transport: "streamable-http",
            headers: { Authorization: "Bearer t0ken" },
          },
        },
        { key: "local", state: "ready", target: { command: "run", args: ["/work/project/x", "fallback"] } },
        { key: "odd", state: "unusable", problem: "it uses ${command:pick}, a variable Forage does not resolve" },
        { key: "sse", state: "ready", target: { url: "http://127.0.0.1:1/sse", transport: "sse" } },
      ]);
    } finally {
      delete process.env.FORAGE_TEST_TOKEN;
    }
  });
});

/** A free loopback port: taken from the kernel, then let go for the server to take. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** server-everything over HTTP (`streamableHttp` or `sse`), resolved once it says it listens. */
async function startEverything(mode: "streamableHttp" | "sse"): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(node, [everythingBin, mode], { env: { ...process.env, PORT: String(port) }, stdio: "pipe" });
  await new Promise<void>((done, fail) => {
    let said = "";
    const check = (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port|running on port/i.test(said)) done();
    };
    child.stderr?.on("data", check);
    child.stdout?.on("data", check);
    child.on("exit", (code) => fail(new Error(`server-everything ${mode} exited (${code}): ${said}`)));
  });
  return { child, port };
}

describe("mcp:<http(s) URL>: a remote server", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill();
  });

  test("over Streamable HTTP, and over SSE by the fallback", async () => {
    const streamable = await startEverything("streamableHttp");
    const sse = await startEverything("sse");
    children.push(streamable.child, sse.child);
    const work = directory("remote");
    const out = join(work, "tree");
    const result = sh(
      `${cli} export ${quote(`http=mcp:http://127.0.0.1:${streamable.port}/mcp`)} ${quote(`sse=mcp:http://127.0.0.1:${sse.port}/sse`)} ${quote(out)}`,
    );
    expect(result.status).toBe(0);
    expect(readdirSync(join(out, "http"))).toContain("echo.d.ts");
    expect(readdirSync(join(out, "sse"))).toContain("echo.d.ts");
    expect(readFileSync(join(out, "http/@source.txt"), "utf8")).toContain(
      `Origin: mcp:http://127.0.0.1:${streamable.port}/mcp`,
    );
  });

  test("a server that cannot be reached fails with one line naming it and why", async () => {
    const source = `mcp:http://127.0.0.1:${await freePort()}/mcp`;
    const result = sh(`${cli} export ${quote(source)} ${quote(join(directory("unreachable"), "tree"))}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^forage: source ${source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: the server failed: .*ECONNREFUSED`),
    );
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("a server that asks for OAuth is refused with one line naming it", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(401, {
        "WWW-Authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
      });
      response.end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as { port: number };
    try {
      const source = `mcp:http://127.0.0.1:${port}/mcp`;
      const result = await new Promise<{ status: number | null; stderr: string }>((done) => {
        const child = spawn(node, [CLI, "export", source, join(directory("oauth"), "tree")], { stdio: "pipe" });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("exit", (status) => done({ status, stderr }));
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `forage: source ${source}: the server asks for OAuth sign-in (HTTP 401), which Forage does not do (unsupported)\n`,
      );
    } finally {
      server.close();
    }
  });
});

describe("sources Forage does not read", () => {
  test("an unrecognized file's error lists every kind Forage accepts", () => {
    const work = directory("unknown");
    const file = writeJson(work, "settings.json", { editor: { fontSize: 12 } });
    const result = sh(`${cli} export ${quote(file)} ${quote(join(work, "tree"))}`);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    for (const kind of [
      "module",
      "OpenAPI",
      "catalog file",
      "tools/list",
      "JSON-RPC",
      "folder",
      "mcpServers",
      "servers",
      "mcp:<command line>",
      "mcp:<http(s) URL>",
    ])
      expect(result.stderr).toContain(kind);
  });

  test("a YAML spec is known by its top-level openapi key without composing it (a unit of detection)", () => {
    const names = ["openapi", "swagger"];
    expect(yamlTopLevelKey("# a spec\nopenapi: 3.1.0\ninfo: {}\n", names)).toBe("openapi");
    expect(yamlTopLevelKey('---\n"swagger": "2.0"\n', names)).toBe("swagger");
    expect(yamlTopLevelKey("info:\n  openapi: nested\ntools: []\n", names)).toBeUndefined();
    expect(yamlTopLevelKey("description: |\n  openapi: inside a block scalar\n", names)).toBeUndefined();
    expect(yamlTopLevelKey("{ openapi: 3.0.0 }\n", names)).toBeUndefined();
  });

  test("a file over the sources layer's bound is refused by its size, before it is read", () => {
    const work = directory("huge");
    const file = join(work, "huge.json");
    // Sparse: 65 MiB on paper, nothing on disk, and never read.
    sh(`truncate -s 65M ${quote(file)}`);
    const result = sh(`${cli} export ${quote(file)} ${quote(join(work, "tree"))}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `forage: source ${file}: the file is 68157440 bytes; sources are read up to 67108864 bytes (64 MiB)\n`,
    );
  });

  test("a missing source names its path and says there is no such file", () => {
    const result = sh(`${cli} export /nonexistent/forage.mcp.json ${quote(join(directory("missing"), "tree"))}`);
    expect(result.stderr).toBe("forage: cannot read source /nonexistent/forage.mcp.json: no such file (ENOENT)\n");
  });
});

describe("a slow server: a note while waiting, and no child left when forage is interrupted", () => {
  test.each(["SIGINT", "SIGTERM"] as const)("%s while a server is being listed ends it", async (signal) => {
    const tag = `forage-config-slow-${signal}-${process.pid}`;
    const work = directory("slow");
    const config = writeJson(work, ".mcp.json", {
      mcpServers: { slow: nodeScript("setInterval(() => {}, 1000)", tag) },
    });
    const mnt = freshMountpoint("mcp-config-slow");
    try {
      const daemon: Daemon = spawnDaemon([CLI, "mount", config, mnt], mnt);
      await daemon.waitFor(/forage: waiting for MCP server slow \(\.mcp\.json\) to start \(\d+ s\)…/);
      expect(processesWith(tag)).toHaveLength(1);
      daemon.child.kill(signal);
      expect(await daemon.exited).toMatchObject({ signal });
      expect(await until(() => processesWith(tag).length === 0)).toBe(true);
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });
});

describe.skipIf(skip !== undefined)("forage mount --watch of a config file", () => {
  test("a server added to the config is listed and mounted under its key", async () => {
    const work = directory("watch");
    const mnt = freshMountpoint("mcp-config-watch");
    try {
      const config = writeJson(work, ".mcp.json", { mcpServers: { everything: stdio(everythingBin) } });
      const daemon = await startDaemon(["--watch", config], mnt);
      expect(sh(`ls ${quote(mnt)}`).stdout.split("\n")).toContain("everything");
      writeJson(work, ".mcp.json", {
        mcpServers: { everything: stdio(everythingBin), files: stdio(filesystemBin, "/tmp") },
      });
      await daemon.waitFor(/forage: reloaded \d+ operations/, 120_000);
      expect(sh(`ls ${quote(join(mnt, "files"))}`).stdout).toContain("read_text_file.d.ts");
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });
});
