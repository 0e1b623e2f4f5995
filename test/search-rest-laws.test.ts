// docs/search.md, "HTTP methods answer verbs" and "Abbreviations meet their words": checked on real public
// APIs (test/fixtures/apis-guru, with their sources and licences), read the way forage mount reads a spec
// (src/sources/openapi-source.ts), so each operation carries its "reads/writes over HTTP: METHOD /path" note.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog } from "../src/index.js";
import { openApiSource } from "../src/sources/openapi-source.js";

type Catalog = ReturnType<typeof createCatalog>;
const catalogs = new Map<string, Catalog>();

/** The catalog of one vendored spec, every operation under the namespace `api`; built once per file. */
function specCatalog(file: string): Catalog {
  let catalog = catalogs.get(file);
  if (catalog === undefined) {
    const text = readFileSync(new URL(`fixtures/apis-guru/${file}`, import.meta.url), "utf8");
    const { operations } = openApiSource(text, "api", file);
    catalog = createCatalog({
      revision: "r",
      operations: operations.map((operation) => ({ ...operation, path: `api.${operation.path}` })),
    });
    catalogs.set(file, catalog);
  }
  return catalog;
}

/** The top results of a query: each operation's name and the HTTP method and path of its note. */
function top(file: string, query: string, limit = 5): { name: string; http: string }[] {
  return specCatalog(file)
    .search(query, { limit })
    .results.map((result) => ({
      name: result.path.slice("api.".length),
      http: (result.capabilities[0] ?? "").replace(/^.*over HTTP: /, ""),
    }));
}
const names = (file: string, query: string, limit = 5) => top(file, query, limit).map((result) => result.name);

describe('docs/search.md, "HTTP methods answer verbs"', () => {
  test.each([
    ["create a card", "addCards"],
    ["make a new board", "addBoards"],
    ["new webhook", "addWebhooks"],
    ["create a checklist", "addChecklists"],
    ["edit a card's description", "updateCardsDescByIdCard"],
  ])("Trello: %s shows %s in the top 5", (query, expected) => {
    expect(names("trello.com.json", query)).toContain(expected);
  });

  test.each(["create", "add", "new", "post"])("%s ↔ POST: Trello's POST /cards comes first for “… a card”", (verb) => {
    expect(top("trello.com.json", `${verb} a card`)[0]).toEqual({ name: "addCards", http: "POST /cards" });
  });

  test.each(["remove", "delete"])("%s ↔ DELETE: every top-3 answer to “… a label” is a DELETE of a label", (verb) => {
    const answers = top("trello.com.json", `${verb} a label`, 3);
    expect(answers[0]).toEqual({ name: "deleteLabelsByIdLabel", http: "DELETE /labels/{idLabel}" });
    for (const answer of answers) expect(answer.http).toMatch(/^DELETE \S*labels\//i);
  });

  test.each(["change", "edit", "update", "set"])(
    "%s ↔ PUT: Trello's PUT /cards/{idCard}/name comes first for “… a card name”",
    (verb) => {
      expect(top("trello.com.json", `${verb} a card name`)[0]).toEqual({
        name: "updateCardsNameByIdCard",
        http: "PUT /cards/{idCard}/name",
      });
    },
  );

  test("rename ↔ PUT: “rename a card” is answered by PUTs on a card, the card itself first", () => {
    const answers = top("trello.com.json", "rename a card", 3);
    expect(answers[0]).toEqual({ name: "updateCardsByIdCard", http: "PUT /cards/{idCard}" });
    for (const answer of answers) expect(answer.http).toMatch(/^PUT /);
  });

  test.each(["change", "edit"])(
    "%s ↔ PUT and PATCH: PowerDNS's PUT and PATCH of a zone are the top two for “… a zone”",
    (verb) => {
      expect(
        top("powerdns.local.json", `${verb} a zone`, 2)
          .map((answer) => answer.http)
          .sort(),
      ).toEqual(["PATCH /servers/{server_id}/zones/{zone_id}", "PUT /servers/{server_id}/zones/{zone_id}"]);
    },
  );

  test.each([
    ["list cards on a board", "getBoardsCardsByIdBoard"],
    ["all cards on a board", "getBoardsCardsByIdBoard"],
    ["all lists of a board", "getBoardsListsByIdBoard"],
  ])("list / all ↔ GET on a collection: Trello, %s → %s in the top 2", (query, expected) => {
    expect(names("trello.com.json", query, 2)).toContain(expected);
  });

  test("list ↔ GET on a collection: PowerDNS's “list zones” is GET …/zones, not the GET of one zone", () => {
    expect(top("powerdns.local.json", "list zones")[0]).toEqual({
      name: "listZones",
      http: "GET /servers/{server_id}/zones",
    });
  });

  test.each(["get", "show", "read"])(
    "%s ↔ GET on an item: “… a board” puts Trello's GET /boards/{idBoard} in the top 2",
    (verb) => {
      expect(names("trello.com.json", `${verb} a board`, 2)).toContain("getBoardsByIdBoard");
    },
  );

  test("get ↔ GET on an item: PowerDNS's “get a zone” is GET …/zones/{zone_id}, though its name says list", () => {
    expect(top("powerdns.local.json", "get a zone")[0]).toEqual({
      name: "listZone",
      http: "GET /servers/{server_id}/zones/{zone_id}",
    });
  });

  test("English word forms ask for the same action: created, deleting, updates", () => {
    expect(names("trello.com.json", "created card")[0]).toBe("addCards");
    expect(names("trello.com.json", "deleting a label")[0]).toBe("deleteLabelsByIdLabel");
    expect(names("trello.com.json", "updates a card name")[0]).toBe("updateCardsNameByIdCard");
  });

  test("a catalog without HTTP notes ranks verbs as plain words", () => {
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "notes.remove", input: z.object({}), description: "Remove a note." },
        { path: "notes.create", input: z.object({}), description: "Create a note." },
      ],
    });
    expect(catalog.search("create a note").results.map((result) => result.path)).toEqual([
      "notes.create",
      "notes.remove",
    ]);
  });

  test("a note's method and path count only in that shape: text merely mentioning POST is a word", () => {
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "cards.archive", input: z.object({}), capabilities: ["POST /cards is not what this does"] },
        { path: "cards.make", input: z.object({}), capabilities: ["writes over HTTP: POST /cards"] },
      ],
    });
    expect(catalog.search("create a card").results[0]?.path).toBe("cards.make");
  });
});

describe('docs/search.md, "Abbreviations meet their words"', () => {
  test.each([
    ["desc ↔ description", "trello.com.json", "update card description", "updateCardsDescByIdCard"],
    ["org ↔ organization", "trello.com.json", "delete org", "deleteOrganizationsByIdOrg"],
    ["config ↔ configuration", "powerdns.local.json", "server configuration", "getConfig"],
    ["attr ↔ attribute", "traccar.org.json", "delete computed attr", "delete_attributes_computed_id"],
    ["msg ↔ message", "microcks.local.json", "msgs of a test case", "GetMessagesByTestCase"],
    ["repo ↔ repository", "anchore.io.json", "add a repo", "add_repository"],
  ])("%s: %s, “%s” → %s in the top 2", (_law, file, query, expected) => {
    expect(names(file, query, 2)).toContain(expected);
  });

  test("id ↔ identifier: Trello's idLabels operations answer “label identifiers of a card”", () => {
    expect(names("trello.com.json", "label identifiers of a card")).toEqual(
      expect.arrayContaining(["deleteCardsIdLabelsByIdCardByIdLabel", "addCardsIdLabelsByIdCard"]),
    );
  });
});
