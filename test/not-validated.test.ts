// Operations Forage does not validate, shown whole from the source's own schemas, in memory: docs/mount.md,
// "Not validated operations" and "Search" (one ranking of validated and not-validated ones); docs/intake.md, "Operations" (what a refused operation carries); docs/sources.md,
// "What is left out, and why". The specs are real: Scalar's Galaxy and ReadMe's oas-examples (npm devDependencies),
// and a saved tools/list answer of the MCP reference server (test/fixtures/mcp/README.md).
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { type CatalogDefinition, createCatalog, type OperationDefinition } from "../src/index.js";
import { readToolsList } from "../src/mcp/index.js";
import { normalizeOpenApi } from "../src/openapi/index.js";
import { openApiSource } from "../src/sources/openapi-source.js";
import { toolsListFileSource } from "../src/sources/tools-list-source.js";
import { createCatalogTree } from "../src/tree/catalog-tree.js";
import type { SourceInfo } from "../src/tree/source-info.js";
import type { VirtualTree } from "../src/tree/virtual-tree.js";

const require = createRequire(import.meta.url);
const galaxy = readFileSync(require.resolve("@scalar/galaxy/latest.json"), "utf8");
const oasExamples = join(dirname(require.resolve("@readme/oas-examples/package.json")), "3.0", "json");
const everything = readFileSync(join(import.meta.dirname, "fixtures", "mcp", "everything.json"), "utf8");
const decoder = new TextDecoder();
const text = (tree: VirtualTree, path: string) => decoder.decode(tree.read(path));
const names = (tree: VirtualTree, path: string) => tree.list(path).map((entry) => entry.name);
const json = (tree: VirtualTree, path: string) => JSON.parse(text(tree, path));

/** A spec as the CLI mounts it: its validated operations in the catalog, the rest beside it in SourceInfo. */
function specTree(spec: string, namespace: string) {
  const { operations, infos } = openApiSource(spec, namespace, `${namespace}.json`);
  return treeOf(
    operations.map((operation) => ({ ...operation, path: `${namespace}.${operation.path}` })),
    infos,
  );
}

function treeOf(operations: CatalogDefinition["operations"], sources: readonly SourceInfo[]) {
  const catalog = createCatalog({ revision: "r", operations });
  const tree = createCatalogTree(catalog, { revision: "r", stamp: "s", providerVersion: "0", sources });
  return { catalog, tree, info: sources[0] as SourceInfo };
}

describe("intake: a refused operation carries the source's own schemas", () => {
  test("Scalar Galaxy: all 9 refused (format, a multipart body), each with its name, method, path and input schema", () => {
    const normalized = normalizeOpenApi(galaxy);
    expect(normalized.operations).toEqual([]);
    expect(normalized.unsupported).toHaveLength(9);
    for (const entry of normalized.unsupported) {
      expect(entry.sourceSchema?.inputSchema, entry.name).toMatchObject({
        type: "object",
        additionalProperties: false,
      });
      expect(entry.reason).toMatch(/unsupported|only offered as/);
    }
    const list = normalized.unsupported.find(({ name }) => name === "getAllData");
    expect(list).toMatchObject({ method: "GET", path: "/planets", effect: "read", summary: "Get all planets" });
    expect(list?.sourceSchema?.inputSchema.properties).toMatchObject({ limit: { type: "integer", format: "int64" } });
    expect(list?.sourceSchema?.outputSchema).toBeDefined();
  });

  test("an input intake does not support (a form body) is read as declared, under the same keys", () => {
    const spec = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Forms", version: "1" },
      paths: {
        "/messages": {
          post: {
            operationId: "postMessage",
            parameters: [{ name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } }],
            requestBody: {
              required: true,
              content: {
                "application/x-www-form-urlencoded": {
                  schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const [entry] = normalizeOpenApi(spec).unsupported;
    expect(entry?.sourceSchema).toEqual({
      inputSchema: {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string" } },
          body: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        },
        required: ["body"],
        additionalProperties: false,
      },
    });
  });

  test("a schema that refers back to itself is read from the unresolved spec, its components under $defs", () => {
    const normalized = normalizeOpenApi(readFileSync(join(oasExamples, "circular-request-bodies.json"), "utf8"));
    expect(normalized.unsupported.length).toBeGreaterThan(0);
    const direct = normalized.unsupported.find(({ name }) => name === "directCircular");
    expect(direct?.reason).toMatch(/refers back to itself/);
    expect(direct?.sourceSchema?.inputSchema).toMatchObject({
      properties: { body: { $ref: "#/$defs/TreeNode" } },
      $defs: { TreeNode: { properties: { children: { type: "array", items: { $ref: "#/$defs/TreeNode" } } } } },
    });
  });

  test("a loop through a reference that is not a component schema cannot be kept in $defs: no schemas, no hang", () => {
    const item = { $ref: "#/components/requestBodies/Tree/content/application~1json/schema" };
    const spec = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Loop", version: "1" },
      paths: { "/trees": { post: { requestBody: { $ref: "#/components/requestBodies/Tree" }, responses: {} } } },
      components: {
        requestBodies: {
          Tree: { content: { "application/json": { schema: { type: "object", properties: { child: item } } } } },
        },
      },
    });
    const [entry] = normalizeOpenApi(spec).unsupported;
    expect(entry?.reason).toMatch(/refers back to itself/);
    expect(entry?.sourceSchema).toBeUndefined();
  });

  test("what intake will not read at all (TRACE, a $ref Path Item) stays a plain left-out entry", () => {
    const normalized = normalizeOpenApi(readFileSync(join(oasExamples, "server-path-level.json"), "utf8"));
    const plain = normalized.unsupported.filter(({ sourceSchema }) => sourceSchema === undefined);
    expect(plain.map(({ reason }) => reason)).toEqual([expect.stringMatching(/^the Path Item is a \$ref/)]);
  });

  test("MCP: a tool refused for a keyword keeps its schemas; one with no inputSchema does not", () => {
    const intake = readToolsList({
      tools: [
        { name: "when", inputSchema: { type: "object" }, outputSchema: { type: "string", pattern: "^[0-9]+$" } },
        { name: "broken" },
      ],
    });
    expect(intake.unsupported).toEqual([
      expect.objectContaining({
        toolName: "when",
        unvalidated: {
          segment: "when",
          capabilities: [],
          inputSchema: { type: "object" },
          outputSchema: { type: "string", pattern: "^[0-9]+$" },
        },
      }),
      { toolName: "broken", reason: "the tool has no inputSchema object" },
    ]);
  });
});

describe("the tree shows every operation it can read", () => {
  const { catalog, tree, info } = specTree(galaxy, "galaxy");

  test("Galaxy: 0 of 9 in the catalog, 9 of 9 with files, none in @unsupported.txt", () => {
    expect(catalog.list({}).results).toEqual([]);
    expect(info.unsupported).toEqual([]);
    const files = names(tree, "/galaxy");
    expect(files).not.toContain("@unsupported.txt");
    expect(files).toContain("@namespace.d.ts");
    for (const name of ["getAllData", "createPlanet", "getPlanet", "updatePlanet", "deletePlanet", "getMe"]) {
      expect(files).toContain(`${name}.d.ts`);
      expect(files).toContain(`${name}.json`);
    }
  });

  test("the .json says validated false and why, names the method and path, and holds the source's schemas", () => {
    const described = json(tree, "/galaxy/getPlanet.json");
    expect(described).toMatchObject({
      path: "galaxy.getPlanet",
      validated: false,
      reason: expect.stringMatching(/"format"/),
      sample: "await env.galaxy.getPlanet({ planetId: 0 })",
      inputSchema: { properties: { planetId: { type: "integer", format: "int64" } }, required: ["planetId"] },
    });
    expect(described.capabilities[0]).toBe("reads over HTTP: GET /planets/{planetId}");
    expect(described.capabilities[1]).toMatch(/^not validated by Forage/);
  });

  test("the .d.ts declares env from the source's schema, its constraints as JSDoc, under a header that says why", () => {
    const declaration = text(tree, "/galaxy/getAllData.d.ts");
    expect(declaration.split("\n")[0]).toMatch(/^\/\/ \[not validated\] Forage did not validate this operation/);
    expect(declaration).toContain('@format "int64"');
    expect(declaration).toContain("getAllData(input: galaxy$getAllData_Input): Promise<galaxy$getAllData_Output>");
    expect(declaration).toMatch(/@capability not validated by Forage/);
  });

  test("the index lists them as operations, marked, with their sample; the header counts them", () => {
    const lines = text(tree, "/galaxy/@index.txt").trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^# @index\.txt: index of namespace galaxy, 9 operations below \(9 not validated\): 9 entries\./,
    );
    expect(lines[1]).toBe(
      "[not validated] getAllData({ limit?, offset? }) — It’s easy to say you know them all, but do you really?",
    );
    expect(text(tree, "/@index.txt")).toMatch(/\ngalaxy\/ — 9 operations \(9 not validated\) — Scalar Galaxy.*\n/);
  });

  test("README, @source.txt and the manifest count them apart from described and unsupported ones", () => {
    expect(text(tree, "/README.md")).toContain("0 operations, and 9 more [not validated], revision");
    expect(text(tree, "/galaxy/@source.txt")).toContain(
      "Operations: 9 declared, 0 described here, 9 [not validated] (files from the source's own schema), 0 unsupported",
    );
    expect(json(tree, "/.afi/manifest.json")["x-forage-sources"]).toEqual([
      expect.objectContaining({ declared: 9, described: 0, not_validated: 9, unsupported: 0, unsupported_list: null }),
    ]);
  });

  test("ranked search finds them as operations, apart from the catalog's ranking, which stays exact", () => {
    expect(catalog.search("planet").results).toEqual([]);
    const index = text(tree, "/.search/create a planet/@index.txt");
    expect(index).toMatch(/\n\[not validated\] galaxy\.createPlanet\(.*\) — /);
    expect(names(tree, "/.search/create a planet")).toContain("nv-01-galaxy.createPlanet.d.ts");
    expect(tree.readlink("/.search/create a planet/nv-01-galaxy.createPlanet.d.ts")).toBe(
      "../../galaxy/createPlanet.d.ts",
    );
    const results = json(tree, "/.search/create a planet/results.json");
    expect(results.notValidated[0]).toMatchObject({ path: "galaxy.createPlanet", file: "galaxy/createPlanet.d.ts" });
  });

  test("OpenAPI 3.0's nullable admits null in the .d.ts; the .json keeps the source's spelling", () => {
    const spec = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Nulls", version: "1" },
      paths: {
        "/notes": {
          get: {
            operationId: "listNotes",
            parameters: [{ name: "since", in: "query", schema: { type: "string", format: "date-time" } }],
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { text: { type: "string", nullable: true } } },
                  },
                },
              },
            },
          },
        },
      },
    });
    const nulls = specTree(spec, "nulls").tree;
    const declaration = text(nulls, "/nulls/listNotes.d.ts");
    expect(declaration).toContain("text?: string | null;");
    expect(declaration).toContain('  /** @format "date-time" */\n  since?: string;');
    expect(json(nulls, "/nulls/listNotes.json").outputSchema.properties.text).toEqual({
      type: "string",
      nullable: true,
    });
  });

  test("a validated operation's .json says validated true", () => {
    const star = specTree(readFileSync(join(oasExamples, "star-trek.json"), "utf8"), "trek");
    const [first] = star.catalog.list({}).results;
    const file = `/trek/${first?.path.split(".")[1]}.json`;
    expect(json(star.tree, file)).toMatchObject({ path: first?.path, validated: true });
  });
});

describe("a search digest ranks validated and not-validated operations together", () => {
  const described = (path: string, description: string): OperationDefinition => ({
    path,
    description,
    input: z.object({ to: z.string() }),
  });
  const notValidated = (segment: string, description: string) => ({
    segment,
    name: segment,
    description,
    capabilities: [],
    inputSchema: { type: "object", properties: { to: { type: "string", format: "email" } } },
    reason: "format is not supported",
  });
  const { tree, catalog } = treeOf(
    [
      described("mail.send", "Send an email message to its recipients."),
      described("mail.archive", "Archive an email message."),
    ],
    [
      {
        namespace: "crm",
        kind: "MCP tools/list file",
        origin: "crm.json",
        sections: [],
        declared: 2,
        unsupported: [],
        unvalidated: [
          notValidated("sendEmail", "Send an email to a contact."),
          notValidated("notes", "Notes kept on a contact, with the date of the last email."),
        ],
      },
    ],
  );
  // The digest's lines, then those of the page after it: the whole ranking (docs/mount.md, "Search").
  const order = () =>
    ["@index.txt", "@index.2.txt"]
      .flatMap((page) => text(tree, `/.search/send email/${page}`).split("\n").slice(1, -1))
      .map((line) => line.replace("[not validated] ", "").replace(/\(.*$/, ""));

  test("a weak not-validated match shows below better validated ones, a strong one above weaker ones", () => {
    // Taking the two rankings in turn would give
    // mail.send, crm.sendEmail, mail.archive, crm.notes (validated first) or crm.sendEmail, mail.send,
    // crm.notes, mail.archive (not-validated first).
    expect(order()).toEqual(["crm.sendEmail", "mail.send", "mail.archive", "crm.notes"]);
  });

  test("the validated ones keep the catalog's own order, which never holds a not-validated operation", () => {
    const ranked = catalog.search("send email").results.map(({ path }) => path);
    expect(order().filter((path) => path.startsWith("mail."))).toEqual(ranked);
    expect(ranked).not.toContain("crm.sendEmail");
  });
});

describe("real specs with format everywhere", () => {
  const specs = readdirSync(oasExamples).filter((name) => name.endsWith(".json"));

  test.each(["star-trek.json", "petstore.json", "parameters-style.json", "petstore-expanded.json"])(
    "oas-examples %s: every operation intake can read has files",
    (file) => {
      expect(specs).toContain(file);
      const { catalog, tree, info } = specTree(readFileSync(join(oasExamples, file), "utf8"), "api");
      const shown = names(tree, "/api").filter((name) => name.endsWith(".json"));
      expect(info.unsupported).toEqual([]);
      expect(shown).toHaveLength(info.declared);
      expect(info.unvalidated?.length).toBeGreaterThan(0);
      expect(catalog.list({}).results.length + (info.unvalidated?.length ?? 0)).toBe(info.declared);
    },
  );

  test("oas-examples star-trek: a not-validated operation of many keeps its format constraints in its .d.ts", () => {
    const { tree, info } = specTree(readFileSync(join(oasExamples, "star-trek.json"), "utf8"), "trek");
    const withFormat = (info.unvalidated ?? []).find(({ reason }) => reason.includes('"format"'));
    expect(withFormat).toBeDefined();
    const format = /"format" at [^ ]+\/format/.exec(withFormat?.reason ?? "");
    expect(format).not.toBeNull();
    expect(text(tree, `/trek/${withFormat?.segment}.d.ts`)).toMatch(/@format "[a-z0-9-]+"/);
  });
});

describe("MCP tools the compiler refuses", () => {
  test("server-everything's gzip tool (a format in its inputSchema) has files from its own inputSchema", () => {
    const loaded = toolsListFileSource("everything.json", everything, JSON.parse(everything), "everything");
    if (loaded === undefined) throw new Error("everything.json is a tools/list file");
    const operations = (loaded.content as OperationDefinition[]).map((operation) => ({
      ...operation,
      path: `everything.${operation.path}`,
    }));
    const { catalog, tree } = treeOf(operations, loaded.infos ?? []);
    expect(() => catalog.describe("everything.gzip_file_as_resource")).toThrow();
    const described = json(tree, "/everything/gzip_file_as_resource.json");
    const tool = (JSON.parse(everything) as { tools: { name: string; inputSchema: unknown }[] }).tools.find(
      ({ name }) => name === "gzip-file-as-resource",
    );
    expect(described).toMatchObject({ validated: false, inputSchema: tool?.inputSchema });
    expect(described.capabilities[0]).toBe('MCP tool "gzip-file-as-resource"');
    expect(text(tree, "/everything/@namespace.d.ts")).toContain('from "./gzip_file_as_resource.js"');
  });
});
