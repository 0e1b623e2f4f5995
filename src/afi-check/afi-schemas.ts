import { z } from "zod";

/**
 * AFI v0.1's wire shapes, as a client checks them. Objects are loose: AFI
 * tells clients to tolerate unknown fields, so only the declared ones are
 * checked (AFI basic/discovery, "Client obligations").
 */

const uint = z.number().int().nonnegative();
const rfc3339 = z.string().refine((text) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(text), {
  message: "not an RFC 3339 timestamp",
});

/** The four profiles (AFI conformance/profiles). */
export const PROFILE_NAMES = ["Discovery", "Read", "Search", "Read/Write"] as const;

/** The operations each profile requires, cumulatively. */
export const PROFILE_OPERATIONS: readonly (readonly string[])[] = [
  ["stat", "list"],
  ["stat", "list", "read"],
  ["stat", "list", "read", "search"],
  ["stat", "list", "read", "search", "write", "mkdir", "delete", "move"],
];

/** The manifest (AFI basic/discovery, "Schema"). */
export const manifestSchema = z.looseObject({
  afi_version: z.string(),
  provider: z.string(),
  provider_version: z.string(),
  profile: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  capabilities: z.array(z.string()),
  search: z.looseObject({ modes: z.array(z.enum(["exact", "regex", "semantic"])), max_results: uint }),
  path: z.looseObject({ case_sensitive: z.boolean(), max_length: uint }),
  auth: z.looseObject({ required: z.boolean(), methods: z.array(z.string()) }),
});

/** A manifest that passed the schema. */
export type Manifest = z.infer<typeof manifestSchema>;

/** `Entry` (AFI schemas/entry); `content_type` is required where the transport carries it. */
export function entrySchema(withContentType: boolean) {
  return z
    .looseObject({
      path: z.string().startsWith("/"),
      type: z.enum(["file", "directory", "symlink"]),
      size: uint,
      mtime: rfc3339,
      ctime: rfc3339,
      content_type: withContentType ? z.string().min(1) : z.string().optional(),
      etag: z.string().optional(),
      target: z.string().startsWith("/").optional(),
    })
    .superRefine((entry, context) => {
      const problem = entryProblem(entry);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    });
}

function entryProblem(entry: {
  type: string;
  size: number;
  target?: string | undefined;
  content_type?: string | undefined;
}): string | undefined {
  if (entry.type !== "file" && entry.size !== 0) return `a ${entry.type}'s size is ${entry.size}, not 0`;
  if ((entry.type === "symlink") !== (entry.target !== undefined))
    return entry.type === "symlink" ? "a symlink without target" : `a ${entry.type} with a target`;
  if (entry.type === "directory" && entry.content_type !== undefined && entry.content_type !== "inode/directory")
    return `a directory's content_type is ${entry.content_type}, not inode/directory`;
  return undefined;
}

/** `list`'s answer (AFI operations/list). */
export function listSchema(withContentType: boolean) {
  return z.looseObject({ entries: z.array(entrySchema(withContentType)), next_cursor: z.string().optional() });
}

/** `Match` (AFI schemas/match). */
export const matchSchema = z.looseObject({
  path: z.string().startsWith("/"),
  line: z.number().int().positive(),
  column: z.number().int().positive().optional(),
  text: z.string(),
  context: z.looseObject({ before: z.array(z.string()), after: z.array(z.string()) }).optional(),
  score: z.number().min(0).max(1).optional(),
});

/** A Match as checked. */
export type Match = z.infer<typeof matchSchema>;

/** `search`'s answer (AFI operations/search). */
export const searchSchema = z.looseObject({ matches: z.array(matchSchema), next_cursor: z.string().optional() });

/** AFI's error codes (AFI basic/errors). */
export const ERROR_CODES = [
  "not_found",
  "invalid_path",
  "unsupported",
  "rate_limited",
  "internal",
  "unauthorized",
  "conflict",
] as const;

/** The structured `Error` (AFI basic/errors, "Error shape"). */
export const errorSchema = z
  .looseObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    path: z.string().optional(),
    retry_after: z.number().nonnegative().optional(),
  })
  .superRefine((error, context) => {
    if ((error.code === "rate_limited") !== (error.retry_after !== undefined))
      context.addIssue({ code: "custom", message: "retry_after must be present exactly when code is rate_limited" });
  });

/** The first problem zod found, as one short line. */
export function schemaProblem(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  if (issue === undefined) return "does not match";
  const where = issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
  return `${where}${issue.message}`;
}
