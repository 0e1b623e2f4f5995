import { MAX_CAPABILITY_LENGTH } from "../catalog/limits.js";
import { boundText, boundTitle } from "../openapi/text-limits.js";

type HintName = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

/** What each declared hint says, true and false; a hint left undeclared says nothing. */
const HINT_WORDING: Readonly<Record<HintName, readonly [whenTrue: string, whenFalse: string]>> = {
  readOnlyHint: ["read-only", "may change its environment"],
  destructiveHint: ["may destroy or overwrite data", "its changes are additive, not destructive"],
  idempotentHint: ["idempotent: repeating a call with the same input has no further effect", "not idempotent"],
  openWorldHint: ["reaches an open world of outside entities", "stays within a closed domain"],
};

/**
 * Capability notes for a tool: its MCP name first when its path segment spells it otherwise, then
 * each boolean hint it declares and its annotation title, each naming the hint it comes from.
 * Hints are the server's claims, not guarantees, and are worded as such. A name kept as its
 * segment is in the path already; noted again, it would make two servers' identical tools differ
 * in more than their paths, and search could not show them as equivalent (docs/sources.md).
 */
export function toolCapabilityNotes(toolName: string, segment: string, annotations: unknown): string[] {
  const notes = segment === toolName ? [] : [`MCP tool ${JSON.stringify(boundTitle(toolName))}`];
  if (annotations !== null && typeof annotations === "object") notes.push(...hintNotes(annotations));
  // JSON escapes can lengthen a bounded title, so the note itself is bounded too.
  return notes.map((note) => boundText(note, MAX_CAPABILITY_LENGTH) as string);
}

function hintNotes(annotations: object): string[] {
  const notes: string[] = [];
  const declared = annotations as Record<string, unknown>;
  for (const [hint, [whenTrue, whenFalse]] of Object.entries(HINT_WORDING)) {
    // MCP gives the destructive and idempotent hints meaning only for a tool that is not read-only.
    if (declared.readOnlyHint === true && (hint === "destructiveHint" || hint === "idempotentHint")) continue;
    const value = declared[hint];
    if (value === true) notes.push(`${whenTrue} (MCP ${hint})`);
    else if (value === false) notes.push(`${whenFalse} (MCP ${hint}: false)`);
  }
  const title = boundTitle(declared.title);
  if (title !== undefined) notes.push(`titled ${JSON.stringify(title)} (MCP annotations.title)`);
  return notes;
}
