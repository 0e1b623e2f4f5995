// docs/intake.md, "Splitting a large spec", "The splitter's bounds" and "Selecting part of a spec":
// forage export of a spec beyond intake's bounds shows one namespace per tag, each part's @source.txt
// says which part it is, and --select keeps only the named tags or matching paths. (That an oversized
// file is never read is the sources layer's bound: test/mcp-config-sources.test.ts.)
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { sh } from "./helpers/mount-daemon.js";
import { scratchDirectories } from "./helpers/scratch.js";

const cli = `'${process.execPath}' '${join(process.cwd(), "dist/cli/main.js")}'`;
const directory = scratchDirectories("forage-split");

/** A spec over intake's 500 operations: 300 tagged "pets", 300 tagged "store-orders". */
function shopSpec(): string {
  const paths: Record<string, unknown> = {};
  const answer = { "200": { description: "ok", content: { "application/json": { schema: { type: "string" } } } } };
  for (let index = 0; index < 300; index += 1) {
    paths[`/pets/p${index}`] = { get: { operationId: `pet${index}`, tags: ["pets"], responses: answer } };
    paths[`/orders/o${index}`] = { get: { operationId: `order${index}`, tags: ["store-orders"], responses: answer } };
  }
  const file = join(directory(), "shop.json");
  writeFileSync(file, JSON.stringify({ openapi: "3.1.0", info: { title: "Shop", version: "1" }, paths }));
  return file;
}

describe("forage export of a split spec", () => {
  test("ls shows one namespace per tag, and each part's @source.txt says which part of which spec it is", () => {
    const spec = shopSpec();
    const out = join(directory(), "tree");
    const result = sh(`${cli} export shop='${spec}' '${out}'`);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exported 600 operations/);
    expect(sh(`ls '${join(out, "shop")}'`).stdout.split("\n")).toEqual(
      expect.arrayContaining(["pets", "store_orders"]),
    );
    expect(sh(`ls '${join(out, "shop/pets")}' | grep -c '^pet[0-9]*\\.d\\.ts$'`).stdout.trim()).toBe("300");
    const source = readFileSync(join(out, "shop/store_orders/@source.txt"), "utf8");
    expect(source).toContain("Kind: OpenAPI 3.1 spec, part 2 of 2");
    expect(source).toContain(`part 2 of 2 of ${spec}`);
    expect(source).toContain('operations tagged "store-orders"');
  });

  test("--select tag: and path: keep only those operations, under the names of the whole split", () => {
    const spec = shopSpec();
    const out = join(directory(), "tree");
    const result = sh(`${cli} export --select tag:pets --select 'path:/orders/o1?' shop='${spec}' '${out}'`);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exported 310 operations/);
    expect(sh(`ls '${join(out, "shop/store_orders")}' | grep -c '^order[0-9]*\\.d\\.ts$'`).stdout.trim()).toBe("10");
  });

  test("a malformed --select, or one that keeps nothing, is one line naming it and a non-zero exit", () => {
    const spec = shopSpec();
    const malformed = sh(`${cli} export --select pets shop='${spec}' '${join(directory(), "tree")}'`);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toMatch(/--select "pets": expected tag:NAME or path:GLOB/);
    const empty = sh(`${cli} export --select tag:nope shop='${spec}' '${join(directory(), "tree")}'`);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain(`source ${spec}: The selection keeps none of the spec's operations`);
  });

  test("GitHub's REST spec, two tags selected: ls shows their namespaces", () => {
    const github = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
    const out = join(directory(), "tree");
    const result = sh(`${cli} export --select tag:pulls --select tag:gists github='${github}' '${out}'`);
    expect(result.status).toBe(0);
    expect(sh(`ls '${join(out, "github")}'`).stdout.split("\n")).toEqual(expect.arrayContaining(["gists", "pulls"]));
    expect(readFileSync(join(out, "github/pulls/@source.txt"), "utf8")).toMatch(
      /Kind: OpenAPI 3\.0 spec, part \d+ of 2/,
    );
  });
});
