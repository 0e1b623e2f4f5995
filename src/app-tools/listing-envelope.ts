import { z } from "zod";
import { ForageError } from "../forage-error.js";
import { invalidArgument } from "./issues.js";
import { MAX_APP_TOOL_NAME, MAX_APP_TOOL_ROWS } from "./limits.js";
import type { AppToolListingReply } from "./types.js";

const schemaValue = z.union([z.boolean(), z.record(z.string(), z.unknown())]);

// Loose: rows keep every App-owned field (selectors and the like) as data.
const row = z.looseObject({
  name: z.string().min(1).max(MAX_APP_TOOL_NAME),
  description: z.string().optional(),
  inputSchema: schemaValue,
  outputSchema: schemaValue.optional(),
});

const envelope = z.looseObject({ indexed: z.boolean(), rows: z.array(z.unknown()).optional() });

/**
 * Checks Forage's listing envelope ({ indexed, rows }) after the App's own
 * declared output schema accepted the reply. Rows are only read when the
 * listing is indexed: an unindexed listing has no tools.
 */
export function readListingEnvelope(reply: unknown): AppToolListingReply {
  const parsed = envelope.safeParse(reply);
  if (!parsed.success) throw invalidArgument("App tool listing reply", parsed.error);
  if (!parsed.data.indexed) return { indexed: false };
  const rows = parsed.data.rows ?? [];
  if (rows.length > MAX_APP_TOOL_ROWS) {
    throw new ForageError(
      "too_large",
      `App tool listing has ${rows.length} rows; at most ${MAX_APP_TOOL_ROWS} are allowed`,
      {
        limit: MAX_APP_TOOL_ROWS,
      },
    );
  }
  const checked = z.array(row).safeParse(rows);
  if (!checked.success) throw invalidArgument("App tool listing rows", prefixRows(checked.error));
  assertUniqueNames(checked.data.map((entry) => entry.name));
  // The raw rows, not zod's parsed copies: those drop a "__proto__" field, and row data stays as the App sent it.
  return { indexed: true, rows: rows as AppToolListingReply["rows"] };
}

// Issues are reported relative to the reply, so "/rows/0/name" points into what the App sent.
function prefixRows(error: z.ZodError): z.ZodError {
  return new z.ZodError(error.issues.map((issue) => ({ ...issue, path: ["rows", ...issue.path] })));
}

function assertUniqueNames(names: readonly string[]): void {
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (seen.has(name)) {
      throw new ForageError(
        "invalid_argument",
        `App tool listing rows is invalid at /rows/${index}/name: duplicate tool name "${name}"`,
        {
          issues: [{ path: `/rows/${index}/name`, message: `duplicate tool name "${name}"` }],
        },
      );
    }
    seen.add(name);
  });
}
