// Hostile specs for the intake bench: each must be refused quickly, before any expensive work.
import { readFileSync } from "node:fs";

const fixtures = new URL("../../../test/fixtures/openapi/", import.meta.url);
const LIMIT = 2 * 1024 * 1024;
const header = "openapi: 3.0.3\ninfo: { title: hostile, version: '1' }\npaths: {}\n";

/** Repeats `unit` to fill the 2 MiB limit (less the header), so each spec is as large as intake reads. */
function fill(unit, prefix = header, suffix = "") {
  const count = Math.floor((LIMIT - prefix.length - suffix.length - 64) / unit.length);
  return `${prefix}${unit.repeat(count)}${suffix}`;
}

/** One mapping with as many distinct keys as fit in 2 MiB. */
function mapLines(prefix) {
  const lines = [];
  let size = prefix.length;
  for (let index = 0; size < LIMIT - 64; index += 1) {
    const line = `  k${index}: v\n`;
    lines.push(line);
    size += line.length;
  }
  return prefix + lines.join("");
}

/** Operations whose bodies all reference one 2,000-node schema: just under the expansion budget, all compiled. */
function compileHeavy() {
  const big = {
    type: "object",
    properties: Object.fromEntries(Array.from({ length: 999 }, (_, index) => [`p${index}`, { type: "string" }])),
  };
  const paths = Object.fromEntries(
    Array.from({ length: 48 }, (_, index) => [
      `/r${index}`,
      {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Big" } } } },
          responses: { 204: { description: "" } },
        },
      },
    ]),
  );
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "heavy", version: "1" },
    paths,
    components: { schemas: { Big: big } },
  });
}

/** Label and builder of each hostile spec. */
export function hostileSpecs() {
  return [
    {
      label: "billion laughs (YAML aliases)",
      build: () => readFileSync(new URL("billion-laughs.yaml", fixtures), "utf8"),
    },
    {
      label: "reference fan-out, 2^24 leaves",
      build: () => readFileSync(new URL("ref-fanout.json", fixtures), "utf8"),
    },
    { label: "2 MiB + 1 byte", build: () => " ".repeat(LIMIT + 1) },
    { label: "JSON nested 1M deep", build: () => `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}` },
    { label: "YAML flow nested 1M deep", build: () => fill("[", `${header}x-deep: `) },
    { label: "YAML compact sequences 1M deep", build: () => fill("- ", `${header}x-deep:\n`) },
    { label: "YAML flow list, ~1M items", build: () => fill("1,", `${header}x-list: [`, "1]") },
    { label: "YAML map, one key per line, 2 MiB", build: () => mapLines(`${header}x-map:\n`) },
    {
      label: "JSON list, ~1M items",
      build: () => fill("1,", '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-list":[', "1]}"),
    },
    { label: "YAML comments only, 2 MiB", build: () => fill("#\n") },
    // Within every bound: what the slowest accepted specs cost.
    {
      label: "accepted: YAML, 245,000 comment lines (just under the token bound)",
      build: () => `${header}${"#\n".repeat(245_000)}`,
    },
    { label: "accepted: 48 operations compiling 96,000 expanded schema nodes", build: compileHeavy },
  ];
}
