// docs/search.md, "An index extended with more documents": an index over a catalog's operations,
// extended with other documents (a mount's not-validated operations), ranks as an index built over
// all of them at once, except that the first documents keep the terms they were weighed with alone.
import { describe, expect, test } from "vitest";
import { searchIndexOf } from "../src/catalog/catalog-view.js";
import { createCatalog, createForage, scaledExampleOperations } from "../src/index.js";
import { type SearchDocument, SearchIndex } from "../src/search/search-index.js";
import { runToEnd } from "../src/slices.js";
import { listAll } from "./helpers/forage-assertions.js";

const QUERIES = ["read a file", "send an email", "weather forecast", "create issue", "calend", "sendemail", "zzz"];

/** Every match of a query, best first, with its score. */
function ranked(index: SearchIndex, query: string): string[] {
  const found: string[] = [];
  index.rank(
    query,
    () => true,
    ({ doc, score }) => found.push(`${doc}:${score}`) > 0,
  );
  return found;
}

function document(path: string, description: string, inputFields: SearchDocument["inputFields"] = []): SearchDocument {
  return { path, description, capabilities: [], instructions: "", inputFields };
}

/** The scaled example's operations as documents, one in three with an HTTP note (so verbs meet methods). */
const documents: SearchDocument[] = scaledExampleOperations(600).map((operation, at) => ({
  path: operation.path,
  description: operation.description ?? "",
  capabilities: at % 3 === 0 ? ["POST /v1/things"] : [],
  instructions: "",
  inputFields: [{ name: `field${at % 7}`, description: `the thing's field number ${at % 7}` }],
}));

describe('docs/search.md, "An index extended with more documents"', () => {
  test("ranks every query with the documents and scores of an index built over all of them", () => {
    const [head, tail] = [documents.slice(0, 400), documents.slice(400)];
    const extended = runToEnd(SearchIndex.build(head).extendedSteps(tail));
    const whole = SearchIndex.build(documents);
    expect(extended.size).toBe(documents.length);
    for (const query of QUERIES) expect(ranked(extended, query)).toEqual(ranked(whole, query));
  });

  test("the index extended is unchanged, and its own documents keep their numbers", () => {
    const head = SearchIndex.build(documents.slice(0, 400));
    const before = QUERIES.map((query) => ranked(head, query));
    const extended = runToEnd(head.extendedSteps(documents.slice(400)));
    expect(QUERIES.map((query) => ranked(head, query))).toEqual(before);
    expect(head.size).toBe(400);
    const firstMatch = (index: SearchIndex) => ranked(index, "send an email")[0]?.split(":")[0];
    expect(firstMatch(extended)).toBe(firstMatch(SearchIndex.build(documents)));
  });

  test("a query word run together is split with the words of every document, the first ones and the added ones", () => {
    const head = SearchIndex.build([document("mail.send", "send a message")]);
    const extended = runToEnd(head.extendedSteps([document("calendar.add", "add an appointment to the agenda")]));
    // "message" is a word of the first document only, "appointment" of the added one only.
    expect(
      ranked(extended, "messageappointment")
        .map((match) => match.split(":")[0])
        .sort(),
    ).toEqual(["0", "1"]);
    expect(ranked(head, "messageappointment")).toEqual([]);
  });

  test("the first documents keep their terms: a path segment is not split again by the added documents' words", () => {
    // Alone, "airquality" splits into no known words; built with the second document, it would
    // split into "air" and "quality". Extended, the first document keeps the terms it had.
    const first = document("weather.airquality", "readings near a station");
    const added = document("pollution.report", "air quality report");
    const extended = runToEnd(SearchIndex.build([first]).extendedSteps([added]));
    expect(ranked(extended, "quality").map((match) => match.split(":")[0])).toEqual(["1"]);
    expect(ranked(SearchIndex.build([first, added]), "quality").map((match) => match.split(":")[0])).toEqual([
      "0",
      "1",
    ]);
    // The added documents' own segments split with every document's words, as in a whole build.
    const reversed = runToEnd(SearchIndex.build([added]).extendedSteps([first]));
    expect(
      ranked(reversed, "quality")
        .map((match) => match.split(":")[0])
        .sort(),
    ).toEqual(["0", "1"]);
  });
});

describe("the index a catalog view searches with, shared for extending (searchIndexOf)", () => {
  test("numbers each visible operation as its index does, in a whole catalog and in a narrowed view", () => {
    const catalog = createCatalog({ revision: "r", operations: scaledExampleOperations(300) });
    // Two tenants apart in list order, so the narrowed view's operations are not contiguous.
    const narrowed = createForage(catalog, { bound: ["tenant0001.**", "tenant0003.mail.**"] });
    for (const view of [catalog, narrowed]) {
      const shared = searchIndexOf(view);
      if (shared === undefined) throw new Error("a catalog's view shares its index");
      const index = runToEnd(shared.steps);
      const paths = listAll(view).map((summary) => summary.path);
      expect(paths.length).toBeGreaterThan(5);
      for (const path of paths) {
        // A query that is an operation's full path ranks it first (docs/search.md, "Exact names first").
        const top = ranked(index, path)[0]?.split(":")[0];
        expect(top, path).toBe(String(shared.docOf(path)));
      }
      expect(shared.docOf("no.such.operation")).toBeUndefined();
    }
    expect(searchIndexOf(narrowed)?.docOf("tenant0002.computers.local.files.read")).toBeUndefined();
    expect(searchIndexOf(catalog)?.docOf("tenant0002.computers.local.files.read")).toBeDefined();
  });
});
