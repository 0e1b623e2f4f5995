// `forage openapi preview <spec> [--json]`: docs/intake.md, "Preview":
// a table of supported and unsupported operations with reasons, --json output, and
// every refusal as one clear line and a non-zero exit, never a stack trace.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { runOpenApiPreview } from "../src/cli/openapi-preview.js";

const EXAMPLES = join(import.meta.dirname, "fixtures/openapi-examples");
const directory = mkdtempSync(join(tmpdir(), "forage-openapi-preview-"));

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function preview(...argv: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runOpenApiPreview(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

function write(name: string, text: string): string {
  const file = join(directory, name);
  writeFileSync(file, text);
  return file;
}

function expectOneLineRefusal(run: Run, code: number, pattern: RegExp): void {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe("");
  expect(run.stderr.endsWith("\n")).toBe(true);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/^forage: /);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).toMatch(pattern);
}

const SPEC = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Preview", version: "2" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/items": {
      get: {
        operationId: "listItems",
        parameters: [{ name: "token", in: "query", schema: { type: "string" } }],
        responses: { "204": { description: "" } },
      },
      trace: { responses: { "204": { description: "" } } },
    },
    "/items/\u001b[2J{id}": { get: { responses: { "204": { description: "" } } } },
  },
});

describe("forage openapi preview", () => {
  test("prints supported and unsupported operations, with reasons, as a table", async () => {
    const run = await preview(write("spec.json", SPEC));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("Preview 2 (OpenAPI 3.0; provider text is third-party)");
    expect(run.stdout).toContain("servers (hints only): https://api.example.com");
    expect(run.stdout).toMatch(
      /supported operations: 1\n\s+METHOD\s+PATH\s+NAME\s+EFFECT\n\s+GET\s+\/items\s+listItems\s+read\n/,
    );
    expect(run.stdout).toContain("unsupported operations: 2");
    // TRACE has no files in a mount; what the compiler refuses is shown not validated (docs/mount.md).
    expect(run.stdout).toMatch(/TRACE\s+\/items\s+trace_items\s+no files\s+TRACE is unsupported/);
  });

  test("escapes control characters from the spec, so it cannot drive the terminal", async () => {
    const run = await preview(write("escape.json", SPEC));
    expect(run.stdout).not.toContain("\u001b");
    expect(run.stdout).toContain("/items/\\u001b[2J{id}");
  });

  test("prints JSON with --json: rows and hints, never validators", async () => {
    const run = await preview(write("spec.json", SPEC), "--json");
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as {
      operations: Array<Record<string, unknown>>;
      unsupported: unknown[];
      servers: unknown[];
    };
    expect(parsed.operations).toHaveLength(1);
    expect(parsed.operations[0]).toMatchObject({
      name: "listItems",
      method: "GET",
      path: "/items",
      effect: "read",
      call: { queryParams: ["token"] },
    });
    expect(parsed.operations[0]).not.toHaveProperty("input");
    expect(parsed.unsupported).toHaveLength(2);
    expect(parsed.servers).toEqual([{ url: "https://api.example.com", relative: false }]);
  });

  test("takes --auth-parameter, which then never becomes input", async () => {
    const run = await preview(write("spec.json", SPEC), "--json", "--auth-parameter", "token");
    const parsed = JSON.parse(run.stdout) as { operations: Array<{ call: { queryParams: string[] } }> };
    expect(parsed.operations[0]?.call.queryParams).toEqual([]);
  });

  test("refuses a Swagger 2 spec in one line, saying to convert it", async () => {
    expectOneLineRefusal(
      await preview(join(EXAMPLES, "v2.0/yaml/petstore.yaml")),
      1,
      /^forage: .*petstore\.yaml: .*convert the spec to OpenAPI 3\.0 or 3\.1 first .*\(unsupported\)\n$/,
    );
  });

  test("refuses a YAML alias bomb in one line", async () => {
    expectOneLineRefusal(
      await preview(join(import.meta.dirname, "fixtures/openapi/billion-laughs.yaml")),
      1,
      /^forage: .*billion-laughs\.yaml: .*YAML aliases are refused/,
    );
  });

  test("refuses invalid YAML in one line that names the file", async () => {
    const file = write("broken.yaml", "openapi: 3.0.3\npaths: [\n");
    expectOneLineRefusal(await preview(file), 1, /not valid YAML/);
    expect((await preview(file)).stderr.startsWith(`forage: ${file}: `)).toBe(true);
  });

  test("refuses a file over 2 MiB before reading it", async () => {
    expectOneLineRefusal(
      await preview(write("huge.json", " ".repeat(2 * 1024 * 1024 + 1))),
      1,
      /limited to 2097152 \(2 MiB\)/,
    );
  });

  test("refuses a missing file in one line", async () => {
    expectOneLineRefusal(await preview(join(directory, "missing.yaml")), 1, /cannot read .*missing\.yaml: ENOENT/);
  });

  test("refuses usage mistakes with exit code 2", async () => {
    expectOneLineRefusal(await preview(), 2, /usage: forage openapi preview/);
    expectOneLineRefusal(await preview("a.yaml", "b.yaml"), 2, /usage: forage openapi preview/);
    expectOneLineRefusal(await preview("a.yaml", "--yaml"), 2, /unknown option --yaml/);
    expectOneLineRefusal(await preview("a.yaml", "--auth-parameter"), 2, /--auth-parameter needs a value/);
  });

  test("prints usage with --help", async () => {
    const run = await preview("--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/usage:\n {2}forage openapi preview <spec/);
    expect(run.stdout).toContain("--auth-parameter NAME");
  });
});
