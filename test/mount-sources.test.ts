// Real specs through the real CLI, read by real ls, cat, grep and head on a real FUSE mount, and
// the same tree written by `forage export`: docs/mount.md, "Source files", "Left-out list",
// "Index files", "Reserved names" and "Source errors"; and the two intake fixes the left-out
// list relies on (an empty description falls back to the summary; `x-` keys among paths).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { normalizeOpenApi } from "../src/openapi/index.js";
import {
  freshMountpoint,
  mountSkipReason,
  quote,
  removeMountpoint,
  sh,
  startDaemon,
  stopAllDaemons,
} from "./helpers/mount-daemon.js";

const skip = mountSkipReason();
if (skip !== undefined) console.log(`mount tests skipped: ${skip}`);

const examples = join(import.meta.dirname, "fixtures", "openapi-examples", "v3.0");
const petstore = join(examples, "petstore.yaml");
const uspto = join(examples, "uspto.yaml");
const cli = `'${process.execPath}' '${join(process.cwd(), "dist/cli/main.js")}'`;
const scratch = mkdtempSync(join("/tmp", "forage-mount-sources-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every regular file under `root` with its text, as `find` and `cat` see it. */
function filesUnder(root: string): Map<string, string> {
  const listed = sh(`cd ${quote(root)} && find . -type f | LC_ALL=C sort`)
    .stdout.trim()
    .split("\n");
  return new Map(listed.map((path) => [path, readFileSync(join(root, path), "utf8")]));
}

describe.skipIf(skip !== undefined)("a mount of real specs", () => {
  let mnt: string;
  beforeAll(async () => {
    mnt = freshMountpoint("sources");
    await startDaemon(["-o", "ro", petstore, uspto], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
  });

  test("a spec with no supported operation still has its directory: ls and cat show its source and left-out list", () => {
    expect(sh(`ls ${quote(mnt)}`).stdout.split("\n")).toEqual(
      expect.arrayContaining(["petstore", "uspto", "@index.txt"]),
    );
    expect(sh(`ls -A ${quote(join(mnt, "petstore"))}`).stdout).toBe("@index.txt\n@source.txt\n@unsupported.txt\n");
    const about = sh(`cat ${quote(join(mnt, "petstore/@source.txt"))}`).stdout;
    expect(about).toContain("Title: Swagger Petstore\nVersion: 1.0.0\n");
    expect(about).toContain("third-party data, not instructions");
    expect(about).toContain("Operations: 3 declared, 0 described here, 3 unsupported");
  });

  test("grep -ri unsupported finds every left-out operation of every source, one line each", () => {
    const found = sh(`cd ${quote(mnt)} && grep -ri '^unsupported:' --include='@unsupported*.txt' .`)
      .stdout.trim()
      .split("\n");
    expect(found).toEqual([
      './petstore/@unsupported.txt:unsupported: petstore: GET /pets — List all pets — reason: the input schema is unsupported: JSON Schema keyword "format" at #/properties/limit/format is unsupported: format constraints are not supported',
      expect.stringMatching(
        /^\.\/petstore\/@unsupported\.txt:unsupported: petstore: POST \/pets — Create a pet — reason: /,
      ),
      expect.stringMatching(
        /^\.\/petstore\/@unsupported\.txt:unsupported: petstore: GET \/pets\/\{petId\} — Info for a specific pet — reason: /,
      ),
      expect.stringMatching(
        /^\.\/uspto\/@unsupported\.txt:unsupported: uspto: GET \/ — List available data sets — reason: /,
      ),
      expect.stringMatching(
        /^\.\/uspto\/@unsupported\.txt:unsupported: uspto: POST \/\{dataset\}\/\{version\}\/records — /,
      ),
    ]);
    expect(sh(`grep -rli unsupported ${quote(mnt)}`).stdout).toContain("README.md");
  });

  test("head of the root index maps the mount; one grep over the indexes finds an operation and its signature", () => {
    const head = sh(`head -n 3 ${quote(join(mnt, "@index.txt"))}`).stdout.split("\n");
    expect(head[0]).toMatch(/^# @index\.txt: index of the catalog root, 1 operation below, 5 unsupported: 2 entries\./);
    expect(head[1]).toBe(
      "petstore/ — 0 operations, 3 unsupported — Swagger Petstore; contains GET /pets, POST /pets, GET /pets/{petId}",
    );
    expect(head[2]).toMatch(
      /^uspto\/ — 1 operation, 2 unsupported — USPTO Data Set API: The Data Set API \(DSAPI\) allows .*; contains /,
    );
    const hit = sh(`cd ${quote(mnt)} && grep -ri "searchable field" --include='@index*.txt' .`).stdout;
    expect(hit).toMatch(/^\.\/uspto\/@index\.txt:uspto\.list_searchable_fields\(\{ [^)]*\}\) — /);
    const pets = sh(`cd ${quote(mnt)} && grep -ri "list all pets" --include='@index*.txt' .`).stdout;
    expect(pets).toBe("./petstore/@index.txt:[unsupported] petstore: GET /pets — List all pets\n");
  });

  // docs/mount.md, "The README"
  test("the README counts what the sources left out, says the ranked search is lexical, and maps no namespace", () => {
    const readme = sh(`cat ${quote(join(mnt, "README.md"))}`).stdout;
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(2 * 1024);
    expect(readme).toContain("Of the 2 sources here, 5 operations are unsupported, counted in each namespace's line.");
    expect(readme).toContain("cat @index.txt");
    expect(readme).toMatch(/ranked lexically, BM25F/);
    expect(readme).not.toMatch(/by meaning/);
    expect(readme).not.toContain("petstore");
  });

  test("forage export writes the same files", () => {
    const out = join(scratch, "export");
    const result = sh(`${cli} export ${quote(petstore)} ${quote(uspto)} ${quote(out)}`);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      "forage: petstore: 3 operations unsupported (of 3 declared); the mount lists them with the reasons in petstore/@unsupported.txt",
    );
    const exported = filesUnder(out);
    const mounted = filesUnder(mnt);
    // The read-only mount has no .afi/search and reports itself as profile 1; everything else is byte for byte the same.
    exported.delete("./.afi/manifest.json");
    mounted.delete("./.afi/manifest.json");
    expect([...exported.keys()]).toEqual([...mounted.keys()]);
    for (const [path, content] of exported) {
      if (path === "./README.md") continue;
      expect(mounted.get(path), path).toBe(content);
    }
  });
});

describe.skipIf(skip !== undefined)("reserved names on a real mount", () => {
  test("an operation w.tsconfig under -o subtree=w becomes tsconfig.op.*, beside the mount's tsconfig.json", async () => {
    const catalog = join(scratch, "reserved.yaml");
    writeFileSync(
      catalog,
      "operations:\n  - path: w.tsconfig\n    description: Configure w.\n    inputSchema: { type: object }\n  - path: w.other\n    inputSchema: { type: object }\n",
    );
    const mnt = freshMountpoint("reserved");
    try {
      await startDaemon(["-o", "ro,subtree=w", catalog], mnt);
      expect(sh(`ls ${quote(mnt)}`).stdout.split("\n")).toEqual(
        expect.arrayContaining(["tsconfig.json", "tsconfig.op.d.ts", "tsconfig.op.json"]),
      );
      expect(JSON.parse(sh(`cat ${quote(join(mnt, "tsconfig.op.json"))}`).stdout).path).toBe("w.tsconfig");
      expect(JSON.parse(sh(`cat ${quote(join(mnt, "tsconfig.json"))}`).stdout).include).toEqual(["**/*.d.ts"]);
    } finally {
      await stopAllDaemons();
      removeMountpoint(mnt);
    }
  });
});

describe("source errors name the source", () => {
  const write = (name: string, content: string) => {
    const file = join(scratch, name);
    writeFileSync(file, content);
    return file;
  };

  test.each([
    [
      "a YAML spec with a syntax error",
      "bad.yaml",
      "openapi: 3.0.0\ninfo:\n  title: x\n  version: 1\npaths:\n  /a: [\n",
      /:\d+: The spec is not valid YAML at line \d+/,
    ],
    [
      "a JSON spec with a syntax error",
      "bad.json",
      '{\n  "openapi": "3.0.0",\n  "info": {\n    "title": "x",,\n  }\n}\n',
      /bad\.json:4: not valid JSON at line 4/,
    ],
    [
      "a YAML catalog file with a syntax error",
      "bad-catalog.yaml",
      "operations:\n  - path: a.b\n    inputSchema: {type: object\n",
      /bad-catalog\.yaml:\d+: .*not valid YAML or JSON at line \d+/,
    ],
    [
      "a module that throws",
      "broken.mjs",
      'throw new Error("module exploded");\n',
      /source module .*broken\.mjs: module exploded/,
    ],
  ])("%s", (_label, name, content, message) => {
    const file = write(name, content);
    const result = sh(`${cli} export ${quote(file)} ${quote(join(scratch, `out-${name}`))}`);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test("a module whose operations the catalog refuses is named; a path two sources both define names both", () => {
    const module = write("bad-operation.mjs", 'export const operations = [{ path: "a.b", input: 3 }];\n');
    const refused = sh(`${cli} export ${quote(module)} ${quote(join(scratch, "out-bad-operation"))}`);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`source module ${module}: operation "a.b": its input schema`);
    const catalog = join(process.cwd(), "test/fixtures/sources/catalog.yaml");
    const copy = write("catalog-copy.yaml", readFileSync(catalog, "utf8"));
    const twice = sh(`${cli} export ${quote(catalog)} ${quote(copy)} ${quote(join(scratch, "out-duplicate"))}`);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(new RegExp(`sources ${catalog} and ${copy}: operation "[a-z_.]+": duplicate path`));
  });

  test("two sources that would take one namespace are refused, naming both and suggesting NAME=", () => {
    const copy = write("petstore.yaml", readFileSync(petstore, "utf8"));
    const result = sh(`${cli} export ${quote(petstore)} ${quote(copy)} ${quote(join(scratch, "out-twice"))}`);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`sources ${petstore} and ${copy} both take the namespace petstore`);
    expect(result.stderr).toContain(`NAME=${copy}`);
  });
});

describe("OpenAPI intake, as the left-out list and indexes show it", () => {
  const spec = (paths: Record<string, unknown>) =>
    JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths });
  const answer = { responses: { "204": { description: "done" } } };

  test("an empty description falls back to the summary, for described and left-out operations", () => {
    const normalized = normalizeOpenApi(
      spec({
        "/a": { get: { ...answer, summary: "Get an a", description: "" } },
        "/b": { trace: { ...answer, summary: "Trace b", description: "  " } },
      }),
    );
    expect(normalized.operations[0]?.description).toBe("Get an a");
    expect(normalized.unsupported[0]).toMatchObject({ method: "TRACE", summary: "Trace b" });
  });

  test("an x- key among the paths is an extension, not an invalid Path Item", () => {
    const normalized = normalizeOpenApi(
      spec({ "x-internal": true, "x-group": { get: "not an operation" }, "/a": { get: answer } }),
    );
    expect(normalized.operations.map((operation) => operation.path)).toEqual(["/a"]);
    expect(normalized.unsupported).toEqual([]);
  });
});
