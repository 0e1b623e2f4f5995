// docs/intake.md, "Sources on the command line": OpenAPI specs and JSON/YAML catalog files, several
// at once under their own namespaces, and refusals as one clear line with a non-zero exit.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { detectDataFile } from "../src/sources/detect-data-file.js";
import { nestedSource } from "../src/sources/loaded-source.js";
import { folderSource, toolsListFileSource } from "../src/sources/tools-list-source.js";
import { sh } from "./helpers/mount-daemon.js";

const examples = join(import.meta.dirname, "fixtures", "openapi-examples");
const cli = `'${process.execPath}' '${join(process.cwd(), "dist/cli/main.js")}'`;
const tsc = `'${process.execPath}' '${join(process.cwd(), "node_modules/typescript/bin/tsc")}'`;
const targets: string[] = [];
function target(): string {
  const directory = mkdtempSync(join("/tmp", "forage-sources-"));
  targets.push(directory);
  rmSync(directory, { recursive: true });
  return directory;
}
afterEach(() => {
  for (const directory of targets.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("forage export from specs and catalog files", () => {
  test("several OpenAPI specs, each under its own namespace, give valid declarations", () => {
    const out = target();
    const result = sh(
      `${cli} export ttt='${join(examples, "v3.1/tictactoe.yaml")}' uspto='${join(examples, "v3.0/uspto.json")}' '${out}'`,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exported \d+ operations/);
    const board = JSON.parse(readFileSync(join(out, "ttt/get_board.json"), "utf8"));
    expect(board.path).toBe("ttt.get_board");
    expect(board.capabilities).toEqual(["reads over HTTP: GET /board"]);
    expect(readFileSync(join(out, "ttt/put_square.d.ts"), "utf8")).toContain("ttt$put_square_Input");
    expect(sh(`ls '${join(out, "uspto")}'`).stdout).toContain("list_searchable_fields.d.ts");
    // Refused operations are reported, never dropped silently; these have files, not validated (docs/mount.md).
    expect(result.stderr).toMatch(/uspto: \d+ operations not validated/);
    expect(sh(`${tsc} -p '${out}'`)).toMatchObject({ status: 0, stdout: "" });
  });

  test("a YAML catalog file's JSON Schemas compile to validators whose bounds show in describe", () => {
    const out = target();
    expect(sh(`${cli} export '${join(process.cwd(), "test/fixtures/sources/catalog.yaml")}' '${out}'`).status).toBe(0);
    const get = JSON.parse(readFileSync(join(out, "inventory/items/get.json"), "utf8"));
    expect(get.inputSchema.properties.sku).toMatchObject({ minLength: 3, maxLength: 32 });
    expect(readFileSync(join(out, "inventory/items/adjust.d.ts"), "utf8")).toMatch(
      /@minimum -1000\n\s+\* @maximum 1000/,
    );
    expect(sh(`${tsc} -p '${out}'`).status).toBe(0);
  });

  test("a module exporting a catalog is served as it is, alone; beside other sources it is refused", () => {
    const module = join(process.cwd(), "test/fixtures/sources/catalog-module.mjs");
    const out = target();
    expect(sh(`${cli} export '${module}' '${out}'`).status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, ".afi/manifest.json"), "utf8"))["x-forage-revision"]).toBe("module.7");
    const mixed = sh(
      `${cli} export '${module}' '${join(process.cwd(), "test/fixtures/sources/catalog.yaml")}' '${target()}'`,
    );
    expect(mixed.status).toBe(1);
    expect(mixed.stderr).toMatch(/a catalog export is used only when it is the sole source/);
  });

  test.each([
    [
      "a Swagger 2 spec",
      () => join(examples, "v2.0/yaml/petstore.yaml"),
      /convert the spec to OpenAPI 3\.0 or 3\.1 first/,
    ],
    [
      "a catalog file with an unsupported keyword",
      () => join(process.cwd(), "test/fixtures/sources/catalog-with-pattern.json"),
      /"pattern".*unsupported/,
    ],
    [
      "a catalog file with a property named like an object member",
      () => join(process.cwd(), "test/fixtures/sources/catalog-with-inherited-name.yaml"),
      /"constructor".*JavaScript object member/,
    ],
    ["a missing file", () => "/nonexistent/spec.yaml", /cannot read source/],
    ["a file of another kind", () => join(process.cwd(), "README.md"), /expected a \.js\/\.mjs module/],
  ])("%s is refused as one clear line with a non-zero exit", (_what, file, message) => {
    const result = sh(`${cli} export '${file()}' '${target()}'`);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test("usage mistakes exit 2 with one line", () => {
    for (const args of ["export", "mount --example", "frobnicate", "export --example a b"]) {
      const result = sh(`${cli} ${args}`);
      expect(result.status, args).toBe(2);
      expect(result.stderr).toMatch(/^forage: /);
    }
  });
});

// docs/intake.md, "Sources on the command line": a revision is a digest of the source texts.
describe("a folder of tools/list files", () => {
  test("is digested as its files' texts, valid UTF-8 or not, however the folder reads them", () => {
    const folder = mkdtempSync(join("/tmp", "forage-folder-digest-"));
    targets.push(folder);
    const tool = (description: string) =>
      `{"tools":[{"name":"t","description":"${description}","inputSchema":{"type":"object"}}]}`;
    writeFileSync(join(folder, "valid.json"), tool("caf\u00e9 \u2713"));
    // 0xff never occurs in UTF-8: the text holds U+FFFD there, whose UTF-8 is not the byte read.
    const [before, after] = tool("a|b").split("|") as [string, string];
    writeFileSync(
      join(folder, "invalid.json"),
      Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(after)]),
    );
    const fileByFile = ["invalid.json", "valid.json"].map((name) => {
      const text = readFileSync(join(folder, name), "utf8");
      const stem = name.replace(".json", "");
      return { stem, source: toolsListFileSource(join(folder, name), text, JSON.parse(text), stem) };
    });
    expect(folderSource(folder, undefined).digest).toBe(nestedSource(fileByFile, undefined).digest);
  });
});

// docs/sources.md, "Bounds of the sources layer": a YAML file is parsed only up to 16 MiB, checked before it is parsed.
describe("a YAML data file", () => {
  test("over 16 MiB is refused in one line naming it, before it is parsed; JSON of that size is not held to it", () => {
    const padding = "a".repeat(16 * 1_024 * 1_024);
    expect(() => detectDataFile("big.yaml", `mcpServers:\n  x: "${padding}"\n`)).toThrow(
      /^source big\.yaml: \d+ bytes of YAML; the limit is 16777216$/,
    );
    expect(detectDataFile("big.json", `{"tools":[],"x":"${padding}"}`)).toMatchObject({ kind: "tools-list-file" });
  });
});
