// MCP intake at the library level: docs/sources.md, "MCP tool lists" ("How a tool becomes an
// operation", "What is left out, and why", "Provider text", "Bounds"). The tools/list files are
// saved answers of real servers (test/fixtures/mcp/README.md names the packages and versions).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createCatalog } from "../src/catalog/create-catalog.js";
import type { OperationDefinition } from "../src/catalog/types.js";
import { isForageError } from "../src/forage-error.js";
import { MAX_TOOLS, parseToolsListText, readToolsList } from "../src/mcp/index.js";
import { nestedSource } from "../src/sources/loaded-source.js";
import { toolsListFileSource } from "../src/sources/tools-list-source.js";

const fixtures = join(import.meta.dirname, "fixtures", "mcp");
const saved = (name: string): unknown => JSON.parse(readFileSync(join(fixtures, name), "utf8"));
const objectInput = { type: "object", properties: { text: { type: "string" } } };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, inputSchema: objectInput, ...extra });
const pathsOf = (names: readonly string[]) =>
  readToolsList({ tools: names.map((name) => tool(name)) }).operations.map(({ path, toolName }) => [toolName, path]);

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("saved tools/list answers of real servers", () => {
  test("server-everything: each tool an operation named from its tool name; the refused one left out with the compiler's reason", () => {
    const intake = readToolsList(saved("everything.json"));
    expect(intake.declared).toBe(13);
    expect(intake.operations).toHaveLength(12);
    const sum = intake.operations.find(({ toolName }) => toolName === "get-sum");
    expect(sum).toMatchObject({
      path: "get_sum",
      description: "Returns the sum of two numbers",
      capabilities: [
        'MCP tool "get-sum"',
        "read-only (MCP readOnlyHint)",
        "stays within a closed domain (MCP openWorldHint: false)",
      ],
      text: { source: "third_party", description: "Returns the sum of two numbers" },
    });
    expect(sum?.input["~standard"].validate({ a: 1, b: 2 })).toEqual({ value: { a: 1, b: 2 } });
    const gzip = (saved("everything.json") as { tools: { name: string; inputSchema: object }[] }).tools.find(
      ({ name }) => name === "gzip-file-as-resource",
    );
    expect(intake.unsupported).toEqual([
      {
        toolName: "gzip-file-as-resource",
        summary: expect.stringMatching(/^Compresses a single file/),
        reason: expect.stringMatching(/^the inputSchema is unsupported: .*"format" at #\/properties\/data\/format/),
        // Only the compiler refused it: the tool travels beside the catalog as the server declares it (docs/sources.md).
        unvalidated: {
          segment: "gzip_file_as_resource",
          description: expect.stringMatching(/^Compresses a single file/),
          capabilities: expect.arrayContaining(['MCP tool "gzip-file-as-resource"']),
          inputSchema: gzip?.inputSchema,
        },
      },
    ]);
    expect(intake.server).toMatchObject({ name: "mcp-servers/everything", title: "Everything Reference Server" });
    expect(intake.server.instructions).toMatch(/^# Everything Server/);
  });

  test("server-filesystem: every tool supported, write tools carry the hints they declare", () => {
    const intake = readToolsList(saved("filesystem.json"));
    expect(intake.declared).toBe(14);
    expect(intake.unsupported).toEqual([]);
    // edit_file is its own path segment: the name says nothing the path does not.
    expect(intake.operations.find(({ path }) => path === "edit_file")?.capabilities).toEqual([
      "may change its environment (MCP readOnlyHint: false)",
      "may destroy or overwrite data (MCP destructiveHint)",
      "not idempotent (MCP idempotentHint: false)",
      "stays within a closed domain (MCP openWorldHint: false)",
    ]);
    expect(intake.server).toEqual({ name: "secure-filesystem-server", version: "0.2.0" });
  });

  test("the JSON text of a saved answer parses; a catalog file's text is not a tools/list", () => {
    expect(parseToolsListText(readFileSync(join(fixtures, "everything.json"), "utf8"))).toMatchObject({
      tools: expect.any(Array),
    });
    expect(parseToolsListText("tools:\n  - name: yaml-tool\n    inputSchema: { type: object }\n")).toEqual({
      tools: [{ name: "yaml-tool", inputSchema: { type: "object" } }],
    });
    expect(parseToolsListText("operations: []\n")).toBeUndefined();
    expect(parseToolsListText("{ not json or yaml: [")).toBeUndefined();
  });
});

describe("tool names become single path segments", () => {
  test.each([
    [["read-file"], [["read-file", "read_file"]]],
    [["fs.read/file"], [["fs.read/file", "fs_read_file"]]],
    [["3d-print"], [["3d-print", "_3d_print"]]],
    [
      ["constructor", "then", "__proto__"],
      [
        ["constructor", "constructor_"],
        ["then", "then_"],
        ["__proto__", "__proto___"],
      ],
    ],
    [["---"], [["---", "___"]]],
    [["ünïcode"], [["ünïcode", "_n_code"]]],
    // A name that is already a segment keeps it; the others take the next free suffix in the
    // code-unit order of their names ("-" sorts before ".").
    [
      ["read-file", "read_file", "read.file"],
      [
        ["read-file", "read_file_2"],
        ["read_file", "read_file"],
        ["read.file", "read_file_3"],
      ],
    ],
  ])("%j → %j", (names, expected) => {
    expect(pathsOf(names)).toEqual(expected);
  });

  test("the mapping does not depend on the order the server lists the tools in", () => {
    const names = ["a-b", "a.b", "a/b", "a_b", "9", "_9"];
    const forward = new Map(pathsOf(names).map(([name, path]) => [name, path]));
    const backward = new Map(pathsOf([...names].reverse()).map(([name, path]) => [name, path]));
    expect(backward).toEqual(forward);
    expect(new Set(forward.values()).size).toBe(names.length);
  });

  test("a long name is cut to 64 characters before it is made unique", () => {
    const long = "x".repeat(100);
    const [[, first], [, second]] = pathsOf([`${long}-1`, `${long}-2`]) as [string[], string[]];
    expect(first).toBe("x".repeat(64));
    expect(second).toBe(`${"x".repeat(64)}_2`);
  });

  test("a nameless tool and two tools of one name are left out, never dropped silently", () => {
    const intake = readToolsList({ tools: [tool("same"), tool("same"), tool(""), { inputSchema: objectInput }, 7] });
    expect(intake.operations).toEqual([]);
    expect(intake.declared).toBe(5);
    expect(intake.unsupported.map(({ toolName, reason }) => [toolName, reason])).toEqual([
      ["same", "another tool has the same name, so a call could not tell them apart"],
      ["same", "another tool has the same name, so a call could not tell them apart"],
      ["tool #2", "the tool has no name"],
      ["tool #3", "the tool has no name"],
      ["tool #4", "the tool is not an object"],
    ]);
  });
});

describe("annotations, descriptions and schemas", () => {
  test.each([
    [{ readOnlyHint: true, destructiveHint: true, idempotentHint: true }, ["read-only (MCP readOnlyHint)"]],
    [
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      [
        "may change its environment (MCP readOnlyHint: false)",
        "its changes are additive, not destructive (MCP destructiveHint: false)",
        "idempotent: repeating a call with the same input has no further effect (MCP idempotentHint)",
        "reaches an open world of outside entities (MCP openWorldHint)",
      ],
    ],
    [{ title: "Read a file", openWorldHint: "yes" }, ['titled "Read a file" (MCP annotations.title)']],
    [{}, []],
  ])("annotations %j → capability notes %j", (annotations, notes) => {
    const [operation] = readToolsList({ tools: [tool("t", { annotations })] }).operations;
    expect(operation?.capabilities).toEqual(notes);
  });

  test("the original name is the first note only where the path segment spells it otherwise", () => {
    const intake = readToolsList({ tools: [tool("read-file"), tool("read_file"), tool("then"), tool("3d")] });
    expect(intake.operations.map(({ path, capabilities }) => [path, capabilities?.[0]])).toEqual([
      ["read_file_2", 'MCP tool "read-file"'],
      ["read_file", undefined],
      ["then_", 'MCP tool "then"'],
      ["_3d", 'MCP tool "3d"'],
    ]);
  });

  // docs/sources.md: two servers' tools that differ only in names kept as their segments are identical apart from their
  // paths, which search merges; a name its segment spells otherwise keeps its note, so that pair stays two results.
  const evaluate = (name: string) =>
    tool(name, {
      description: "Execute JavaScript in the browser console",
      inputSchema: { type: "object", properties: { script: { type: "string" } }, required: ["script"] },
    });
  // Two tools/list files of a folder, each under its stem, as a folder source reads them (nestedSource).
  const twoServers = (first: [string, string], second: [string, string]) => {
    const parts = [first, second].map(([stem, name]) => {
      const text = JSON.stringify({ tools: [evaluate(name)] });
      return { stem, source: toolsListFileSource(`${stem}.json`, text, JSON.parse(text), stem) };
    });
    return createCatalog({
      revision: "r",
      operations: nestedSource(parts, undefined).content as OperationDefinition[],
    });
  };

  test("the same tool on two servers under two kept names is one search result, the other its peer", () => {
    const catalog = twoServers(["puppeteer", "puppeteer_evaluate"], ["automation", "playwright_evaluate"]);
    const results = catalog.search("execute javascript in the browser").results;
    expect(results).toHaveLength(1);
    expect(new Set([results[0]?.path, ...(results[0]?.peers ?? [])])).toEqual(
      new Set(["automation.playwright_evaluate", "puppeteer.puppeteer_evaluate"]),
    );
  });

  test("under names their segments spell otherwise, the same tool stays two results, each note naming its tool", () => {
    const catalog = twoServers(["puppeteer", "puppeteer-evaluate"], ["automation", "playwright-evaluate"]);
    const results = catalog.search("execute javascript in the browser").results;
    expect(results.map(({ path, peers }) => [path, peers ?? []])).toEqual([
      ["automation.playwright_evaluate", []],
      ["puppeteer.puppeteer_evaluate", []],
    ]);
  });

  test("a name of 64 characters is its segment, with no note; one of 65 is cut and noted", () => {
    const kept = "a".repeat(64);
    const cut = "b".repeat(65);
    const intake = readToolsList({ tools: [tool(kept), tool(cut)] });
    expect(intake.operations.map(({ path, capabilities }) => [path, capabilities?.[0]])).toEqual([
      [kept, undefined],
      ["b".repeat(64), `MCP tool "${cut}"`],
    ]);
  });

  test("the description falls back to the title, then to annotations.title", () => {
    const intake = readToolsList({
      tools: [
        tool("a", { title: "Title A", description: "Description A" }),
        tool("b", { title: "Title B" }),
        tool("c", { annotations: { title: "Annotated C" } }),
        tool("d"),
      ],
    });
    expect(intake.operations.map(({ description }) => description)).toEqual([
      "Description A",
      "Title B",
      "Annotated C",
      undefined,
    ]);
  });

  test("an outputSchema is compiled; a refused one leaves the tool out; nothing is widened", () => {
    const intake = readToolsList({
      tools: [
        tool("typed", { outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }),
        tool("bad_output", {
          outputSchema: { type: "object", properties: { at: { type: "string", format: "date" } } },
        }),
        tool("bad_input", {
          inputSchema: {
            type: "object",
            patternProperties: { "^(a+)+$": {} },
            dependentSchemas: { x: { $dynamicRef: "#y" } },
          },
        }),
        { name: "no_input" },
        tool("member_name", { inputSchema: { type: "object", properties: { constructor: { type: "string" } } } }),
      ],
    });
    const [typed] = intake.operations;
    expect(typed?.output?.["~standard"].validate({ n: 1.5 })).toMatchObject({ issues: expect.any(Array) });
    expect(
      intake.unsupported.map(({ toolName, reason }) => [
        toolName,
        reason.startsWith("the ") ? reason.split(":")[0] : reason,
      ]),
    ).toEqual([
      ["bad_output", "the outputSchema is unsupported"],
      ["bad_input", "the inputSchema is unsupported"],
      ["no_input", "the tool has no inputSchema object"],
      [
        "member_name",
        'property name "constructor" at inputSchema/properties/constructor is a JavaScript object member name, which the description could not show',
      ],
    ]);
  });

  test("a host whose Error.stackTraceLimit is read-only (frozen intrinsics) still gets refusals as reasons", () => {
    const limit = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit") as PropertyDescriptor;
    Object.defineProperty(Error, "stackTraceLimit", { ...limit, writable: false });
    try {
      const intake = readToolsList({
        tools: [
          tool("dated", { inputSchema: { type: "object", properties: { at: { type: "string", format: "date" } } } }),
        ],
      });
      expect(intake.unsupported.map(({ reason }) => reason.split(":")[0])).toEqual(["the inputSchema is unsupported"]);
    } finally {
      Object.defineProperty(Error, "stackTraceLimit", limit);
    }
  });
});

describe("provider text and bounds", () => {
  test("titles, descriptions and instructions are bounded and marked third_party", () => {
    const intake = readToolsList({
      serverInfo: { name: "n".repeat(300), version: "1" },
      instructions: "i".repeat(10_000),
      tools: [tool("t", { title: "T".repeat(500), description: "d".repeat(5_000) })],
    });
    const [operation] = intake.operations;
    expect(operation?.description).toHaveLength(2_048);
    expect(operation?.description?.endsWith("…")).toBe(true);
    expect(operation?.text).toMatchObject({ source: "third_party" });
    expect(operation?.text.summary).toHaveLength(200);
    expect(intake.server.name).toHaveLength(200);
    expect(intake.server.instructions).toHaveLength(4_096);
  });

  test(`more than ${MAX_TOOLS} tools are refused before any schema is compiled`, () => {
    const error = thrown(() =>
      readToolsList({ tools: Array.from({ length: MAX_TOOLS + 1 }, (_, index) => tool(`t${index}`)) }),
    );
    expect(isForageError(error, "too_large")).toBe(true);
    expect(
      readToolsList({ tools: Array.from({ length: MAX_TOOLS }, (_, index) => tool(`t${index}`)) }).operations,
    ).toHaveLength(MAX_TOOLS);
  });

  test("too deep, too many bytes, or not a tools/list result: refused as a whole", () => {
    let deep: unknown = {};
    for (let depth = 0; depth < 40; depth += 1) deep = { properties: { x: deep } };
    expect(
      isForageError(
        thrown(() => readToolsList({ tools: [tool("t", { inputSchema: deep })] })),
        "too_large",
      ),
    ).toBe(true);
    const big = JSON.stringify({ tools: [tool("t", { description: "x".repeat(2 * 1024 * 1024) })] });
    expect(
      isForageError(
        thrown(() => parseToolsListText(big)),
        "too_large",
      ),
    ).toBe(true);
    expect(
      isForageError(
        thrown(() => readToolsList({ operations: [] })),
        "invalid_catalog",
      ),
    ).toBe(true);
  });
});
