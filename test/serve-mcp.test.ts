// docs/afi.md, "MCP transport", "Reading a symlink" and "Tool names": `forage serve --mcp` as a real
// process, driven by the SDK's own Client over stdio.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const MAIN = join(import.meta.dirname, "..", "dist", "cli", "main.js");

async function connect(args: readonly string[]): Promise<Client> {
  const client = new Client({ name: "forage-test", version: "0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [MAIN, "serve", "--mcp", ...args], stderr: "ignore" }),
  );
  return client;
}

/** The structured Error of a tool error: the JSON of its one text content. */
function errorPayload(result: CallToolResult): unknown {
  expect(result.isError).toBe(true);
  const [content] = result.content;
  return JSON.parse((content as { text: string }).text);
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

let client: Client;
beforeAll(async () => {
  client = await connect(["--example"]);
});
afterAll(async () => {
  await client?.close();
});

describe("the AFI tools", () => {
  test("tools/list offers afi.* and forage.* with input schemas, AFI's with output schemas", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      "afi.list",
      "afi.manifest",
      "afi.read",
      "afi.search",
      "afi.stat",
      "forage.describe",
      "forage.list",
      "forage.search",
    ]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    const stat = tools.find((tool) => tool.name === "afi.stat");
    expect(stat?.inputSchema.required).toEqual(["path"]);
    expect(stat?.outputSchema?.properties).toHaveProperty("content_type");
  });

  test("every tool is annotated read-only, and the server gives instructions naming its tools", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true });
    const instructions = client.getInstructions() ?? "";
    for (const name of ["forage.search", "forage.describe", "afi.read"]) expect(instructions).toContain(name);
  });

  test("--tool-names underscored serves the same tools under names strict clients accept", async () => {
    const strict = await connect(["--tool-names", "underscored", "--example"]);
    try {
      const { tools } = await strict.listTools();
      const names = tools.map((tool) => tool.name).sort();
      expect(names).toEqual([
        "afi_list",
        "afi_manifest",
        "afi_read",
        "afi_search",
        "afi_stat",
        "forage_describe",
        "forage_list",
        "forage_search",
      ]);
      for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(strict.getInstructions()).toContain("forage_search");
      const stat = await call(strict, "afi_stat", { path: "/README.md" });
      expect(stat.structuredContent).toMatchObject({ type: "file", path: "/README.md" });
    } finally {
      await strict.close();
    }
  });

  test("afi.manifest and the resource afi://manifest.json are the tree's manifest", async () => {
    const manifest = (await call(client, "afi.manifest")).structuredContent;
    expect(manifest).toMatchObject({ afi_version: "0.1", provider: "forage", profile: 2 });
    const resource = await client.readResource({ uri: "afi://manifest.json" });
    const content = resource.contents[0];
    expect(content?.mimeType).toBe("application/json");
    expect(JSON.parse((content as { text: string }).text)).toEqual(manifest);
    const file = await call(client, "afi.read", { path: "/.afi/manifest.json" });
    const bytes = Buffer.from((file.structuredContent as { bytes: string }).bytes, "base64").toString("utf8");
    expect(JSON.parse(bytes)).toEqual(manifest);
  });

  test("afi.stat and afi.list answer Entries; afi.list pages with its cursor", async () => {
    const stat = await call(client, "afi.stat", { path: "/computers/local/files/read.d.ts" });
    expect(stat.isError).toBeFalsy();
    expect(stat.structuredContent).toMatchObject({ type: "file", content_type: "application/typescript" });
    const first = (await call(client, "afi.list", { path: "/computers/local/files", limit: 2 })).structuredContent as {
      entries: { path: string }[];
      next_cursor?: string;
    };
    expect(first.entries).toHaveLength(2);
    const second = (
      await call(client, "afi.list", { path: "/computers/local/files", limit: 2, cursor: first.next_cursor })
    ).structuredContent as { entries: { path: string }[] };
    expect(second.entries[0]?.path).not.toBe(first.entries[1]?.path);
    const globbed = (await call(client, "afi.list", { path: "/computers/local/files", glob: "*.json" }))
      .structuredContent as { entries: { path: string }[] };
    expect(globbed.entries.every((entry) => entry.path.endsWith(".json"))).toBe(true);
  });

  test("afi.read returns the text as text, base64 bytes with the mimeType, ranges included", async () => {
    const path = "/computers/local/files/read.d.ts";
    const whole = await call(client, "afi.read", { path });
    const structured = whole.structuredContent as { bytes: string; content_type: string; eof: boolean };
    expect(structured.eof).toBe(true);
    const text = Buffer.from(structured.bytes, "base64").toString("utf8");
    expect(text).toContain("computers.local.files.read");
    const [content] = whole.content;
    expect(content).toEqual({
      type: "resource",
      resource: { uri: `afi://${path}`, mimeType: "application/typescript", text },
    });
    const part = (await call(client, "afi.read", { path, offset: 3, length: 10 })).structuredContent as {
      bytes: string;
      eof: boolean;
    };
    expect(Buffer.from(part.bytes, "base64").toString("utf8")).toBe(text.slice(3, 13));
    expect(part.eof).toBe(false);
  });

  test("afi.read reads a ranked entry under /.search/<query>/ with follow: true; AFI's read alone refuses it", async () => {
    const listing = (await call(client, "afi.list", { path: "/.search/read a file" })).structuredContent as {
      entries: { path: string; type: string; target?: string }[];
    };
    const ranked = listing.entries.find((entry) => entry.type === "symlink");
    expect(ranked?.target).toMatch(/\.d\.ts$/);
    const followed = await call(client, "afi.read", { path: ranked?.path, follow: true });
    const target = await call(client, "afi.read", { path: ranked?.target });
    expect(followed.structuredContent).toEqual(target.structuredContent);
    expect(errorPayload(await call(client, "afi.read", { path: ranked?.path }))).toMatchObject({
      code: "invalid_path",
      "x-target": ranked?.target,
    });
  });

  test("afi.search pages exact matches by cursor", async () => {
    const all = (await call(client, "afi.search", { query: "string", limit: 1_000 })).structuredContent as {
      matches: unknown[];
    };
    const first = (await call(client, "afi.search", { query: "string", limit: 2 })).structuredContent as {
      matches: unknown[];
      next_cursor: string;
    };
    const second = (await call(client, "afi.search", { query: "string", limit: 2, cursor: first.next_cursor }))
      .structuredContent as { matches: unknown[] };
    expect([...first.matches, ...second.matches]).toEqual(all.matches.slice(0, 4));
    const regex = await call(client, "afi.search", { query: { regex: "^export\\s+type" }, limit: 3 });
    expect((regex.structuredContent as { matches: unknown[] }).matches).toHaveLength(3);
  });
});

describe("AFI errors are tool errors with the structured Error", () => {
  test.each([
    ["afi.stat", { path: "/nope" }, "not_found"],
    ["afi.stat", { path: "relative" }, "invalid_path"],
    ["afi.list", { path: "/README.md" }, "invalid_path"],
    ["afi.read", { path: "/computers" }, "invalid_path"],
    ["afi.read", { path: "/.afi/search" }, "not_found"],
    ["afi.list", { path: "/", cursor: "forged" }, "invalid_path"],
    ["afi.search", { query: { semantic: "files" } }, "unsupported"],
    ["afi.search", { query: { regex: "(" } }, "invalid_path"],
  ])("%s %j is %s", async (name, args, code) => {
    const payload = errorPayload(await call(client, name, args));
    expect(payload).toMatchObject({ code, message: expect.any(String) });
  });
});

describe("Forage's own tools", () => {
  test("forage.search ranks, forage.list pages, forage.describe describes", async () => {
    const search = (await call(client, "forage.search", { query: "read a file", limit: 3 })).structuredContent as {
      results: { path: string; score: number }[];
    };
    expect(search.results[0]?.path).toBe("computers.local.files.read");
    const first = (await call(client, "forage.list", { limit: 5 })).structuredContent as {
      results: unknown[];
      total: number;
      nextCursor: string;
    };
    expect(first.results).toHaveLength(5);
    const second = (await call(client, "forage.list", { limit: 5, cursor: first.nextCursor })).structuredContent as {
      results: unknown[];
    };
    expect(second.results).not.toEqual(first.results);
    const described = (await call(client, "forage.describe", { path: "computers.local.files.read" }))
      .structuredContent as { kind: string; inputSchema: unknown };
    expect(described.kind).toBe("operation");
    expect(described.inputSchema).toHaveProperty("properties");
  });

  test("a Forage failure is a tool error with its code", async () => {
    const result = await call(client, "forage.describe", { path: "no.such.operation" });
    expect(errorPayload(result)).toMatchObject({ code: "not_found" });
  });
});

describe("sources and options as for forage mount", () => {
  test("-o bound= cloaks unbound operations in every tool", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forage-serve-"));
    const bound = join(dir, "bound.txt");
    writeFileSync(bound, "computers.local.files.read\n");
    const narrowed = await connect(["-o", `bound=${bound}`, "--example"]);
    try {
      const hidden = await call(narrowed, "afi.stat", { path: "/computers/local/files/write.d.ts" });
      expect(errorPayload(hidden)).toMatchObject({ code: "not_found", path: "/computers/local/files/write.d.ts" });
      const listed = (await call(narrowed, "afi.list", { path: "/computers/local/files" })).structuredContent as {
        entries: { path: string }[];
      };
      expect(listed.entries.some((entry) => entry.path.includes("write"))).toBe(false);
      const ranked = (await call(narrowed, "forage.search", { query: "write a file" })).structuredContent as {
        results: { path: string }[];
      };
      expect(ranked.results.map((result) => result.path)).toEqual(["computers.local.files.read"]);
    } finally {
      await narrowed.close();
    }
  });

  test("-o subtree= serves one namespace as the root, for AFI's tools and Forage's alike", async () => {
    const rooted = await connect(["-o", "subtree=computers.local", "--example"]);
    try {
      const root = (await call(rooted, "afi.list", { path: "/" })).structuredContent as { entries: { path: string }[] };
      expect(root.entries.map((entry) => entry.path)).toContain("/files");
      const listed = (await call(rooted, "forage.list", { namespace: "files" })).structuredContent as {
        results: { path: string }[];
      };
      expect(listed.results.length).toBeGreaterThan(0);
      for (const result of listed.results) expect(result.path.startsWith("computers.local.files.")).toBe(true);
      const described = (await call(rooted, "forage.describe", { path: "files.read" })).structuredContent;
      expect(described).toMatchObject({ kind: "operation", path: "computers.local.files.read" });
    } finally {
      await rooted.close();
    }
  });

  test("-o ro declares profile 1 and refuses afi.search as unsupported", async () => {
    const readOnly = await connect(["-o", "ro", "--example"]);
    try {
      expect((await call(readOnly, "afi.manifest")).structuredContent).toMatchObject({ profile: 1 });
      const search = await call(readOnly, "afi.search", { query: "string" });
      expect(errorPayload(search)).toMatchObject({ code: "unsupported" });
    } finally {
      await readOnly.close();
    }
  });
});
