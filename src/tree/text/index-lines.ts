import type { InputNames } from "./input-names.js";
import { cutText, firstSentence, oneLine, plural } from "./text-pages.js";

/**
 * How long an index line's parts may be. An index line is what an agent reads to choose an
 * operation: a signature and one short sentence. Everything else is one hop away, in the
 * operation's `.json` and `.d.ts`, so a line stays short at any catalog size (docs/mount.md, "Index lines").
 */
export interface LineShape {
  /** Most characters of the whole line. */
  readonly limit: number;
  /** Most characters of the signature, `path({ required, optional? })`. */
  readonly signature: number;
  /** Most characters of the sentence. */
  readonly sentence: number;
  /** The least room worth giving the trailing `same as: …`; with less it is left out. */
  readonly trailing: number;
}

/** A directory's index line. */
export const INDEX_LINE: LineShape = { limit: 240, signature: 96, sentence: 72, trailing: 16 };
/**
 * A query digest's line: shorter than an index's, since an agent reads a digest per need, several
 * at once; the signature keeps the required names first and the sentence its start.
 */
export const DIGEST_LINE: LineShape = { limit: 140, signature: 68, sentence: 52, trailing: 14 };
/** A namespace's line: a compact list of every namespace costs little at any size. */
export const NAMESPACE_LINE_LENGTH = 160;
/** A left-out operation's line in a query digest. */
export const DIGEST_UNSUPPORTED_LENGTH = 100;

const SEPARATOR = " — ";
/** The least of a sentence a line keeps, however long its path. */
const MIN_SENTENCE = 24;
/**
 * The HTML tags OpenAPI descriptions are written with (`<p>Creates a payment link.</p>`): bytes that
 * say nothing in a one-line sentence. Only these, so that a type such as `Array<string>` stays.
 */
const MARKUP = /<\/?(?:p|br|code|a|b|i|em|strong|ul|ol|li|span|div|pre|h[1-6])(?:\s[^>]*)?\/?>/gi;

/** What an operation's index line shows. */
export interface OperationLineFacts {
  readonly path: string;
  readonly description: string;
  /** The catalog's sample call, `await env.PATH(INPUT)`: the signature when the input has no named fields. */
  readonly sample: string;
  readonly inputs: InputNames | undefined;
  /** Equivalent operations elsewhere (search's `peers`). */
  readonly peers?: readonly string[];
}

/**
 * `path({ required, optional? }) — first sentence[ — same as: peers]`, within `shape`, the operation
 * named `shown` (a directory's index names it as `ls` names its files; a digest, by its whole path).
 * The name is never cut short of INDEX_LINE.limit: it is what a reader names the operation by, so a
 * long one takes the room of its input names and its sentence first.
 */
export function operationLine(facts: OperationLineFacts, shape: LineShape, shown = facts.path): string {
  const signature = `${shown}${inputText(facts, shape.signature - shown.length)}`;
  const sentenceRoom = Math.max(
    Math.min(shape.sentence, shape.limit - signature.length - SEPARATOR.length),
    MIN_SENTENCE,
  );
  const sentence = firstSentence(withoutMarkup(facts.description), sentenceRoom) || "(no description)";
  const line = `${signature}${SEPARATOR}${sentence}`;
  const room = shape.limit - line.length - SEPARATOR.length;
  const peers = facts.peers ?? [];
  // Only a path too long for `shape` makes the line longer than it, and never longer than an index line.
  if (peers.length === 0 || room < shape.trailing) return cutText(line, INDEX_LINE.limit);
  const sameAs = fittingList(
    peers,
    (shown, hidden) =>
      shown.length === 0
        ? `same as ${hidden} ${plural(hidden, "other")}`
        : `same as: ${[...shown, ...(hidden === 0 ? [] : [`+${hidden} more`])].join(", ")}`,
    room,
  );
  return cutText(`${line}${SEPARATOR}${sameAs}`, shape.limit);
}

/** `NAME/ — counts — what it is for`, within NAMESPACE_LINE_LENGTH. */
export function namespaceLine(name: string, counts: string, about: string): string {
  return oneLine(
    about === "" ? `${name}/${SEPARATOR}${counts}` : `${name}/${SEPARATOR}${counts}${SEPARATOR}${about}`,
    NAMESPACE_LINE_LENGTH,
  );
}

/** `[unsupported] NAMESPACE: NAME — summary`, within `limit`. */
export function unsupportedLine(namespace: string, name: string, summary: string | undefined, limit: number): string {
  return oneLine(`[unsupported] ${namespace}: ${name}${summary === undefined ? "" : `${SEPARATOR}${summary}`}`, limit);
}

/**
 * The input part of a signature: its field names, optional ones marked `?`, as many as fit `limit`
 * (then `…`); the sample call's input when the input has no named fields.
 */
function inputText({ path, sample, inputs }: OperationLineFacts, limit: number): string {
  if (inputs === undefined) {
    const prefix = `await env.${path}`;
    return cutText(oneLine(sample.startsWith(prefix) ? sample.slice(prefix.length) : "(…)"), Math.max(limit, 3));
  }
  const names = [...inputs.required, ...inputs.optional.map((name) => `${name}?`)];
  if (names.length === 0) return "({})";
  return fittingList(names, (shown, hidden) => `({ ${[...shown, ...(hidden === 0 ? [] : ["…"])].join(", ")} })`, limit);
}

/**
 * `render` of as many of `items` as fit `limit`, whole and in order (`hidden` says how many are
 * left out); of none when even one does not fit.
 */
function fittingList(
  items: readonly string[],
  render: (shown: readonly string[], hidden: number) => string,
  limit: number,
): string {
  for (let count = items.length; count > 0; count--) {
    const text = render(items.slice(0, count), items.length - count);
    if (text.length <= limit) return text;
  }
  return render([], items.length);
}

/** A description without its HTML tags, each read as a space (a `<br>` still parts two words). */
function withoutMarkup(text: string): string {
  return text.includes("<") ? text.replace(MARKUP, " ") : text;
}
