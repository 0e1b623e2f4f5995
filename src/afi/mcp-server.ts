import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Forage } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import { toAfiError } from "./afi-error.js";
import type { AfiCore } from "./types.js";

/** The URI of the manifest as an MCP resource (AFI transports/mcp, "Manifest as MCP resource"). */
export const MANIFEST_RESOURCE_URI = "afi://manifest.json";

/** What the MCP server serves: one revision's AFI core and the Forage view its tree was built over. */
export interface AfiMcpServerOptions {
  readonly afi: AfiCore;
  readonly forage: Forage;
  /** The namespace served as the root, if any: Forage's tools see only it, and take names relative to it. */
  readonly subtree: string | undefined;
  readonly version: string;
}

const entrySchema = z.object({
  path: z.string(),
  type: z.enum(["file", "directory", "symlink"]),
  size: z.number(),
  mtime: z.string(),
  ctime: z.string(),
  content_type: z.string(),
  target: z.string().optional(),
});
const matchSchema = z.object({
  path: z.string(),
  line: z.number(),
  column: z.number(),
  text: z.string(),
  context: z.object({ before: z.array(z.string()), after: z.array(z.string()) }),
});
const summarySchema = z.object({
  path: z.string(),
  description: z.string(),
  sample: z.string(),
  capabilities: z.array(z.string()),
  score: z.number(),
  peers: z.array(z.string()).optional(),
});
const searchQuerySchema = z.union([
  z.string().describe("exact mode: a case-sensitive substring"),
  z
    .object({ regex: z.string(), flags: z.string().optional() })
    .describe("regex mode (RE2 semantics), flags of i m s u"),
  z.object({ semantic: z.string(), threshold: z.number().optional() }).describe("not declared: refused as unsupported"),
]);
const pathField = z.string().describe("absolute POSIX path, e.g. / or /computers/local/files/read.d.ts");

/**
 * An MCP server with AFI's five tools, the manifest resource and Forage's own
 * tools (docs/afi.md, "MCP transport"). AFI and Forage failures are tool
 * results with `isError` and the structured error, never protocol errors.
 */
export function createAfiMcpServer(options: AfiMcpServerOptions): McpServer {
  const { afi, forage } = options;
  const server = new McpServer({ name: "forage", version: options.version });
  server.registerResource(
    "afi-manifest",
    MANIFEST_RESOURCE_URI,
    {
      title: "AFI manifest",
      description: "The AFI discovery manifest (/.afi/manifest.json)",
      mimeType: "application/json",
    },
    () => ({
      contents: [{ uri: MANIFEST_RESOURCE_URI, mimeType: "application/json", text: JSON.stringify(afi.manifest()) }],
    }),
  );
  server.registerTool(
    "afi.manifest",
    { description: "Return the AFI discovery manifest: profile, capabilities, search modes, limits.", inputSchema: {} },
    () => answer(() => ({ ...afi.manifest() })),
  );
  server.registerTool(
    "afi.stat",
    {
      description: "Return the Entry (type, size, times, content_type) of one path; symlinks are not followed.",
      inputSchema: { path: pathField },
      outputSchema: entrySchema.shape,
    },
    ({ path }) => answer(() => ({ ...afi.stat(path) })),
  );
  server.registerTool(
    "afi.list",
    {
      description: "List a directory's direct children as Entries, a page at a time; pass next_cursor back as cursor.",
      inputSchema: {
        path: pathField,
        limit: z.number().int().optional().describe("entries per page, default and most 1000"),
        cursor: z.string().optional().describe("next_cursor of the previous page"),
        glob: z.string().optional().describe("fnmatch pattern on child names, e.g. *.d.ts"),
      },
      outputSchema: { entries: z.array(entrySchema), next_cursor: z.string().optional() },
    },
    ({ path, ...rest }) => answer(() => ({ ...afi.list(path, rest) })),
  );
  server.registerTool(
    "afi.read",
    {
      description: "Read a file's bytes (base64), optionally a range; eof says whether the range reached the end.",
      inputSchema: {
        path: pathField,
        offset: z.number().int().optional().describe("first byte, default 0"),
        length: z.number().int().optional().describe("most bytes, default the rest of the file (at most 4 MiB)"),
      },
      outputSchema: { bytes: z.string().describe("base64"), content_type: z.string(), eof: z.boolean() },
    },
    ({ path, ...range }) => {
      try {
        const read = afi.read(path, range);
        const bytes = Buffer.from(read.bytes).toString("base64");
        return {
          content: [
            {
              type: "resource",
              resource: { uri: `afi://${read.path}`, mimeType: read.content_type, blob: bytes },
            },
          ],
          structuredContent: { bytes, content_type: read.content_type, eof: read.eof },
        };
      } catch (error) {
        return failure(error);
      }
    },
  );
  server.registerTool(
    "afi.search",
    {
      description:
        "Find lines in every file: exact substring or regex, matches in (path, line) order; pass next_cursor back as cursor.",
      inputSchema: {
        query: searchQuerySchema,
        path: z.string().optional().describe("search only this subtree, default /"),
        limit: z.number().int().optional().describe("matches per page, default 100, at most 1000"),
        cursor: z.string().optional(),
      },
      outputSchema: { matches: z.array(matchSchema), next_cursor: z.string().optional() },
    },
    async ({ query, ...rest }) => answerAsync(async () => ({ ...(await afi.search(query, rest)) })),
  );
  registerForageTools(server, forage, options.subtree);
  return server;
}

/** Forage's own discovery tools, in the `forage.` namespace beside AFI's (AFI transports/mcp, "Composition"). */
function registerForageTools(server: McpServer, forage: Forage, subtree: string | undefined): void {
  const within = (name: string | undefined): string | undefined =>
    subtree === undefined ? name || undefined : name ? `${subtree}.${name}` : subtree;
  server.registerTool(
    "forage.search",
    {
      description: "Rank operations by how well they match words (BM25F), best first, with a sample call each.",
      inputSchema: {
        query: z.string().describe("what you want to do, e.g. 'read a file'"),
        limit: z.number().int().optional().describe("most results, 1 to 50, default 10"),
        namespace: z.string().optional().describe("only under this namespace (dotted)"),
      },
      outputSchema: { results: z.array(summarySchema), catalogStamp: z.string() },
    },
    ({ query, limit, namespace }) =>
      answer(() => ({
        ...forage.search(query, { ...(limit === undefined ? {} : { limit }), namespace: within(namespace) }),
      })),
  );
  server.registerTool(
    "forage.list",
    {
      description: "List operations in catalog order, a page at a time; pass nextCursor back as cursor.",
      inputSchema: {
        namespace: z.string().optional().describe("only under this namespace (dotted)"),
        limit: z.number().int().optional().describe("page size, 1 to 50, default 50"),
        cursor: z.string().optional(),
      },
      outputSchema: {
        results: z.array(summarySchema),
        total: z.number(),
        catalogStamp: z.string(),
        nextCursor: z.string().nullable(),
      },
    },
    ({ namespace, limit, cursor }) =>
      answer(() => ({
        ...forage.list({
          namespace: within(namespace),
          ...(limit === undefined ? {} : { limit }),
          cursor: cursor ?? null,
        }),
      })),
  );
  server.registerTool(
    "forage.describe",
    {
      description:
        "Describe an operation (JSON Schemas, TypeScript declaration) or a namespace (its operations' declarations).",
      inputSchema: {
        path: z.string().describe("an operation path or a namespace, dotted; empty for the whole catalog"),
        select: z.array(z.string()).optional().describe("for a namespace: only these operations, relative to it"),
      },
    },
    ({ path, select }) =>
      answer(() => ({ ...forage.describe(within(path) ?? "", select === undefined ? {} : { select }) })),
  );
}

/** A successful result: the structured content, and the same as JSON text for clients that read only text. */
function success(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A tool error whose content is the structured error as JSON: AFI's `Error`, or a
 * ForageError's code and message. It is not `structuredContent`, which clients
 * check against the tool's output schema, errors included.
 */
function failure(error: unknown): CallToolResult {
  const payload =
    error instanceof ForageError
      ? { code: error.code, message: error.message, ...error.details }
      : { ...toAfiError(error).payload };
  return { content: [{ type: "text", text: JSON.stringify(payload) }], isError: true };
}

function answer(run: () => Record<string, unknown>): CallToolResult {
  try {
    return success(run());
  } catch (error) {
    return failure(error);
  }
}

async function answerAsync(run: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return success(await run());
  } catch (error) {
    return failure(error);
  }
}
