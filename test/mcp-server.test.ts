// MCP sources through the CLI and the catalog loader, with real servers from npm:
// docs/sources.md, "MCP tool lists" (the three kinds of source, "What is left out, and why",
// "Bounds": a live server that fails is one line naming it, ended, and nothing is mounted).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { connectMcpServer, readToolsList } from "../src/mcp/index.js";
import { loadCatalog } from "../src/sources/load-catalog.js";
import { parseSourceSpec } from "../src/sources/source-spec.js";
import { isMounted, sh } from "./helpers/mount-daemon.js";
import { processesWith, scratchDirectories } from "./helpers/scratch.js";

const root = process.cwd();
const fixtures = join(import.meta.dirname, "fixtures", "mcp");
const everything = join(root, "node_modules/.bin/mcp-server-everything");
const filesystem = join(root, "node_modules/.bin/mcp-server-filesystem");
const cli = `'${process.execPath}' '${join(root, "dist/cli/main.js")}'`;
const directory = scratchDirectories("forage-mcp");

describe("a live server listed through the official SDK client", () => {
  test.each([
    ["server-everything", everything, "everything.json"],
    ["server-filesystem", `${filesystem} /tmp`, "filesystem.json"],
  ])("%s lists what its saved answer holds, and is closed afterwards", async (_name, command, file) => {
    const connection = await connectMcpServer(command);
    await connection.close();
    const saved = readToolsList(JSON.parse(readFileSync(join(fixtures, file), "utf8")));
    const { intake } = connection.listing;
    expect(intake.operations.map(({ path, capabilities }) => [path, capabilities])).toEqual(
      saved.operations.map(({ path, capabilities }) => [path, capabilities]),
    );
    expect(intake.unsupported).toEqual(saved.unsupported);
    expect(intake.server).toEqual(saved.server);
  });
});

describe("SourceInfo of MCP sources", () => {
  test("a live server: kind, origin, title, version, instructions and the left-out tool with its reason", async () => {
    const { catalog, sources } = await loadCatalog([parseSourceSpec(`mcp:${everything}`)]);
    expect(catalog.list({ namespace: "everything" }).total).toBe(12);
    expect(sources).toHaveLength(1);
    const [info] = sources;
    expect(info).toMatchObject({
      namespace: "everything",
      kind: "MCP server",
      origin: `mcp:${everything}`,
      title: "Everything Reference Server",
      version: "2.0.0",
      declared: 13,
      unsupported: [],
      // Only the compiler refused it: shown from the server's own schema (docs/mount.md, "Not validated operations").
      unvalidated: [
        expect.objectContaining({
          segment: "gzip_file_as_resource",
          name: "gzip-file-as-resource",
          summary: expect.stringMatching(/^Compresses a single file/),
          reason: expect.stringContaining('"format" at #/properties/data/format'),
        }),
      ],
    });
    expect(info?.sections.map(({ heading }) => heading)).toEqual(["Server", "Instructions"]);
    expect(info?.sections[0]?.lines).toEqual(["name: mcp-servers/everything"]);
    expect(info?.sections[1]?.lines[0]).toBe("# Everything Server – Server Instructions");
  });

  test("NAME=mcp:… names the namespace; a saved file and a folder of them each carry their own info", async () => {
    const folder = directory("folder");
    for (const file of ["everything.json", "filesystem.json"])
      writeFileSync(join(folder, file), readFileSync(join(fixtures, file)));
    writeFileSync(join(folder, "notes.txt"), "not a tools/list file, and not *.json\n");
    const { catalog, sources } = await loadCatalog([
      parseSourceSpec(`fs=mcp:${filesystem} /tmp`),
      parseSourceSpec(join(fixtures, "everything.json")),
      parseSourceSpec(`saved=${folder}`),
    ]);
    expect(sources.map(({ namespace, kind, declared }) => [namespace, kind, declared])).toEqual([
      ["fs", "MCP server", 14],
      ["everything", "MCP tools/list file", 13],
      ["saved.everything", "MCP tools/list file", 13],
      ["saved.filesystem", "MCP tools/list file", 14],
    ]);
    expect(sources[3]).toMatchObject({ title: "secure-filesystem-server", version: "0.2.0", sections: [] });
    expect(catalog.list({ namespace: "saved.filesystem" }).total).toBe(14);
    expect(catalog.list({ namespace: "fs", limit: 50 }).results.map(({ path }) => path)).toContain("fs.read_text_file");
  });
});

describe("forage export from MCP sources", () => {
  test("a live server: one file per tool, with its hints as capability notes (and its name where the path spells it otherwise)", () => {
    const out = join(directory("export"), "tree");
    const result = sh(`${cli} export 'mcp:${everything}' '${out}'`);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exported 12 operations/);
    expect(result.stderr).toContain(
      "forage: everything: 1 operation not validated (of 13 declared); the mount shows it from the source's own schemas",
    );
    expect(JSON.parse(readFileSync(join(out, "everything/gzip_file_as_resource.json"), "utf8")).validated).toBe(false);
    const echo = JSON.parse(readFileSync(join(out, "everything/echo.json"), "utf8"));
    expect(echo).toMatchObject({ path: "everything.echo", description: "Echoes back the input string" });
    expect(echo.capabilities).toEqual([
      "read-only (MCP readOnlyHint)",
      "stays within a closed domain (MCP openWorldHint: false)",
    ]);
    expect(JSON.parse(readFileSync(join(out, "everything/get_sum.json"), "utf8")).capabilities[0]).toBe(
      'MCP tool "get-sum"',
    );
    expect(readdirSync(join(out, "everything"))).toContain("trigger_long_running_operation.d.ts");
  });

  test("a folder source: each *.json file under its own namespace", () => {
    const out = join(directory("export"), "tree");
    const result = sh(`${cli} export '${fixtures}' '${out}'`);
    expect(result.status).toBe(0);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(["everything", "filesystem"]));
    expect(JSON.parse(readFileSync(join(out, "filesystem/write_file.json"), "utf8")).capabilities).toContain(
      "may destroy or overwrite data (MCP destructiveHint)",
    );
  });

  test("a folder holding a JSON file that is not a tools/list result is refused, naming the file", () => {
    const folder = directory("folder");
    writeFileSync(join(folder, "other.json"), '{ "operations": [] }\n');
    const result = sh(`${cli} export '${folder}' '${join(directory("export"), "tree")}'`);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `forage: source ${join(folder, "other.json")}: expected an MCP tools/list result: { "tools": [...] }\n`,
    );
  });
});

describe("a live server that fails: one line naming the source, a non-zero exit, no child and no mount left", () => {
  const marker = (label: string) => `forage-mcp-test-${label}-${process.pid}`;
  test.each([
    ["a command that does not exist", (m: string) => `no-such-mcp-server-${m}`, /the server exited: .*not found/],
    [
      "a server that hangs",
      (m: string) => `node -e "setInterval(() => {}, 1000)" ${m}`,
      /did not answer initialize and tools\/list within 1000 ms/,
    ],
    [
      "a server that hangs and ignores SIGTERM",
      (m: string) => `node -e "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)" ${m}`,
      /did not answer initialize and tools\/list within 1000 ms/,
    ],
    [
      "a server that prints garbage",
      (m: string) => `node -e "console.log('hello, I am not JSON-RPC'); setInterval(() => {}, 1000)" ${m}`,
      /sent something that is not MCP: .*is not valid JSON/,
    ],
    [
      "a server that prints JSON that is not JSON-RPC",
      (m: string) => `node -e "console.log(JSON.stringify({ hello: 1 })); setInterval(() => {}, 1000)" ${m}`,
      /sent something that is not MCP: a JSON line that is not a JSON-RPC message/,
    ],
  ])("%s", (label, command, reason) => {
    const tag = marker(label.replace(/\W+/g, "-"));
    const source = `mcp:${command(tag)}`;
    const mnt = directory("mnt");
    // Only a server that hangs meets the deadline; the others fail on what they do, so their deadline is
    // a generous guard that a busy machine's slow start never reaches.
    const deadline = label.includes("hangs") ? 1000 : 60_000;
    const result = sh(`FORAGE_MCP_DEADLINE_MS=${deadline} ${cli} mount '${source.replace(/'/g, "'\\''")}' '${mnt}'`);
    expect(result.status).toBe(1);
    // A server slow to start on a busy machine is reported while forage waits (docs/sources.md); those
    // progress notes may come first, and the failure is still one line.
    const lines = result.stderr.split("\n").filter((line) => line !== "" && !waitingNote.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^forage: source ${escapeRegExp(source)}: `));
    expect(lines[0]).toMatch(reason);
    expect(isMounted(mnt)).toBe(false);
    expect(processesWith(tag)).toEqual([]);
  });

  test("an empty command line is a usage error", () => {
    const result = sh(`${cli} export 'mcp:  ' '${join(directory("export"), "tree")}'`);
    expect(result).toMatchObject({
      status: 2,
      stderr: `forage: source mcp:  : give the server's command line after "mcp:"\n`,
    });
  });
});

/** The note forage prints while a live server is slow to answer, before any failure. */
const waitingNote = /^forage: waiting for MCP server .* to start \(\d+ s\)…$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
