import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Forage } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
import { toAfiError } from "./afi-error.js";
import { followLinks } from "./follow-links.js";
import type { AfiCore } from "./types.js";

/** The URI of the manifest as an MCP resource (AFI transports/mcp, "Manifest as MCP resource"). */
export const MANIFEST_RESOURCE_URI = "afi://manifest.json";

/**
 * How tools are named (docs/afi.md, "Tool names"): "dotted" as AFI names them (`afi.read`), or
 * "underscored" (`afi_read`) for the clients that refuse a dot in a tool name.
 */
export type ToolNameStyle = "dotted" | "underscored";

/** What the MCP server serves: one revision's AFI core and the Forage view its tree was built over. */
export interface AfiMcpServerOptions {
  readonly afi: AfiCore;
  readonly forage: Forage;
  /** The namespace served as the root, if any: Forage's tools see only it, and take names relative to it. */
  readonly subtree: string | undefined;
  readonly version: string;
  /** Default "dotted". */
  readonly toolNames?: ToolNameStyle;
}

/** Every tool only reads: the catalog and its tree never change through MCP. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A tool's name in `style`: AFI's dotted `afi.read`, or `afi_read`. */
function toolName(dotted: string, style: ToolNameStyle = "dotted"): string {
  return style === "dotted" ? dotted : dotted.replace(".", "_");
}

/** What the server tells a client at initialize: where to start, in the tool names it serves. */
function instructions(style: ToolNameStyle): string {
  const name = (dotted: string) => toolName(dotted, style);
  return [
    "Forage serves a catalog of operations (API endpoints, MCP tools), read-only, as a file tree (AFI profile 2).",
    `To find an operation for a task, call ${name("forage.search")} with the task in words, then ${name("forage.describe")} on a result's path for its TypeScript declaration and JSON Schemas.`,
    `To browse, ${name("afi.list")} "/" and ${name("afi.read")} /README.md; ${name("afi.search")} finds lines in every file.`,
  ].join(" ");
}

/** Bytes as text when they are UTF-8 (the tree holds text; a range may cut a character, and stays a blob). */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
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
  const style = options.toolNames ?? "dotted";
  const name = (dotted: string) => toolName(dotted, style);
  const server = new McpServer({ name: "forage", version: options.version }, { instructions: instructions(style) });
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
    name("afi.manifest"),
    {
      annotations: READ_ONLY,
      description: "Return the AFI discovery manifest: profile, capabilities, search modes, limits.",
      inputSchema: {},
    },
    () => answer(() => ({ ...afi.manifest() })),
  );
  server.registerTool(
    name("afi.stat"),
    {
      annotations: READ_ONLY,
      description: "Return the Entry (type, size, times, content_type) of one path; symlinks are not followed.",
      inputSchema: { path: pathField },
      outputSchema: entrySchema.shape,
    },
    ({ path }) => answer(() => ({ ...afi.stat(path) })),
  );
  server.registerTool(
    name("afi.list"),
    {
      annotations: READ_ONLY,
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
    name("afi.read"),
    {
      annotations: READ_ONLY,
      description:
        "Read a file, optionally a byte range: its text (bytes in base64 in the structured result); eof says whether the range reached the end.",
      inputSchema: {
        path: pathField,
        offset: z.number().int().optional().describe("first byte, default 0"),
        length: z.number().int().optional().describe("most bytes, default the rest of the file (at most 4 MiB)"),
        follow: z
          .boolean()
          .optional()
          .describe("read a symlink's target (a ranked entry under /.search/<query>/); AFI's read refuses a symlink"),
      },
      outputSchema: { bytes: z.string().describe("base64"), content_type: z.string(), eof: z.boolean() },
    },
    ({ path, follow, ...range }) => {
      try {
        const read = afi.read(follow === true ? followLinks(afi, path) : path, range);
        const bytes = Buffer.from(read.bytes).toString("base64");
        const text = utf8Text(read.bytes);
        const resource = { uri: `afi://${read.path}`, mimeType: read.content_type };
        return {
          content: [
            { type: "resource", resource: text === undefined ? { ...resource, blob: bytes } : { ...resource, text } },
          ],
          structuredContent: { bytes, content_type: read.content_type, eof: read.eof },
        };
      } catch (error) {
        return failure(error);
      }
    },
  );
  server.registerTool(
    name("afi.search"),
    {
      annotations: READ_ONLY,
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
  registerForageTools(server, forage, options.subtree, name);
  return server;
}

/** Forage's own discovery tools, in the `forage.` namespace beside AFI's (AFI transports/mcp, "Composition"). */
function registerForageTools(
  server: McpServer,
  forage: Forage,
  subtree: string | undefined,
  name: (dotted: string) => string,
): void {
  const within = (name: string | undefined): string | undefined =>
    subtree === undefined ? name || undefined : name ? `${subtree}.${name}` : subtree;
  server.registerTool(
    name("forage.search"),
    {
      annotations: READ_ONLY,
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
    name("forage.list"),
    {
      annotations: READ_ONLY,
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
    name("forage.describe"),
    {
      annotations: READ_ONLY,
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
