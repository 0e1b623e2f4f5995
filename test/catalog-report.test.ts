// docs/catalog.md, "Every refusal in one pass": createCatalogReport sets aside every operation the catalog
// refuses on its own, with the error createCatalog would have thrown for it, and keeps the others in a catalog
// equal to createCatalog's over them; what concerns the whole definition still throws; createCatalog itself
// still throws on the first refusal ("Validation").
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, createCatalogReport, ForageError, type OperationDefinition } from "../src/index.js";
import { openApiSource } from "../src/sources/openapi-source.js";

const small = z.object({ id: z.string() });
/** An input whose declaration passes the describe response bound. */
const huge = z.object({
  mode: z.enum(Array.from({ length: 8_000 }, (_, index) => `value_number_${index}`) as [string, ...string[]]),
});

function thrown(make: () => unknown): ForageError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ForageError);
    return error as ForageError;
  }
  throw new Error("nothing was thrown");
}

describe("createCatalogReport", () => {
  const operations: OperationDefinition[] = [
    { path: "files.read", input: small, description: "Reads a file." },
    { path: "files.dump", input: huge },
    { path: "files.bad-name", input: small },
    { path: "files.write", input: small, description: "Writes a file." },
    { path: "files.long", input: small, description: "x".repeat(5_000) },
  ];

  test("reports every operation refused on its own, in order, with createCatalog's error for it alone", () => {
    const { catalog, refused } = createCatalogReport({ revision: "r", operations });
    expect(refused.map(({ index }) => index)).toEqual([1, 2, 4]);
    for (const { index, error } of refused) {
      const alone = thrown(() =>
        createCatalog({ revision: "r", operations: [operations[index] as OperationDefinition] }),
      );
      expect(error.code).toBe("invalid_catalog");
      expect(error.message).toBe(alone.message);
      expect(error.details.path).toBe(operations[index]?.path);
    }
    expect(catalog.list({}).results.map(({ path }) => path)).toEqual(["files.read", "files.write"]);
  });

  test("its catalog is createCatalog's over the operations it keeps", () => {
    const { catalog } = createCatalogReport({ revision: "r", operations });
    const kept = createCatalog({ revision: "r", operations: [operations[0], operations[3]] as OperationDefinition[] });
    expect(catalog.stamp()).toBe(kept.stamp());
    expect(catalog.size).toBe(kept.size);
    expect(catalog.describe("files.write")).toEqual(kept.describe("files.write"));
    expect(catalog.search("write a file").results).toEqual(kept.search("write a file").results);
  });

  test("createCatalog still throws on the first refusal", () => {
    expect(thrown(() => createCatalog({ revision: "r", operations })).message).toContain('"files.dump"');
  });

  test("what concerns the whole definition still throws: a duplicate path, the revision", () => {
    const twice = [operations[0], operations[1], operations[0]] as OperationDefinition[];
    expect(thrown(() => createCatalogReport({ revision: "r", operations: twice })).message).toMatch(
      /"files\.read": duplicate path/,
    );
    expect(thrown(() => createCatalogReport({ revision: "", operations })).code).toBe("invalid_catalog");
  });

  test("a real spec (bunq's API, trimmed): the two operations refused alone are set aside, the third kept", () => {
    const file = "test/fixtures/apis-guru/bunq.com.json";
    const spec = openApiSource(readFileSync(file, "utf8"), "bunq", file);
    const definition = {
      revision: "r",
      operations: spec.operations.map((operation) => ({ ...operation, path: `bunq.${operation.path}` })),
    };
    const { catalog, refused } = createCatalogReport(definition);
    expect(refused.map(({ error }) => error.details.path)).toEqual(["bunq.CREATE_SessionServer", "bunq.READ_User"]);
    for (const { index, error } of refused) {
      const alone = thrown(() =>
        createCatalog({ revision: "r", operations: [definition.operations[index] as OperationDefinition] }),
      );
      expect(error.message).toBe(alone.message);
      expect(error.message).toMatch(/over the response bound/);
    }
    const kept = definition.operations.filter((_, index) => !refused.some((refusal) => refusal.index === index));
    expect(catalog.list({}).results.map(({ path }) => path)).toEqual(["bunq.CREATE_Installation"]);
    expect(catalog.stamp()).toBe(createCatalog({ revision: "r", operations: kept }).stamp());
  });
});
