import { isDeepStrictEqual } from "node:util";
import { evidenceJson } from "./afi-client.js";
import { manifestSchema, PROFILE_OPERATIONS, schemaProblem } from "./afi-schemas.js";
import { expectCode, fail, okValue, type Scenario } from "./scenario.js";

const MANIFEST_PATH = "/.afi/manifest.json";

/** Discovery (AFI basic/discovery): where the manifest is, its schema, and that it is honest. */
export const DISCOVERY_SCENARIOS: readonly Scenario[] = [
  {
    id: "discovery-01",
    group: "Discovery",
    title: "the manifest is served where the transport puts it",
    level: 0,
    run: async ({ manifestReply }) => {
      const value = okValue(manifestReply, "the manifest");
      if (value === null || typeof value !== "object" || Array.isArray(value))
        fail("the manifest is not a JSON object", manifestReply);
      return "pass";
    },
  },
  {
    id: "discovery-02",
    group: "Discovery",
    title: "the manifest matches the schema",
    level: 0,
    run: async ({ manifestReply }) => {
      const problem = schemaProblem(manifestSchema, okValue(manifestReply, "the manifest"));
      if (problem !== undefined) fail(`the manifest does not match: ${problem}`, manifestReply);
      return "pass";
    },
  },
  {
    id: "discovery-03",
    group: "Discovery",
    title: "capabilities hold every operation the declared profile requires",
    level: 0,
    run: async ({ manifest, manifestReply }) => {
      const missing = (PROFILE_OPERATIONS[manifest.profile] ?? []).filter(
        (operation) => !manifest.capabilities.includes(operation),
      );
      if (missing.length > 0)
        fail(`profile ${manifest.profile} requires ${missing.join(", ")}, not in capabilities`, manifestReply);
      return "pass";
    },
  },
  {
    id: "discovery-04",
    group: "Discovery",
    title: 'search.modes includes "exact" at profile 2 and above',
    level: 2,
    run: async ({ manifest, manifestReply }) => {
      if (!manifest.search.modes.includes("exact"))
        fail(`search.modes is ${JSON.stringify(manifest.search.modes)}`, manifestReply);
      return "pass";
    },
  },
  {
    id: "discovery-05",
    group: "Discovery",
    title: "the kit tolerates unknown manifest fields",
    level: 0,
    run: async ({ manifestReply }) => {
      // The kit's own forward compatibility: the same manifest with fields of a later AFI still passes.
      const later = { ...(okValue(manifestReply, "the manifest") as object), "x-later": 1, later_field: [] };
      const problem = schemaProblem(manifestSchema, later);
      if (problem !== undefined) fail(`the kit refused a manifest with unknown fields: ${problem}`);
      return "pass";
    },
  },
  {
    id: "discovery-06",
    group: "Discovery",
    title: `the manifest is also readable with read at ${MANIFEST_PATH}`,
    level: 1,
    only: { transports: ["http", "mcp"], because: "over FUSE the file is the manifest (discovery-01)" },
    run: async ({ client, manifestReply }) => {
      const reply = await client.read(MANIFEST_PATH);
      const read = okValue(reply, `the bytes of ${MANIFEST_PATH}`);
      let value: unknown;
      try {
        value = JSON.parse(new TextDecoder().decode(read.bytes));
      } catch {
        fail(`${MANIFEST_PATH} is not JSON`, reply);
      }
      if (!isDeepStrictEqual(value, okValue(manifestReply, "the manifest")))
        fail(`${MANIFEST_PATH} differs from the manifest: ${evidenceJson(value)}`, reply);
      return "pass";
    },
  },
  {
    id: "discovery-07",
    group: "Discovery",
    title: "each declared operation is an afi.<operation> tool with an input schema",
    level: 0,
    only: { transports: ["mcp"], because: "only MCP lists tools" },
    run: async ({ manifest, mcp }) => {
      const tools = mcp?.tools ?? new Map();
      const operations = ["manifest", ...manifest.capabilities];
      const missing = operations.filter((operation) => tools.get(`afi.${operation}`)?.inputSchema?.type !== "object");
      if (missing.length > 0)
        fail(`no afi.* tool with an input schema for ${missing.join(", ")}; tools: ${[...tools.keys()].join(", ")}`);
      return "pass";
    },
  },
  {
    id: "discovery-08",
    group: "Discovery",
    title: "the manifest is also the resource afi://manifest.json",
    level: 0,
    should: true,
    only: { transports: ["mcp"], because: "only MCP has resources" },
    run: async ({ mcp, manifestReply }) => {
      if (mcp === undefined) fail("no MCP session");
      const reply = await mcp.readResource("afi://manifest.json");
      if (!isDeepStrictEqual(okValue(reply, "the manifest"), okValue(manifestReply, "the manifest")))
        fail("the resource differs from afi.manifest", reply);
      return "pass";
    },
  },
  {
    id: "discovery-09",
    group: "Discovery",
    title: "an operation left out of capabilities is refused as unsupported",
    level: 0,
    only: { transports: ["http", "mcp"], because: "over FUSE an undeclared search has no control file to write" },
    run: async ({ client, manifest }) => {
      if (manifest.capabilities.includes("search")) return { skip: "search is declared; no operation to refuse" };
      expectCode(await client.search("afi"), "unsupported");
      return "pass";
    },
  },
];
