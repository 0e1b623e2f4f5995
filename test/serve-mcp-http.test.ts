// docs/afi.md, "MCP over HTTP": `forage serve --mcp --http` as a real process, driven by the SDK's own
// Client over its Streamable HTTP client transport, and asked by fetch where a client would not go.
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServeProcess, startServe, stopServe } from "./helpers/serve-process.js";

let served: ServeProcess;
let url: URL;

beforeAll(async () => {
  served = await startServe(["--mcp", "--http", "127.0.0.1:0", "--example"]);
  url = new URL(served.url);
});

afterAll(async () => {
  await stopServe(served);
});

async function connect(): Promise<Client> {
  const client = new Client({ name: "forage-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

/** A raw POST of an initialize request with the given Host header (fetch may not set Host). */
function initializeWithHost(host: string, path = url.pathname): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: { ...JSON_HEADERS, Host: host },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on("error", reject);
    sent.end(INITIALIZE);
  });
}

describe("the MCP server over Streamable HTTP", () => {
  test("it is served at /mcp on the loopback address", () => {
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.pathname).toBe("/mcp");
  });

  test("tools/list offers the same afi.* and forage.* tools as over stdio", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "afi.list",
      "afi.manifest",
      "afi.read",
      "afi.search",
      "afi.stat",
      "forage.describe",
      "forage.list",
      "forage.search",
    ]);
    await client.close();
  });

  test("afi.read answers a file's bytes in base64 with its content type", async () => {
    const client = await connect();
    const read = await call(client, "afi.read", { path: "/computers/local/files/read.d.ts" });
    expect(read.isError).toBeFalsy();
    const { bytes, content_type, eof } = read.structuredContent as {
      bytes: string;
      content_type: string;
      eof: boolean;
    };
    expect(content_type).toBe("application/typescript");
    expect(eof).toBe(true);
    expect(Buffer.from(bytes, "base64").toString("utf8")).toContain("export");
    const missing = await call(client, "afi.read", { path: "/no/such/file" });
    expect(missing.isError).toBe(true);
    expect(JSON.parse((missing.content[0] as { text: string }).text)).toMatchObject({ code: "not_found" });
    await client.close();
  });

  test("forage.search ranks operations, best first", async () => {
    const client = await connect();
    const found = await call(client, "forage.search", { query: "read a file", limit: 3 });
    const { results } = found.structuredContent as { results: { path: string }[] };
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]?.path).toBe("computers.local.files.read");
    await client.close();
  });

  test("two clients hold two sessions at once", async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    const stats = await Promise.all([first, second].map((client) => call(client, "afi.stat", { path: "/" })));
    for (const stat of stats) expect(stat.structuredContent).toMatchObject({ type: "directory" });
    await Promise.all([first.close(), second.close()]);
  });

  test.each([
    ["a foreign Host header (DNS rebinding)", "evil.example", undefined, 403],
    ["another path than /mcp", "127.0.0.1", "/afi/stat", 404],
    ["localhost by name", "localhost", undefined, 200],
  ])("%s: %s answers %i", async (_what, host, path, status) => {
    expect(await initializeWithHost(host, path)).toBe(status);
  });

  test("a terminated session is gone: its id then answers 404", async () => {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: "forage-test", version: "0" });
    await client.connect(transport);
    const id = transport.sessionId as string;
    await transport.terminateSession();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    const gone = await fetch(url, { method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": id }, body });
    expect(gone.status).toBe(404);
    await client.close();
  });

  test("at most 64 sessions are open: a 65th closes the oldest, whose id then answers 404", async () => {
    const opened: string[] = [];
    for (let i = 0; i < 65; i++) {
      const answer = await fetch(url, { method: "POST", headers: JSON_HEADERS, body: INITIALIZE });
      await answer.text();
      opened.push(answer.headers.get("mcp-session-id") as string);
    }
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const ask = (id: string) =>
      fetch(url, { method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": id }, body: list });
    const [oldest, newest] = await Promise.all([ask(opened[0] as string), ask(opened[64] as string)]);
    await Promise.all([oldest.text(), newest.text()]);
    expect([oldest.status, newest.status]).toEqual([404, 200]);
  });

  test("a body over 1 MiB is 413, before anything is parsed", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(1 << 20) } });
    const answer = await fetch(url, { method: "POST", headers: JSON_HEADERS, body });
    expect(answer.status).toBe(413);
  });

  test("a request naming an unknown session is 404; one with no session that is not initialize is 400", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unknown = await fetch(url, { method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": "nope" }, body });
    expect(unknown.status).toBe(404);
    const bare = await fetch(url, { method: "POST", headers: JSON_HEADERS, body });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
  });
});
