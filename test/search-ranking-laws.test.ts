// docs/search.md, "A repeated word weighs more", "A namespace vouches for its operations" and "A long
// input schema does not bury a name": checked through createCatalog(...).search on small catalogs
// shaped like a mount of several MCP servers.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog } from "../src/index.js";
import { catalogOf } from "./helpers/search-catalog.js";

const paths = (catalog: ReturnType<typeof catalogOf>, query: string) =>
  catalog.search(query, { limit: 50 }).results.map((result) => result.path);
const scores = (catalog: ReturnType<typeof catalogOf>, query: string) =>
  new Map(catalog.search(query, { limit: 50 }).results.map((result) => [result.path, result.score]));

describe('docs/search.md, "A repeated word weighs more"', () => {
  const catalog = catalogOf([
    { path: "units.convert_temperature", description: "Temperature readings in kelvin." },
    { path: "units.convert_length", description: "Lengths in metres, for example." },
    { path: "units.convert_pressure", description: "Pressure readings in pascal." },
  ]);

  test("of two words matched once each, the one the request repeats decides the order", () => {
    expect(paths(catalog, "pressure readings, temperature, pressure and pressure again")[0]).toBe(
      "units.convert_pressure",
    );
    expect(paths(catalog, "temperature readings, pressure, temperature and temperature again")[0]).toBe(
      "units.convert_temperature",
    );
  });

  test("a word's other forms count as the word repeated", () => {
    const once = scores(catalog, "reading")?.get("units.convert_temperature") as number;
    const twice = scores(catalog, "reading readings")?.get("units.convert_temperature") as number;
    expect(twice).toBeGreaterThan(once);
  });

  test("the weight saturates: a word written many times weighs less than 8 times one written once", () => {
    const once = scores(catalog, "kelvin").get("units.convert_temperature") as number;
    const many = scores(catalog, Array.from({ length: 100 }, () => "kelvin").join(" ")).get(
      "units.convert_temperature",
    ) as number;
    expect(many).toBeGreaterThan(once * 4);
    expect(many).toBeLessThan(once * 8);
  });

  test("a query whose words are written once ranks and scores as the same words in another order", () => {
    expect([...scores(catalog, "pressure temperature")]).toEqual(
      [...scores(catalog, "temperature pressure")].sort(([, a], [, b]) => b - a),
    );
  });
});

describe('docs/search.md, "A namespace vouches for its operations"', () => {
  // Two servers whose first tools match "address coordinates" alike (same length, same words matched);
  // the contacts one comes first in list order, so BM25F alone would put it first.
  const twoServers = catalogOf([
    { path: "contacts.lookup", description: "Coordinates of a contact's address." },
    { path: "contacts.list", description: "List every contact you saved." },
    { path: "contacts.remove", description: "Remove a contact." },
    { path: "maps.geocode", description: "Coordinates of a street address." },
    { path: "maps.reverse_geocode", description: "The street address at some coordinates." },
    { path: "maps.directions", description: "Directions between two addresses." },
  ]);

  test("of two operations matching alike, the one whose namespace holds other matches comes first", () => {
    const own = scores(
      catalogOf([
        { path: "contacts.lookup", description: "Coordinates of a contact's address." },
        { path: "maps.geocode", description: "Coordinates of a street address." },
      ]),
      "address coordinates",
    );
    expect(own.get("contacts.lookup")).toBe(own.get("maps.geocode"));
    expect(paths(twoServers, "address coordinates").slice(0, 2)).toEqual(["maps.geocode", "maps.reverse_geocode"]);
  });

  test("a stray match in a large namespace gains less than the same match in a small one", () => {
    const unrelated = (namespace: string, count: number) =>
      Array.from({ length: count }, (_, index) => ({
        path: `${namespace}.other_${index}`,
        description: `Unrelated tool number ${index} of ${namespace}.`,
      }));
    const catalog = catalogOf([
      { path: "crm.find_contact", description: "Coordinates of a contact's address." },
      ...unrelated("crm", 7),
      { path: "geo.geocode", description: "Coordinates of a street address." },
      ...unrelated("geo", 1),
    ]);
    expect(paths(catalog, "address coordinates")).toEqual(["geo.geocode", "crm.find_contact"]);
  });

  test("with one namespace nothing is added, and an operation alone in its namespace gains half its score", () => {
    const tools: [string, string][] = [
      ["geocode", "Coordinates of a street address."],
      ["reverse_geocode", "The street address at some coordinates."],
      ["directions", "Directions between two addresses."],
    ];
    // Each namespace is one word, so the documents' lengths are the same in both catalogs.
    const oneNamespace = catalogOf(tools.map(([name, description]) => ({ path: `maps.${name}`, description })));
    const ownNamespaces = catalogOf(
      tools.map(([name, description], index) => ({ path: `${["geo", "rev", "dir"][index]}.${name}`, description })),
    );
    // One query word, so the coverage bonus is 1 and the score is BM25F (plus the namespace's share).
    const alone = [...scores(oneNamespace, "address")];
    const own = [...scores(ownNamespaces, "address")];
    expect(alone).toHaveLength(3);
    expect(own.map(([path]) => path.split(".")[1])).toEqual(alone.map(([path]) => path.split(".")[1]));
    own.forEach(([, score], index) => {
      expect(score).toBeCloseTo(1.5 * (alone[index]?.[1] as number), 10);
    });
  });
});

describe('docs/search.md, "A long input schema does not bury a name"', () => {
  /** An input of `count` fields, each described in words no query below asks for. */
  const fields = (count: number, extra: Record<string, z.ZodType> = {}) =>
    z.object({
      ...Object.fromEntries(
        Array.from({ length: count }, (_, index) => [
          `setting_${index}`,
          z.string().optional().describe(`Optional setting ${index} for paging through and formatting the results.`),
        ]),
      ),
      ...extra,
    });
  const described = "Search recent articles in the press.";
  const catalog = createCatalog({
    revision: "r",
    operations: [
      { path: "alpha.search_news", description: described, input: z.object({}) },
      { path: "beta.search_news", description: described, input: fields(16) },
      {
        path: "gamma.lookup",
        description: "Look a thing up.",
        input: fields(1, { topic: z.string().describe("news") }),
      },
      {
        path: "delta.lookup",
        description: "Look a thing up.",
        input: fields(16, { topic: z.string().describe("news") }),
      },
    ],
  });
  const scores = (query: string) =>
    new Map(catalog.search(query, { limit: 50 }).results.map((result) => [result.path, result.score]));

  test("the same name and description score the same whatever the size of the input schema", () => {
    const found = scores("search news");
    expect(found.get("beta.search_news")).toBeCloseTo(found.get("alpha.search_news") as number, 10);
  });

  test("an input field's words still find an operation, and weigh more in a short schema than in a long one", () => {
    const found = scores("paging");
    expect([...found.keys()].sort()).toEqual(["beta.search_news", "delta.lookup", "gamma.lookup"]);
    const topic = scores("topic");
    expect(topic.get("gamma.lookup") as number).toBeGreaterThan(topic.get("delta.lookup") as number);
  });

  test("a word in the name outranks the same word in a field's description", () => {
    const ranked = catalog.search("news", { limit: 50 }).results.map((result) => result.path);
    expect(ranked.slice(0, 2).sort()).toEqual(["alpha.search_news", "beta.search_news"]);
  });
});
