/** Most lines one page of a generated listing holds, besides its header and trailer. */
export const MAX_PAGE_LINES = 200;
/** Most bytes one page holds, header and trailer included: what an agent can afford to read in one call. */
export const MAX_PAGE_BYTES = 16 * 1024;
/** Most characters of one listing line: a page of MAX_PAGE_LINES such lines may still split by bytes. */
export const MAX_LINE_LENGTH = 400;
/** Room kept on each page for its header and trailer lines. */
const FRAME_BYTES = 1_024;

/** The file name of page `index` (0-based) of a listing: `@index.txt`, `@index.2.txt`, … */
export function pageName(stem: string, index: number): string {
  return index === 0 ? `${stem}.txt` : `${stem}.${index + 1}.txt`;
}

/** Where a page sits among its listing's pages: what its header and trailer say. */
export interface PagePosition {
  /** 0-based. */
  readonly page: number;
  readonly pages: number;
  /** 1-based numbers of the first and last entry on this page; first > last on an empty page. */
  readonly first: number;
  readonly last: number;
  readonly total: number;
  /** The next page's file name, if any. */
  readonly next: string | undefined;
}

/**
 * Splits listing lines into pages of at most `linesPerPage` (up to MAX_PAGE_LINES) lines and
 * MAX_PAGE_BYTES bytes, and renders each with `header`; a page followed by another ends by naming
 * it. A listing with no lines still has its one page. `firstPage` pages come before these, written
 * by the caller (a query's digest is page 0 of its index): numbering and names start after them.
 */
export function renderPages(
  stem: string,
  lines: readonly string[],
  header: (at: PagePosition) => string,
  firstPage = 0,
  linesPerPage = MAX_PAGE_LINES,
): string[] {
  const groups = splitLines(lines, Math.min(linesPerPage, MAX_PAGE_LINES));
  const pages = firstPage + groups.length;
  let first = 1;
  return groups.map((group, index) => {
    const page = firstPage + index;
    const next = page + 1 < pages ? pageName(stem, page + 1) : undefined;
    const at = { page, pages, first, last: first + group.length - 1, total: lines.length, next };
    first += group.length;
    const trailer = next === undefined ? "" : `# continued in ${next}\n`;
    return `${header(at)}\n${group.map((line) => `${line}\n`).join("")}${trailer}`;
  });
}

function splitLines(lines: readonly string[], linesPerPage: number): string[][] {
  const groups: string[][] = [[]];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    let group = groups[groups.length - 1] as string[];
    if (group.length === linesPerPage || (group.length > 0 && bytes + size > MAX_PAGE_BYTES - FRAME_BYTES)) {
      group = [];
      groups.push(group);
      bytes = 0;
    }
    group.push(line);
    bytes += size;
  }
  return groups;
}

/** The page header's position words: "entries 1–500 of 1234, page 1 of 3, next page @index.2.txt". */
export function positionWords(at: PagePosition, noun: string): string {
  const count = `${at.total} ${plural(at.total, noun)}`;
  if (at.pages === 1) return count;
  const range = at.first > at.last ? "none" : `${at.first}–${at.last}`;
  const next = at.next === undefined ? "last page" : `next page ${at.next}`;
  return `${plural(2, noun)} ${range} of ${at.total}, page ${at.page + 1} of ${at.pages}, ${next}`;
}

/** `noun` or its plural for `count` ("1 operation", "2 operations"). */
export function plural(count: number, noun: string): string {
  if (count === 1) return noun;
  return noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}

/** `text` on one line: whitespace runs collapsed, cut to `limit` characters with "…" (see cutText). */
export function oneLine(text: string, limit = MAX_LINE_LENGTH): string {
  // Most texts are one line already: a test is far cheaper than a replace over every line of a large catalog.
  const flat = /\s\s|[^\S ]|^ | $/.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return cutText(flat, limit);
}

/** How far back from the limit a cut looks for a space: further, and it cuts inside the word. */
const WORD_CUT_REACH = 24;

/**
 * `text` cut to at most `limit` UTF-16 units, ending in "…": after the last whole word when one ends
 * close enough to the limit, never between the two halves of a surrogate pair.
 */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit <= 1) return limit === 1 ? "…" : "";
  let end = limit - 1;
  const space = text.lastIndexOf(" ", end);
  if (space > 0 && end - space <= WORD_CUT_REACH) end = space;
  else if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * What may open a description before its first sentence and says nothing on one line: symbols and
 * emoji (`🎯 `), a short heading on a line of its own or before a list (`Purpose:`), a list marker
 * (`1. `, `- `). Left in, `🎯 Purpose: 1. Retrieves…` gives the sentence `🎯 Purpose: 1.`.
 */
const SENTENCE_LEAD = [
  /^[^\p{L}\p{N}"'`([<]+/u,
  /^\p{L}[\p{L}\p{N} ]{0,30}(?::\s*\n|(?::[ \t]*|[ \t]*\n\s*)(?=(?:\d{1,2}[.)]|[-*•])\s))/u,
  /^(?:\d{1,2}[.)]|[-*•])\s+/u,
];

/** The first sentence of `text` (up to a full stop, question or exclamation mark followed by a space, or a line break), on one line. */
export function firstSentence(text: string, limit = 200): string {
  const trimmed = withoutLead(text.trim());
  const end = /[.!?](\s|$)|\n\s*\n/.exec(trimmed);
  const sentence = end === null ? trimmed : trimmed.slice(0, end.index + (end[0].startsWith("\n") ? 0 : 1));
  return oneLine(sentence, limit);
}

/** `text` without SENTENCE_LEAD's parts, in their order; `text` itself when nothing would be left. */
function withoutLead(text: string): string {
  let rest = text;
  for (const lead of SENTENCE_LEAD) rest = rest.replace(lead, "").trimStart();
  return rest === "" ? text : rest;
}
