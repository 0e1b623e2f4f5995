import { MAX_DESCRIPTION_LENGTH, MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from "./limits.js";
import type { ThirdPartyText } from "./types.js";

/** Marks where provider text was cut; it counts toward the bound. */
export const TRUNCATION_MARKER = "…";

/**
 * `text` cut to at most `limit` UTF-16 code units, ending in "…" when cut
 * (never splitting a surrogate pair); undefined for anything but a string.
 */
export function boundText(text: unknown, limit: number): string | undefined {
  if (typeof text !== "string") return undefined;
  if (text.length <= limit) return text;
  let end = limit - TRUNCATION_MARKER.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${TRUNCATION_MARKER}`;
}

/** `text` unless it is a string of nothing but whitespace, which says nothing and so lets a fallback speak. */
export function nonEmpty(text: unknown): unknown {
  return typeof text === "string" && text.trim() === "" ? undefined : text;
}

/** A description or other string annotation, bounded to 2,048. */
export function boundDescription(text: unknown): string | undefined {
  return boundText(text, MAX_DESCRIPTION_LENGTH);
}

/** A title or summary, bounded to 200. */
export function boundTitle(text: unknown): string | undefined {
  return boundText(text, MAX_TITLE_LENGTH);
}

/** The first 16 distinct string tags, each bounded to 64. */
export function boundTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) return [];
  const kept: string[] = [];
  for (const tag of tags) {
    const bounded = boundText(tag, MAX_TAG_LENGTH);
    if (bounded === undefined || kept.includes(bounded)) continue;
    kept.push(bounded);
    if (kept.length === MAX_TAGS) break;
  }
  return kept;
}

/** An operation's provider text, bounded and marked third_party. */
export function thirdPartyText(operation: Record<string, unknown>): ThirdPartyText {
  const summary = boundTitle(operation.summary);
  const description = boundDescription(operation.description);
  return {
    source: "third_party",
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined ? {} : { description }),
    tags: boundTags(operation.tags),
  };
}
