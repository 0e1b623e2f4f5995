// docs/search.md, "What the ranking is": search ranks matching operations over path words, description,
// capability notes, instructions and input field names and descriptions.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, createExampleCatalog, ForageError, MAX_QUERY_LENGTH } from "../src/index.js";

const example = createExampleCatalog();
const top = (query: string, options = {}) => example.search(query, options).results.map((result) => result.path);

describe("ranking", () => {
  test.each([
    ["delete a file", "computers.local.files.delete"],
    ["send an email to a colleague", "mail.messages.send"],
    ["hourly weather forecast", "weather.forecast.hourly"],
    ["schedule an event and invite people", "calendar.events.create"],
    ["merge pull request", "github.repos.pulls.merge"],
    ["refund a customer payment", "payments.refunds.create"],
    ["kill process", "computers.local.processes.kill"],
    ["air quality", "weather.air_quality.current"],
    ["detect language", "translate.text.detect_language"],
    ["directions to the station by transit", "maps.routes.directions"],
  ])("%s → %s first", (query, expected) => {
    expect(top(query)[0]).toBe(expected);
  });

  test("scores are positive and descending", () => {
    const results = example.search("list files in a directory", { limit: 50 }).results;
    expect(results.length).toBeGreaterThan(1);
    for (const [index, result] of results.entries()) {
      expect(result.score).toBeGreaterThan(0);
      if (index > 0) expect(result.score).toBeLessThanOrEqual(results[index - 1]!.score);
    }
  });

  test("camelCase and snake_case path segments are split", () => {
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "crm.contacts.getUserById", input: z.object({ id: z.string() }) },
        { path: "crm.contacts.list_all_deals", input: z.object({}) },
      ],
    });
    expect(catalog.search("user").results[0]!.path).toBe("crm.contacts.getUserById");
    expect(catalog.search("deals").results[0]!.path).toBe("crm.contacts.list_all_deals");
  });

  test("capability notes, instructions and input fields are searched", () => {
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "ops.alpha", input: z.object({}), capabilities: ["spends money"] },
        { path: "ops.beta", input: z.object({}), instructions: "Needs a webhook secret." },
        {
          path: "ops.gamma",
          input: z.object({ latitude: z.number(), note: z.string().describe("Free-form memo for accountants.") }),
        },
        { path: "ops.delta", input: z.object({}), description: "Nothing relevant." },
      ],
    });
    expect(catalog.search("money").results[0]!.path).toBe("ops.alpha");
    expect(catalog.search("webhook").results[0]!.path).toBe("ops.beta");
    expect(catalog.search("latitude").results[0]!.path).toBe("ops.gamma");
    expect(catalog.search("accountants memo").results[0]!.path).toBe("ops.gamma");
  });

  test("an exact path ranks that operation first", () => {
    expect(top("mail.drafts.create")[0]).toBe("mail.drafts.create");
  });

  test("conversational filler, contractions and possessives match nothing on their own", () => {
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "mail.messages.send", input: z.object({}), description: "Send an email." },
        { path: "notes.items.list", input: z.object({}), description: "Just about any note, listed by its author." },
        { path: "shop.t_shirts.design", input: z.object({}), description: "Design a shirt." },
        { path: "space.nasa.images", input: z.object({}), description: "Search the image archive." },
      ],
    });
    const paths = (query: string) => catalog.search(query).results.map((result) => result.path);
    // "just", "some", "about", "it's" and "don't" are filler: only the email words count.
    expect(paths("Could you just send some email about it? It's urgent, don't wait")).toEqual(["mail.messages.send"]);
    // "NASA's" is the word "nasa"; no stray "s" or "t" term is left to match "t_shirts".
    expect(paths("NASA's images, don't you think?")).toEqual(["space.nasa.images"]);
  });

  test("equal scores keep list order, even past the first page", () => {
    // Outputs differ, so no two are equivalent; outputs are not searched, so all score the same.
    const operations = Array.from({ length: 60 }, (_, index) => ({
      path: `zoo.animals.a${String(index).padStart(2, "0")}`,
      input: z.object({}),
      output: z.object({ [`field${index}`]: z.string() }),
      description: "Feed the animal.",
    }));
    const catalog = createCatalog({ revision: "r", operations: [...operations].reverse() });
    const results = catalog.search("feed animals", { limit: 50 }).results;
    expect(results.map((result) => result.path)).toEqual(operations.slice(0, 50).map((operation) => operation.path));
    expect(new Set(results.map((result) => result.score)).size).toBe(1);
  });

  test("an unknown word matches nothing; partial words complete", () => {
    expect(example.search("xylophone").results).toEqual([]);
    expect(example.search("").results).toEqual([]);
    expect(top("calend")[0]).toMatch(/^calendar\./);
  });
});

describe("merging and options", () => {
  test("equivalent operations merge into one result with peers", () => {
    const input = z.object({ city: z.string() });
    const catalog = createCatalog({
      revision: "r",
      operations: [
        { path: "weather.v1.now", input, description: "Current weather in a city." },
        { path: "weather.v2.now", input, description: "Current weather in a city." },
        { path: "weather.v2.later", input, description: "Weather forecast in a city." },
      ],
    });
    const results = catalog.search("current weather").results;
    expect(results.map((result) => result.path)).toEqual(["weather.v1.now", "weather.v2.later"]);
    expect(results[0]!.peers).toEqual(["weather.v2.now"]);
    expect(results[1]!.peers).toEqual([]);
    expect(catalog.list().total).toBe(3);
  });

  test("namespace narrows search segment-wise", () => {
    for (const path of top("search", { namespace: "apps", limit: 50 })) expect(path.startsWith("apps.")).toBe(true);
    expect(top("open window", { namespace: "apps.bazaar" })[0]).toBe("apps.bazaar.windows.open");
    expect(top("open window", { namespace: "apps.baz" })).toEqual([]);
  });

  test("limit is 1 to 50, and out of range is invalid_argument", () => {
    expect(example.search("file", { limit: 2 }).results).toHaveLength(2);
    for (const limit of [0, 51, 2.5])
      expect(() => example.search("file", { limit })).toThrow(expect.objectContaining({ code: "invalid_argument" }));
  });

  test("an oversized query is refused with invalid_argument before any work", () => {
    expect(() => example.search("a".repeat(MAX_QUERY_LENGTH + 1))).toThrow(ForageError);
    expect(() => example.search(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });

  test("every result carries the catalog stamp and a sample", () => {
    const result = example.search("translate");
    expect(result.catalogStamp).toBe(example.stamp());
    expect(result.results[0]!.sample).toMatch(/^await env\.translate\.text\.\w+\(\{/);
  });
});
