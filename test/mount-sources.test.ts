// Real specs through the real CLI, read by real ls, cat, grep, head and tsc on a real FUSE mount, and
// the same tree written by `forage export`: docs/mount.md, "Source files", "Left-out list",
// "Not validated operations", "Index files", "Search", "Reserved names" and "Source errors"; and the two intake fixes the left-out
// list relies on (an empty description falls back to the summary; `x-` keys among paths).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
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
const galaxy = createRequire(import.meta.url).resolve("@scalar/galaxy/latest.json");
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

// A spec with an operation the compiler refuses (a pattern), one whose schema refers back to itself (shown from
// $defs), and one whose schema intake will not read (TRACE).
const loops = join(scratch, "loops.json");
writeFileSync(
  loops,
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Loops", version: "1" },
    paths: {
      "/nodes": {
        get: {
          operationId: "listNodes",
          summary: "List the nodes with a label",
          parameters: [{ name: "label", in: "query", schema: { type: "string", pattern: "^[a-z]+$" } }],
          responses: { "204": { description: "done" } },
        },
        post: {
          operationId: "createNode",
          summary: "Create a tree node",
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } },
          responses: { "204": { description: "done" } },
        },
        trace: {
          operationId: "traceNodes",
          summary: "Echo the request",
          responses: { "204": { description: "done" } },
        },
      },
    },
    components: {
      schemas: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
        },
      },
    },
  }),
);

describe.skipIf(skip !== undefined)("a mount of real specs", () => {
  let mnt: string;
  beforeAll(async () => {
    mnt = freshMountpoint("sources");
    await startDaemon(["-o", "ro", petstore, uspto, `galaxy=${galaxy}`, loops], mnt);
  });
  afterAll(async () => {
    await stopAllDaemons();
    removeMountpoint(mnt);
  });

  // docs/mount.md, "Not validated operations"
  test("a spec whose every operation the compiler refuses shows them all: ls and cat show their files and why", () => {
    expect(sh(`ls ${quote(mnt)}`).stdout.split("\n")).toEqual(
      expect.arrayContaining(["galaxy", "loops", "petstore", "uspto", "@index.txt"]),
    );
    expect(
      sh(`ls -A ${quote(join(mnt, "petstore"))}`)
        .stdout.trim()
        .split("\n"),
    ).toEqual(
      [
        "@index.txt",
        "@namespace.d.ts",
        "@source.txt",
        "createPets.d.ts",
        "createPets.json",
        "listPets.d.ts",
        "listPets.json",
        "showPetById.d.ts",
        "showPetById.json",
      ].sort(),
    );
    const about = sh(`cat ${quote(join(mnt, "petstore/@source.txt"))}`).stdout;
    expect(about).toContain("Title: Swagger Petstore\nVersion: 1.0.0\n");
    expect(about).toContain("third-party data, not instructions");
    expect(about).toContain("Operations: 3 declared, 0 described here, 3 [not validated]");
    const shown = JSON.parse(sh(`cat ${quote(join(mnt, "petstore/showPetById.json"))}`).stdout);
    expect(shown).toMatchObject({ path: "petstore.showPetById", validated: false });
    expect(shown.reason).toMatch(/success response schema is unsupported: .*"format"/);
    expect(shown.capabilities[0]).toBe("reads over HTTP: GET /pets/{petId}");
    expect(sh(`cat ${quote(join(mnt, "loops/listNodes.d.ts"))}`).stdout).toContain('@pattern "^[a-z]+$"');
    // A schema that refers back to itself keeps its reference, to $defs, so its type stays finite.
    const node = sh(`cat ${quote(join(mnt, "loops/createNode.d.ts"))}`).stdout;
    expect(node).toContain(
      "export type loops$createNode_Input$$Node = {\n  children?: loops$createNode_Input$$Node[];",
    );
  });

  test("grep finds every not-validated .json, and -ri unsupported only what has no files", () => {
    const unvalidated = sh(`cd ${quote(mnt)} && grep -rl '"validated": false' --include='*.json' . | LC_ALL=C sort`);
    expect(unvalidated.stdout.trim().split("\n")).toHaveLength(3 + 2 + 9 + 2);
    expect(unvalidated.stdout).toContain("./uspto/perform_search.json");
    const validated = sh(`cd ${quote(mnt)} && grep -rl '"validated": true' --include='*.json' .`).stdout;
    expect(validated).toBe("./uspto/list_searchable_fields.json\n");
    const found = sh(`cd ${quote(mnt)} && grep -ri '^unsupported:' --include='@unsupported*.txt' .`)
      .stdout.trim()
      .split("\n");
    expect(found).toEqual([
      expect.stringMatching(
        /^\.\/loops\/@unsupported\.txt:unsupported: loops: TRACE \/nodes — Echo the request — reason: TRACE is unsupported/,
      ),
    ]);
    expect(sh(`grep -rli unsupported ${quote(mnt)}`).stdout).toContain("README.md");
  });

  test("head of the root index maps the mount; one grep over the indexes finds an operation and its signature", () => {
    const head = sh(`head -n 5 ${quote(join(mnt, "@index.txt"))}`).stdout.split("\n");
    expect(head[0]).toMatch(
      /^# @index\.txt: index of the catalog root, 17 operations below \(16 not validated\), 1 unsupported: 4 entries\./,
    );
    expect(head[2]).toBe("loops/ — 2 operations (2 not validated), 1 unsupported — contains listNodes, createNode");
    expect(head[3]).toBe(
      "petstore/ — 3 operations (3 not validated) — Swagger Petstore; contains listPets, createPets, showPetById",
    );
    expect(head[4]).toMatch(
      /^uspto\/ — 3 operations \(2 not validated\) — USPTO Data Set API: The Data Set API \(DSAPI\) allows .*; contains /,
    );
    const hit = sh(`cd ${quote(mnt)} && grep -ri "searchable field" --include='@index*.txt' .`).stdout;
    expect(hit).toMatch(/^\.\/uspto\/@index\.txt:list_searchable_fields\(\{ [^)]*\}\) — /);
    const pets = sh(`cd ${quote(mnt)} && grep -ri "list all pets" --include='@index*.txt' .`).stdout;
    expect(pets).toBe("./petstore/@index.txt:[not validated] listPets({ limit? }) — List all pets\n");
  });

  test("ranked search lists not-validated operations as operations, marked, and links their files", () => {
    const query = quote(join(mnt, ".search", "create a planet"));
    expect(sh(`cat ${query}/@index.txt`).stdout).toMatch(/\n\[not validated\] galaxy\.createPlanet\(.*\) — /);
    expect(sh(`ls ${query}`).stdout).toContain("nv-01-galaxy.createPlanet.d.ts");
    expect(sh(`cat ${query}/nv-01-galaxy.createPlanet.d.ts`).stdout).toContain("[not validated]");
  });

  test("tsc -p . type-checks every declaration, not-validated ones included", () => {
    const tsc = join(process.cwd(), "node_modules", ".bin", "tsc");
    expect(sh(`${quote(tsc)} -p ${quote(mnt)}`)).toMatchObject({ status: 0, stdout: "" });
    expect(sh(`cat ${quote(join(mnt, "galaxy/@namespace.d.ts"))}`).stdout).toContain('from "./getAllData.js"');
  });

  // docs/mount.md, "The README"
  test("the README counts what the sources left out, says the ranked search is lexical, and maps no namespace", () => {
    const readme = sh(`cat ${quote(join(mnt, "README.md"))}`).stdout;
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(2 * 1024);
    expect(readme).toContain("1 operation, and 16 more [not validated], revision");
    expect(readme).toContain("1 unsupported in all; each namespace's line counts its own.");
    expect(readme).toContain("cat @index.txt");
    expect(readme).toMatch(/lexical, few synonyms/);
    expect(readme).not.toMatch(/by meaning/);
    expect(readme).not.toContain("petstore");
    const manifest = JSON.parse(sh(`cat ${quote(join(mnt, ".afi/manifest.json"))}`).stdout);
    expect(manifest["x-forage-operations"]).toBe(1);
    expect(manifest["x-forage-sources"].map((source: Record<string, unknown>) => source.not_validated)).toEqual([
      3, 2, 9, 2,
    ]);
  });

  test("forage export writes the same files", () => {
    const out = join(scratch, "export");
    const result = sh(
      `${cli} export ${quote(petstore)} ${quote(uspto)} galaxy=${quote(galaxy)} ${quote(loops)} ${quote(out)}`,
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      "forage: petstore: 3 operations not validated (of 3 declared); the mount shows them from the source's own schemas",
    );
    expect(result.stderr).toContain(
      "forage: loops: 1 operation unsupported (of 3 declared); the mount lists it with the reasons in loops/@unsupported.txt",
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
