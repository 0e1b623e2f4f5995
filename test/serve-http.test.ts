// docs/afi.md, "HTTP transport" and "Reading a symlink": `forage serve --http` as a real process,
// asked by fetch and by curl.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServeProcess, startServe, stopServe } from "./helpers/serve-process.js";

const MAIN = join(import.meta.dirname, "..", "dist", "cli", "main.js");
const run = promisify(execFile);

let server: ServeProcess;
beforeAll(async () => {
  server = await startServe(["--http", "127.0.0.1:0", "--example", "--cors", "https://app.example.com"]);
});
afterAll(async () => {
  await stopServe(server);
});

const at = (path: string): string => new URL(path, server.url).toString();

interface Page {
  readonly entries: readonly { readonly path: string; readonly size: number }[];
  readonly matches: readonly unknown[];
  readonly next_cursor: string;
  readonly size: number;
}

/** The JSON body of a GET, or of a POST of `body`, as a page of entries or matches. */
async function json(path: string, body?: unknown): Promise<Page> {
  const init = body === undefined ? {} : { method: "POST", body: JSON.stringify(body) };
  return (await (await fetch(at(path), init)).json()) as Page;
}

describe("endpoints", () => {
  test("GET / says what the server offers: the manifest, where to start, each endpoint", async () => {
    const response = await fetch(at("/"));
    expect(response.status).toBe(200);
    const index = (await response.json()) as { manifest: string; start: string; endpoints: { path: string }[] };
    expect(index.manifest).toBe("/.afi/manifest.json");
    expect((await fetch(at(index.manifest))).status).toBe(200);
    expect(await (await fetch(at(index.start))).text()).toContain("Forage catalog");
    const paths = index.endpoints.map((endpoint) => endpoint.path.split("?")[0]);
    expect(paths).toEqual(["/.afi/manifest.json", "/afi/stat", "/afi/list", "/afi/read", "/afi/search"]);
  });

  test("a ranked entry under /.search/<query>/ reads with follow=1; without it, the error names the target", async () => {
    const listing = await json(`/afi/list?path=${encodeURIComponent("/.search/read a file")}`);
    const ranked = listing.entries.find((entry) => /\/01-/.test(entry.path)) as { path: string; target?: string };
    expect(ranked.target).toMatch(/\.d\.ts$/);
    const read = await fetch(at(`/afi/read?path=${encodeURIComponent(ranked.path)}&follow=1`));
    expect(read.status).toBe(200);
    expect(read.headers.get("content-type")).toBe("application/typescript");
    expect(await read.text()).toBe(await (await fetch(at(`/afi/read?path=${ranked.target}`))).text());
    const refused = await fetch(at(`/afi/read?path=${encodeURIComponent(ranked.path)}`));
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: "invalid_path", "x-target": ranked.target });
  });

  test("GET /.afi/manifest.json is the manifest", async () => {
    const response = await fetch(at("/.afi/manifest.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ afi_version: "0.1", provider: "forage", profile: 2 });
  });

  test("GET /afi/stat and /afi/list answer JSON; list pages by cursor and filters by glob", async () => {
    const stat = await json("/afi/stat?path=%2Fcomputers%2Flocal%2Ffiles%2Fread.d.ts");
    expect(stat).toMatchObject({ type: "file", content_type: "application/typescript" });
    const page = await json("/afi/list?path=/computers/local/files&limit=2");
    expect(page.entries).toHaveLength(2);
    const next = await json(
      `/afi/list?path=/computers/local/files&limit=2&cursor=${encodeURIComponent(page.next_cursor)}`,
    );
    expect(next.entries[0]?.path).not.toBe(page.entries[1]?.path);
    const globbed = await json("/afi/list?path=/computers/local/files&glob=*.json");
    expect(globbed.entries.every((entry) => entry.path.endsWith(".json"))).toBe(true);
  });

  test("GET /afi/read returns the bytes with the content type; the whole file is 200", async () => {
    const response = await fetch(at("/afi/read?path=/computers/local/files/read.d.ts"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/typescript");
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    const text = await response.text();
    const stat = await json("/afi/stat?path=/computers/local/files/read.d.ts");
    expect(Buffer.byteLength(text)).toBe(stat.size);
  });

  test.each([
    ["bytes=0-9", 0, 10],
    ["bytes=5-", 5, undefined],
    ["bytes=-4", -4, undefined],
  ])("Range %s is 206 with Content-Range", async (range, from, length) => {
    const path = "/computers/local/files/read.d.ts";
    const whole = Buffer.from(await (await fetch(at(`/afi/read?path=${path}`))).arrayBuffer());
    const response = await fetch(at(`/afi/read?path=${path}`), { headers: { Range: range } });
    expect(response.status).toBe(206);
    const start = from < 0 ? whole.length + from : from;
    const end = length === undefined ? whole.length : start + length;
    expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end - 1}/${whole.length}`);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(whole.subarray(start, end));
  });

  test("offset and length in the query are a range too; a range past the end is 416", async () => {
    const path = "/computers/local/files/read.d.ts";
    const part = await fetch(at(`/afi/read?path=${path}&offset=2&length=3`));
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toMatch(/^bytes 2-4\/\d+$/);
    const beyond = await fetch(at(`/afi/read?path=${path}`), { headers: { Range: "bytes=999999-" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toMatch(/^bytes \*\/\d+$/);
  });

  test("POST /afi/search answers matches and pages by cursor in the body", async () => {
    const post = (body: unknown) => json("/afi/search", body);
    const all = await post({ query: "string", opts: { limit: 1_000 } });
    const first = await post({ query: "string", opts: { limit: 2 } });
    const second = await post({ query: "string", opts: { limit: 2, cursor: first.next_cursor } });
    expect([...first.matches, ...second.matches]).toEqual(all.matches.slice(0, 4));
    const regex = await post({ query: { regex: "^export\\s+type" }, opts: { path: "/computers", limit: 3 } });
    expect(regex.matches).toHaveLength(3);
  });
});

describe("errors are the JSON Error with errors.md's status", () => {
  test.each([
    ["GET", "/afi/stat?path=/nope", undefined, 404, "not_found"],
    ["GET", "/afi/stat?path=relative", undefined, 404, "invalid_path"],
    ["GET", "/afi/stat", undefined, 404, "invalid_path"],
    ["GET", "/afi/list?path=/README.md", undefined, 404, "invalid_path"],
    ["GET", "/afi/list?path=/&limit=many", undefined, 404, "invalid_path"],
    ["GET", "/afi/read?path=/computers", undefined, 404, "invalid_path"],
    ["GET", "/afi/read?path=/.afi/search", undefined, 404, "not_found"],
    ["GET", "/afi/nothing", undefined, 404, "not_found"],
    ["GET", "/afi/search", undefined, 405, "unsupported"],
    ["POST", "/afi/search", '{"query":{"semantic":"x"}}', 405, "unsupported"],
    ["POST", "/afi/search", "not json", 404, "invalid_path"],
    ["POST", "/afi/search", JSON.stringify({ query: "x".repeat(70_000) }), 404, "invalid_path"],
  ])("%s %s is %i %s", async (method, path, body, status, code) => {
    const response = await fetch(at(path), { method, ...(body === undefined ? {} : { body }) });
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ code, message: expect.any(String) });
  });
});

describe("CORS and curl", () => {
  test("a preflight from the allowed origin gets the CORS headers; another origin gets none", async () => {
    const preflight = await fetch(at("/afi/list?path=/"), {
      method: "OPTIONS",
      headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    const other = await fetch(at("/afi/stat?path=/"), { headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("curl reads a range and sees the 404 Error", async () => {
    const { stdout } = await run("curl", ["-s", "-i", "-r", "0-4", at("/afi/read?path=/README.md")]);
    expect(stdout).toMatch(/^HTTP\/1\.1 206/);
    expect(stdout).toMatch(/content-range: bytes 0-4\/\d+/i);
    const missing = await run("curl", ["-s", "-w", "\\n%{http_code}", at("/afi/stat?path=/nope")]);
    const [body, code] = missing.stdout.split("\n");
    expect(code).toBe("404");
    expect(JSON.parse(body ?? "")).toMatchObject({ code: "not_found", path: "/nope" });
  });
});

describe("rate limit", () => {
  let limited: ServeProcess | undefined;
  afterAll(async () => {
    await stopServe(limited);
  });

  test("past --rate N/s a client gets 429 with Retry-After and retry_after", async () => {
    limited = await startServe(["--http", "127.0.0.1:0", "--example", "--rate", "3/s"]);
    const url = new URL("/afi/stat?path=/", limited.url).toString();
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let index = 0; index < 6; index += 1) {
      const response = await fetch(url);
      statuses.push(response.status);
      if (response.status === 429) refused ??= response;
      else await response.arrayBuffer();
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(refused).toBeDefined();
    const retryAfter = Number(refused?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await refused?.json()).toMatchObject({ code: "rate_limited", retry_after: retryAfter });
  });
});

describe("arguments", () => {
  test("forage serve --help lists every option and exits 0", async () => {
    const { stdout } = await run(process.execPath, [MAIN, "serve", "--help"]);
    for (const text of ["--mcp", "--http [HOST:]PORT", "--cors ORIGIN", "--rate N/s", "-o, --option", "--example"])
      expect(stdout).toContain(text);
    expect((await run(process.execPath, [MAIN, "help", "serve"])).stdout).toBe(stdout);
  });

  test.each([
    [["--http", "nope", "--example"], "--http takes [HOST:]PORT"],
    [["--http", "8080", "--rate", "fast", "--example"], "--rate takes N/s"],
    [["--mcp", "--cors", "*", "--example"], "--cors and --rate go with --http"],
    [["--mcp", "--http", "8080", "--rate", "5/s", "--example"], "--cors and --rate go with --http alone"],
    [["--example"], "give --mcp, --http [HOST:]PORT or both"],
    [["--mcp", "--http", "8080", "--tokens", "./tokens.txt", "--example"], "not yet with MCP over HTTP"],
    [["--http", "8080", "-o", "allow_other", "--example"], "applies to mount, not serve"],
  ])("forage serve %j is a usage error", async (args, message) => {
    const failed = await run(process.execPath, [MAIN, "serve", ...args]).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain(message);
  });
});
