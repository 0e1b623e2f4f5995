// docs/intake.md, "Splitting a large spec", "The splitter's bounds", "Selecting part of a spec" and
// "Extensions are not followed": a spec beyond intake's bounds comes in parts that each meet them.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, test } from "vitest";
import {
  MAX_SPEC_BYTES,
  MAX_SPLIT_BYTES,
  MAX_SPLIT_OPERATIONS,
  normalizeOpenApi,
  type OpenApiSplit,
  splitOpenApi,
} from "../src/openapi/index.js";
import { RefBudget } from "../src/openapi/spec/ref-budget.js";
import { assertSpecLimits } from "../src/openapi/spec/spec-limits.js";
import { readSpecVersion } from "../src/openapi/spec/spec-version.js";
import { WorkBudget } from "../src/openapi/split/work-budget.js";
import { forageErrorOf } from "./helpers/forage-assertions.js";

type Operation = { path: string; method?: string; tags?: string[]; schema?: string; extra?: object };

/** An OpenAPI 3.1 spec of `operations`, each answering its `schema` component (default Pet). */
function spec(operations: readonly Operation[], schemas: Record<string, unknown> = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { path, method = "get", tags, schema = "Pet", extra } of operations) {
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[method] = {
      ...(tags === undefined ? {} : { tags }),
      responses: {
        "200": {
          description: "ok",
          content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
        },
      },
      ...extra,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Shop", version: "1" },
    servers: [{ url: "https://shop.example" }],
    security: [{ key: [] }],
    paths,
    components: {
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } },
      schemas: {
        Pet: { type: "object", properties: { name: { type: "string" }, kind: { $ref: "#/components/schemas/Kind" } } },
        Kind: { type: "string", enum: ["cat", "dog"] },
        Store: { type: "object", properties: { city: { type: "string" } } },
        ...schemas,
      },
    },
  };
}

function range<T>(count: number, make: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

/** 300 operations tagged "pets" and 300 untagged ones under /stores: over intake's 500 operations. */
const shop = spec([
  ...range(300, (index) => ({ path: `/pets/p${index}`, tags: ["pets"] })),
  ...range(300, (index) => ({ path: `/stores/s${index}`, schema: "Store" })),
]);

/** Every operation's method and path in a split: those in parts' texts, then those left out. */
function placed(split: OpenApiSplit): string[] {
  return split.parts.flatMap((part) => [
    ...operationsOf(JSON.parse(part.text)),
    ...part.leftOut.map(({ method, path }) => `${method} ${path}`),
  ]);
}

function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe("splitting by tag, then path", () => {
  test("a spec within intake's bounds is one part, its text unchanged", () => {
    const text = JSON.stringify(spec([{ path: "/pets", tags: ["pets"] }]));
    const split = splitOpenApi(text);
    expect(split).toMatchObject({ split: false, declared: 1, selected: 1 });
    expect(split.parts).toEqual([{ name: "", number: 1, count: 1, segments: [], operations: 1, leftOut: [], text }]);
  });

  test("a YAML spec within the bounds is not split, even when its JSON spelling would be over 2 MiB", () => {
    // Each `"` is one byte in YAML's single quotes and two in JSON: 1.5 MiB of them spell 3 MiB of JSON.
    const text = `openapi: 3.1.0\ninfo: { title: Quotes, version: "1", description: '${'"'.repeat(1_500_000)}' }\npaths: {}\n`;
    expect(splitOpenApi(text)).toMatchObject({ split: false, parts: [{ name: "", text }] });
  });

  test("over the bounds: one part per tag, an untagged operation by its path's first segment", () => {
    const split = splitOpenApi(JSON.stringify(shop));
    expect(split.split).toBe(true);
    expect(split.parts.map(({ name, tag, operations }) => ({ name, tag, operations }))).toEqual([
      { name: "pets", tag: "pets", operations: 300 },
      { name: "stores", tag: undefined, operations: 300 },
    ]);
    expect(split.parts.map(({ number, count }) => `${number}/${count}`)).toEqual(["1/2", "2/2"]);
    for (const part of split.parts) expect(normalizeOpenApi(part.text).operations).toHaveLength(300);
  });

  test("each part carries only the components it references, transitively, and keeps info, servers and security", () => {
    const [pets, stores] = splitOpenApi(JSON.stringify(shop)).parts.map((part) => JSON.parse(part.text));
    expect(Object.keys(pets.components.schemas).sort()).toEqual(["Kind", "Pet"]);
    expect(Object.keys(stores.components.schemas)).toEqual(["Store"]);
    for (const part of [pets, stores]) {
      expect(part).toMatchObject({ info: shop.info, servers: shop.servers, security: shop.security });
      expect(part.components.securitySchemes).toEqual({ key: { type: "apiKey", in: "header", name: "X-Key" } });
    }
  });

  test("a group still over a bound is split by its next literal path segment, then in chunks, with stable names", () => {
    const text = JSON.stringify(
      spec([
        ...range(300, (index) => ({ path: `/things/{id}/legs/l${index}`, tags: ["code-scanning"] })),
        ...range(300, (index) => ({ path: `/things/{id}/arms/a${index}`, tags: ["code-scanning"] })),
        ...range(1200, (index) => ({ path: `/things/{id}/eyes/{e${index}}`, tags: ["code-scanning"] })),
        { path: "/things/{id}", tags: ["code-scanning"] },
        { path: "/other", tags: ["Other Things"] },
      ]),
    );
    const split = splitOpenApi(text);
    const names = split.parts.map(({ name, operations }) => `${name}:${operations}`);
    expect(names).toEqual([
      "Other_Things:1",
      "code_scanning.arms:300",
      "code_scanning.eyes.part1:300",
      "code_scanning.eyes.part2:300",
      "code_scanning.eyes.part3:300",
      "code_scanning.eyes.part4:300",
      "code_scanning.legs:300",
      "code_scanning.root:1",
    ]);
    expect(split.parts.find(({ name }) => name === "code_scanning.eyes.part2")).toMatchObject({
      tag: "code-scanning",
      segments: ["eyes"],
      chunk: { index: 2, count: 4 },
    });
    expect(splitOpenApi(text).parts.map(({ name }) => name)).toEqual(split.parts.map(({ name }) => name));
    expect(placed(split).sort()).toEqual(operationsOf(JSON.parse(text)).sort());
  });

  test("an operation that breaks a bound even alone is left out with the reason, listed in its group's part", () => {
    // Each reference to Wide counts as a copy: 40 of them, 3,000 values each, expand past 100,000.
    const wide = {
      type: "object",
      properties: Object.fromEntries(range(1000, (index) => [`p${index}`, { type: "string" }])),
    };
    const fan = {
      type: "object",
      properties: Object.fromEntries(range(40, (index) => [`w${index}`, { $ref: "#/components/schemas/Wide" }])),
    };
    const text = JSON.stringify(
      spec(
        [
          // Templates are not literal segments: no path segment divides these, so they come in chunks.
          ...range(600, (index) => ({ path: `/pets/{p${index}}`, tags: ["pets"] })),
          { path: "/pets/{fan}", tags: ["pets"], schema: "Fan" },
          { path: "/other", tags: ["other"] },
        ],
        {
          Wide: wide,
          Fan: fan,
        },
      ),
    );
    const split = splitOpenApi(text);
    const leftOut = split.parts.flatMap((part) => part.leftOut.map((operation) => ({ part: part.name, ...operation })));
    expect(leftOut).toEqual([
      {
        part: "pets",
        method: "GET",
        path: "/pets/{fan}",
        reason: expect.stringMatching(/even alone.*expand to about \d+ nodes/),
        // Shown not validated from its own schemas (docs/intake.md, "Operations too large to expand").
        alone: expect.objectContaining({ components: expect.objectContaining({ schemas: expect.any(Object) }) }),
      },
    ]);
    expect(split.parts.map(({ name, operations }) => `${name}:${operations}`)).toEqual([
      "other:1",
      "pets:0",
      "pets.part1:451",
      "pets.part2:149",
    ]);
    expect(placed(split)).toHaveLength(602);
  });
});

test("a reference into another Path Item is copied into components, so the part that holds it resolves it", () => {
  const shared = { responses: { "200": { $ref: "#/paths/~1pets~1p0/get/responses/200" } } };
  const text = JSON.stringify(
    spec([
      ...range(300, (index) => ({ path: `/pets/p${index}`, tags: ["pets"] })),
      ...range(300, (index) => ({ path: `/stores/s${index}`, tags: ["stores"], extra: shared })),
    ]),
  );
  const stores = splitOpenApi(text).parts.find(({ name }) => name === "stores") as { text: string };
  const part = JSON.parse(stores.text);
  expect(Object.keys(part.paths).every((path) => path.startsWith("/stores/"))).toBe(true);
  expect(Object.keys(part.components.responses)).toEqual(["forage_paths_pets_p0_get_responses_200"]);
  expect(part.paths["/stores/s0"].get.responses["200"].$ref).toBe(
    "#/components/responses/forage_paths_pets_p0_get_responses_200",
  );
  expect(normalizeOpenApi(stores.text).operations).toHaveLength(300);
});

describe("extensions are not followed", () => {
  test("a $ref inside an x-* extension is not carried into a part", () => {
    const documented = { "x-docs": { $ref: "#/components/schemas/Store" } };
    const text = JSON.stringify(
      spec(range(600, (index) => ({ path: `/pets/p${index}`, tags: [`t${index % 2}`], extra: documented }))),
    );
    for (const part of splitOpenApi(text).parts) {
      expect(Object.keys(JSON.parse(part.text).components.schemas).sort()).toEqual(["Kind", "Pet"]);
      expect(normalizeOpenApi(part.text).operations).toHaveLength(300);
    }
  });

  test("intake neither resolves nor counts references inside extensions, but does inside a property named x-*", () => {
    const document = spec(
      [
        {
          path: "/pets",
          extra: { "x-gone": { $ref: "#/nowhere" } },
        },
      ],
      {
        Named: { type: "object", properties: { "x-rate": { $ref: "#/components/schemas/Kind" } } },
      },
    );
    const normalized = normalizeOpenApi(JSON.stringify(document));
    expect(normalized.operations).toHaveLength(1);
    const named = spec([{ path: "/pets", schema: "Named" }], {
      Named: { type: "object", properties: { "x-rate": { $ref: "#/nowhere" } } },
    });
    expect(forageErrorOf(() => normalizeOpenApi(JSON.stringify(named)))).toMatchObject({ code: "invalid_spec" });
  });

  test("references fanned out inside extensions do not count against the expansion budget", () => {
    const wide = {
      type: "object",
      properties: Object.fromEntries(range(1000, (index) => [`p${index}`, { type: "string" }])),
    };
    const refs = range(40, () => ({ $ref: "#/components/schemas/Wide" }));
    const text = JSON.stringify(spec([{ path: "/pets", extra: { "x-examples": refs } }], { Wide: wide }));
    expect(normalizeOpenApi(text).operations).toHaveLength(1);
  });
});

describe("the splitter's bounds", () => {
  test("a text over the byte bound is refused before it is parsed", () => {
    const text = `{${" ".repeat(MAX_SPLIT_BYTES)}`;
    expect(forageErrorOf(() => splitOpenApi(text))).toMatchObject({
      code: "too_large",
      details: { limit: MAX_SPLIT_BYTES },
    });
  });

  test("nesting past the splitter's depth is refused before JSON.parse builds it", () => {
    const text = `{"openapi":"3.1.0","x":${"[".repeat(100)}${"]".repeat(100)},"pad":"${" ".repeat(MAX_SPEC_BYTES)}"}`;
    expect(forageErrorOf(() => splitOpenApi(text)).message).toMatch(/nests deeper than 64 levels/);
  });

  test("more operations than the splitter's bound are refused before any part is built", () => {
    const text = JSON.stringify(spec(range(MAX_SPLIT_OPERATIONS + 1, (index) => ({ path: `/p${index}` }))));
    expect(forageErrorOf(() => splitOpenApi(text))).toMatchObject({
      code: "too_large",
      details: { limit: MAX_SPLIT_OPERATIONS },
    });
  });

  test("work is counted in steps, and past its budget the split is refused", () => {
    const budget = new WorkBudget(10);
    budget.charge(10);
    expect(forageErrorOf(() => budget.charge(1))).toMatchObject({ code: "too_large", details: { limit: 10 } });
  });

  test("a spec intake refuses whatever its size is refused with intake's own error", () => {
    const swagger = JSON.stringify({ swagger: "2.0", pad: " ".repeat(MAX_SPEC_BYTES) });
    expect(forageErrorOf(() => splitOpenApi(swagger))).toMatchObject({ code: "unsupported" });
    expect(forageErrorOf(() => splitOpenApi(`{"openapi": "3.1.0", ${" ".repeat(MAX_SPEC_BYTES)}`))).toMatchObject({
      code: "invalid_spec",
    });
  });
});

describe("selecting part of a spec", () => {
  test("by tag (as written or as a namespace) or by path glob; names are those of the whole split", () => {
    const text = JSON.stringify(shop);
    const byTag = splitOpenApi(text, { select: { tags: ["pets"] } });
    expect(byTag.parts.map(({ name, operations }) => [name, operations])).toEqual([["pets", 300]]);
    expect(byTag).toMatchObject({ declared: 600, selected: 300 });
    const byPath = splitOpenApi(text, { select: { paths: ["/stores/s1?"] } });
    expect(byPath.parts.map(({ name, operations }) => [name, operations])).toEqual([["stores", 10]]);
    const both = splitOpenApi(text, { select: { tags: ["pets"], paths: ["/stores/s1"] } });
    expect(both.parts.map(({ operations }) => operations)).toEqual([300, 1]);
  });

  test("a spec within the bounds stays one part, narrowed to the selection", () => {
    const text = JSON.stringify(
      spec([
        { path: "/pets/{id}", tags: ["pets"] },
        { path: "/stores", schema: "Store" },
      ]),
    );
    const split = splitOpenApi(text, { select: { paths: ["/pets/*"] } });
    expect(split).toMatchObject({ split: false, selected: 1 });
    const part = JSON.parse((split.parts[0] as { text: string }).text);
    expect(Object.keys(part.paths)).toEqual(["/pets/{id}"]);
    expect(Object.keys(part.components.schemas).sort()).toEqual(["Kind", "Pet"]);
  });

  test("a selection that keeps nothing, or is malformed, is invalid_argument", () => {
    const text = JSON.stringify(shop);
    expect(forageErrorOf(() => splitOpenApi(text, { select: { tags: ["nope"] } }))).toMatchObject({
      code: "invalid_argument",
    });
    expect(forageErrorOf(() => splitOpenApi(text, { select: { paths: [""] } }))).toMatchObject({
      code: "invalid_argument",
    });
  });
});

describe("GitHub's REST spec (@octokit/openapi)", () => {
  const file = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
  const text = readFileSync(file, "utf8");
  const split = splitOpenApi(text);

  test("every operation lands in exactly one part, in at least 10 namespaces", () => {
    expect(split.declared).toBeGreaterThan(1000);
    const all = placed(split);
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual(operationsOf(JSON.parse(text)).sort());
    expect(new Set(split.parts.map(({ name }) => name.split(".")[0])).size).toBeGreaterThanOrEqual(10);
    expect(split.parts.map(({ name }) => name)).toEqual(expect.arrayContaining(["actions", "pulls", "users"]));
  });

  test("each part meets intake's bounds, checked by intake's own whole-spec stage", () => {
    for (const part of split.parts) {
      expect(Buffer.byteLength(part.text)).toBeLessThanOrEqual(MAX_SPEC_BYTES);
      const document: unknown = JSON.parse(part.text);
      assertSpecLimits(document);
      const { root, version } = readSpecVersion(document);
      new RefBudget(root, version).assertWithinBudget();
    }
  });

  test("intake reads a part whole and lists every one of its operations, described or left out", () => {
    const pulls = split.parts.find(({ name }) => name === "pulls") as { text: string; operations: number };
    const normalized = normalizeOpenApi(pulls.text);
    expect(normalized.operations.length + normalized.unsupported.length).toBe(pulls.operations);
    expect(normalized.operations.length).toBeGreaterThan(0);
  });
});
