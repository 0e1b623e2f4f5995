// docs/search.md, "Case never changes ranking" (with "No word spans a space"), "Every script", "Exact
// names first" and, for the words the stemmer would fold into others, "Abbreviations meet their words":
// the laws of search, checked through createCatalog(...).search on small catalogs and, for case, as a
// property over seeded generated catalogs and queries.
import { describe, expect, test } from "vitest";
import { splitProseWords, splitQueryWords, splitWords } from "../src/search/tokenize.js";
import { catalogOf, type SearchOperation as Operation } from "./helpers/search-catalog.js";

const ranked = (catalog: ReturnType<typeof catalogOf>, query: string) =>
  catalog.search(query, { limit: 50 }).results.map((result) => [result.path, result.score] as const);
const first = (catalog: ReturnType<typeof catalogOf>, query: string) => catalog.search(query).results[0]?.path;

describe('docs/search.md, "Case never changes ranking"', () => {
  test.each([
    ["camelCase", "getUserById", ["get", "user", "by", "id"]],
    ["snake_case", "list_all_deals", ["list", "all", "deals"]],
    ["acronym plural at the end", "getURLs", ["get", "urls"]],
    ["acronym plural alone", "GIFs", ["gifs"]],
    ["acronym plural inside", "listIDsForUser", ["list", "ids", "for", "user"]],
    ["acronym before a word", "HTTPServer", ["http", "server"]],
    ["acronym in the middle", "listAPIKeys", ["list", "api", "keys"]],
    ["digits after a letter", "v2Users", ["v", "2", "users"]],
    ["digits at the end", "oauth2", ["oauth", "2"]],
    ["possessive", "the user's profile", ["the", "user", "profile"]],
    ["combining marks stay in the word", "मौसम पूर्वानुमान", ["मौसम", "पूर्वानुमान"]],
  ])("%s: %s → %j", (_case, text, words) => {
    expect(splitWords(text)).toEqual(words);
  });

  test.each([
    ["GIFs", "gifs", "GIFS"],
    ["URLs", "urls", "URLS"],
    ["IDs", "ids", "IDS"],
    ["APIs", "apis", "APIS"],
    ["PDFs", "pdfs", "PDFS"],
  ])("%s, %s and %s are one word, in queries and in documents", (mixed, lower, upper) => {
    expect(new Set([mixed, lower, upper].map((form) => splitWords(form).join(" "))).size).toBe(1);
    expect(new Set([mixed, lower, upper].map((form) => splitQueryWords(form).join(" "))).size).toBe(1);
  });

  test("an acronym plural ranks the same in any case: Giphy's Trending_GIFs comes first", () => {
    const catalog = catalogOf([
      { path: "giphy.Trending_GIFs", description: "Fetch GIFs currently trending online, hand-picked by GIPHY." },
      { path: "giphy.Trending_Stickers", description: "Fetch the stickers currently trending online." },
      { path: "giphy.Search_GIFs", description: "Search all GIPHY GIFs for a word or phrase." },
      { path: "news.trending_topics", description: "Topics trending in the news today, and trending searches." },
    ]);
    for (const query of ["trending gifs", "Trending GIFs", "TRENDING GIFS", "trending gif"])
      expect(first(catalog, query)).toBe("giphy.Trending_GIFs");
  });

  test.each([
    ["JavaScript", ["java", "script", "javascript"]],
    ["on GitHub and YouTube", ["on", "git", "hub", "and", "you", "tube", "github", "youtube"]],
    ["sign in with OAuth", ["sign", "in", "with", "o", "auth", "oauth"]],
    ["GIFs and OAuth2 stay as they split", ["gifs", "and", "o", "auth", "2", "stay", "as", "they", "split"]],
  ])("prose: %s → %j", (text, words) => {
    expect(splitProseWords(text)).toEqual(words);
  });

  // docs/search.md, "No word spans a space": what lets each input field be split once per index.
  test.each([
    ["camelCase and acronym plurals", "getUserIDs", "listURLs of HTTPServer"],
    ["possessives and negations", "the user's", "don't isn't NASA's"],
    ["digits", "v2", "Users oauth2"],
    ["inner capitals in prose", "JavaScript", "GitHub OAuth"],
    ["a final sigma then the next piece", "ΟΔΟΣ", "Σ ABC"],
    ["a piece that starts with a combining mark", "e", "\u0301clair café"],
    ["unspaced scripts", "天気予報", "東京の天気"],
    ["ideographs that fold to Han beside Han", "🈚🈯🈲", "東京"],
    ["a letter and a fold to Katakana beside Han", "abc🈁", "天気"],
    ["a combining mark whose scripts include unspaced ones, beside Han", "ẖ", "天気"],
    ["full-width letters", "ＧＩＦｓ", "ＡＰＩ"],
  ])("%s: a text split whole gives the words of its pieces split alone", (_case, first, second) => {
    const sorted = (words: string[]) => [...words].sort();
    expect(sorted(splitProseWords(`${first} ${second}`))).toEqual(
      sorted([...splitProseWords(first), ...splitProseWords(second)]),
    );
    expect(splitWords(`${first} ${second}`)).toEqual([...splitWords(first), ...splitWords(second)]);
  });

  test("a word written with inner capitals in a description is found by its one word, in any case, and by its parts", () => {
    const catalog = catalogOf([
      { path: "browser.evaluate", description: "Execute JavaScript in the browser console" },
      {
        path: "reports.cancel_report",
        description: "Cancel the execution of a report. Cancel the execution of a pending report.",
      },
      { path: "coffee.brew", description: "Brew a cup of Java from the script of a barista" },
      // The catalog holds "javascript" as one word too, so a query's "javascript" is not split into its parts.
      {
        path: "docs.style_guide",
        description: "The style guide for code in javascript, python and go: names and tests.",
      },
    ]);
    for (const query of ["execute javascript", "Execute JavaScript", "EXECUTE JAVASCRIPT", "execute java script"])
      expect(first(catalog, query), query).toBe("browser.evaluate");
  });

  test("as a property: a query, its lower case and its upper case give the same results, same order, same scores", () => {
    const random = seededRandom(20261201);
    for (let round = 0; round < 40; round += 1) {
      const operations = generatedOperations(random, 30);
      const catalog = catalogOf(operations);
      for (let index = 0; index < 25; index += 1) {
        const query = generatedQuery(random, operations);
        const expected = ranked(catalog, query);
        expect(ranked(catalog, query.toLowerCase()), query).toEqual(expected);
        expect(ranked(catalog, query.toUpperCase()), query).toEqual(expected);
      }
    }
  });
});

describe('docs/search.md, "Every script"', () => {
  const catalog = catalogOf([
    { path: "almanac.get_almanac", description: "获取指定公历时间（默认今天）的黄历信息" },
    { path: "weather.forecast", description: "获取指定城市的天气预报" },
    { path: "weather.jp_forecast", description: "指定された都市の天気予報を取得します" },
    { path: "weather.th_forecast", description: "พยากรณ์อากาศวันนี้ของเมืองที่ระบุ" },
    { path: "calendar.events.list", description: "List the events of a calendar." },
  ]);

  test.each([
    ["黄历", "almanac.get_almanac"],
    ["黄历信息", "almanac.get_almanac"],
    ["今天的黄历", "almanac.get_almanac"],
    ["城市天气预报", "weather.forecast"],
    ["天気予報を取得", "weather.jp_forecast"],
    ["都市の天気", "weather.jp_forecast"],
    ["อากาศ", "weather.th_forecast"],
    ["获取 weather", "weather.forecast"],
    ["calendar 事件", "calendar.events.list"],
  ])("%s finds %s first", (query, expected) => {
    expect(first(catalog, query)).toBe(expected);
  });

  test("a Chinese query matches nothing it does not share a word with", () => {
    expect(catalog.search("股票").results).toEqual([]);
  });
});

describe('docs/search.md, "Exact names first"', () => {
  const catalog = catalogOf([
    { path: "mail.send_email", description: "Deliver a message." },
    { path: "mail.sendEmailLater", description: "Schedule a message for later delivery." },
    { path: "crm.contacts.getUserById", description: "One contact." },
    {
      path: "mail.outbox.flush",
      description: "Send email, send every queued email, send email now: email sending for the outbox.",
    },
    { path: "users.lookup", description: "Get a user by id; get the user by their id or get user by email." },
  ]);

  test.each([
    ["send_email", "mail.send_email"],
    ["sendEmail", "mail.send_email"],
    ["send email", "mail.send_email"],
    ["SEND EMAIL", "mail.send_email"],
    ["Send Email", "mail.send_email"],
    ["sendemail", "mail.send_email"],
    ["mail.send_email", "mail.send_email"],
    ["MAIL.SEND_EMAIL", "mail.send_email"],
    ["send email later", "mail.sendEmailLater"],
    ["get user by id", "crm.contacts.getUserById"],
    ["GetUserByID", "crm.contacts.getUserById"],
    ["crm.contacts.getUserById", "crm.contacts.getUserById"],
  ])("%s → %s first", (query, expected) => {
    expect(first(catalog, query)).toBe(expected);
  });

  test("a full path outranks a last segment; operations sharing a last segment all come first", () => {
    const paths = catalogOf([
      { path: "todo.lists", description: "List, list and list again: every list of lists." },
      { path: "z.aList", description: "A list." },
      { path: "a.list", description: "First." },
      { path: "b.list", description: "Second." },
    ]);
    const order = (query: string) => paths.search(query).results.map((result) => result.path);
    expect(order("a.list").slice(0, 2)).toEqual(["a.list", "z.aList"]);
    expect(order("list").slice(0, 2).sort()).toEqual(["a.list", "b.list"]);
  });
});

describe('docs/search.md, "Abbreviations meet their words": words the stemmer would fold into others', () => {
  const catalog = catalogOf([
    { path: "keys.create", description: "Create an API key.", capabilities: ["writes over HTTP: POST /keys"] },
    { path: "relic.settings", description: "Returns all New Relic settings." },
    { path: "web.search", description: "Search the web for news and articles." },
    { path: "reports.generate", description: "Generate a report." },
    { path: "settings.general", description: "General settings of the account." },
    { path: "profile.business", description: "The business profile." },
    { path: "status.busy", description: "Whether the user is busy." },
    { path: "issues.severity", description: "The severity of an issue." },
  ]);
  const paths = (query: string) => catalog.search(query, { limit: 50 }).results.map((result) => result.path);

  test("news is not new: neither the word nor the verb that asks for POST", () => {
    expect(paths("latest news")).toEqual(["web.search"]);
    expect(paths("news")).toEqual(["web.search"]);
    expect(paths("new").sort()).toEqual(["keys.create", "relic.settings"]);
  });

  test("general is not generate, business is not busy; their other forms still meet them", () => {
    expect(paths("generate")).toEqual(["reports.generate"]);
    expect(paths("generating reports")).toEqual(["reports.generate"]);
    expect(paths("generals")).toEqual(["settings.general"]);
    expect(paths("generally")).toEqual(["settings.general"]);
    expect(paths("generalized settings")[0]).toBe("settings.general");
    expect(paths("generalized settings")).not.toContain("reports.generate");
    expect(paths("businesses")).toEqual(["profile.business"]);
    expect(paths("busy")).toEqual(["status.busy"]);
  });

  test("several is not severity", () => {
    expect(paths("several")).toEqual([]);
    expect(paths("severity")).toEqual(["issues.severity"]);
  });
});

/** mulberry32: a small seeded generator, so every run checks the same catalogs and queries. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}
type Random = ReturnType<typeof seededRandom>;

const WORDS = [
  "user",
  "users",
  "api",
  "key",
  "url",
  "gif",
  "id",
  "http",
  "server",
  "email",
  "send",
  "list",
  "get",
  "oauth2",
  "v2",
  "pdf",
  "invoice",
  "report",
  "straße",
  "İstanbul",
  "café",
  "天气",
  "预报",
  "获取",
  "天気",
  "取得",
  "user's",
  "don't",
  "trending",
  "ids",
  "urls",
  "apis",
  "gifs",
  "pdfs",
  "ß",
];

/** Path segments are ASCII identifiers, so names draw on the ASCII words only. */
const NAME_WORDS = WORDS.filter((word) => /^[A-Za-z0-9']+$/.test(word));

/** One word in a random case: as it is, lower, upper, capitalised, or an acronym plural ("GIFs"). */
function cased(random: Random, word: string): string {
  switch (Math.floor(random.next() * 5)) {
    case 0:
      return word.toLowerCase();
    case 1:
      return word.toUpperCase();
    case 2:
      return word.charAt(0).toUpperCase() + word.slice(1);
    case 3:
      return word.endsWith("s") ? `${word.slice(0, -1).toUpperCase()}s` : word.toUpperCase();
    default:
      return word;
  }
}

/** Joins words as camelCase, snake_case, or glued together. */
function joined(random: Random, words: readonly string[]): string {
  const style = Math.floor(random.next() * 3);
  if (style === 0) return words.map((word) => word.replace(/[^\p{L}\p{N}]/gu, "")).join("_");
  const cleaned = words.map((word) => word.replace(/[^\p{L}\p{N}]/gu, ""));
  return style === 1
    ? cleaned.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join("")
    : cleaned.map((word) => cased(random, word)).join("");
}

function generatedOperations(random: Random, count: number): Operation[] {
  const operations: Operation[] = [];
  for (let index = 0; index < count; index += 1) {
    const segment = joined(random, [random.pick(NAME_WORDS), random.pick(NAME_WORDS)]);
    const words = Array.from({ length: 3 + Math.floor(random.next() * 6) }, () => cased(random, random.pick(WORDS)));
    operations.push({ path: `ns${index % 4}.op${index}.${segment}`, description: `${words.join(" ")} (${index}).` });
  }
  return operations;
}

/** A query: some words in random case, a run-together name, an operation's last segment, or its full path. */
function generatedQuery(random: Random, operations: readonly Operation[]): string {
  const operation = random.pick(operations);
  switch (Math.floor(random.next() * 4)) {
    case 0:
      return operation.path;
    case 1:
      return operation.path.slice(operation.path.lastIndexOf(".") + 1);
    case 2:
      return joined(random, [random.pick(WORDS), random.pick(WORDS)]);
    default:
      return Array.from({ length: 1 + Math.floor(random.next() * 4) }, () => cased(random, random.pick(WORDS))).join(
        " ",
      );
  }
}
