import { z } from "zod";
import { MAX_DESCRIPTION_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from "../limits.js";
import type { OpenApiTableRow } from "../types.js";

const names = z.array(z.string());

const jsonObject = z.custom<Record<string, never>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { message: "expected a JSON object" },
);

/**
 * The exact serializable shape of a table row. Strict at every level: a
 * row carrying anything else (a raw spec, a credential, a server URL) is
 * refused rather than stored.
 */
export const tableRowShape = z.strictObject({
  name: z.string(),
  method: z.enum(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH"]),
  path: z.string(),
  effect: z.enum(["read", "write"]),
  dialect: z.enum(["openapi-3.0", "openapi-3.1"]),
  inputSchema: jsonObject,
  outputSchema: z.union([z.boolean(), jsonObject]).optional(),
  call: z.strictObject({
    pathParams: names,
    queryParams: names,
    headerParams: names,
    body: z.strictObject({ contentType: z.string(), required: z.boolean() }).nullable(),
  }),
  text: z.strictObject({
    source: z.literal("third_party"),
    summary: z.string().max(MAX_TITLE_LENGTH).optional(),
    description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
    tags: z.array(z.string().max(MAX_TAG_LENGTH)).max(MAX_TAGS),
  }),
});

/**
 * Members a normalized operation has beyond its row: validators (always
 * recompiled, never trusted) and hints (never stored). They are dropped, so a
 * preview's operations can be passed as they are.
 */
export const OPERATION_ONLY_KEYS: ReadonlySet<string> = new Set([
  "input",
  "output",
  "description",
  "deprecated",
  "security",
  "servers",
  "notes",
]);

/** Compile-time check that the shape and the public row type agree. */
export type TableRowShape = z.infer<typeof tableRowShape>;
const _agrees: (row: TableRowShape) => OpenApiTableRow = (row) => row;
void _agrees;
