import { expandAbbreviation, stemOf } from "./abbreviations.js";
import { segmentUnspaced, UNSPACED } from "./unspaced-scripts.js";

/**
 * Common English words that carry no meaning for finding an operation:
 * articles, pronouns, auxiliaries, conjunctions and fillers of conversational
 * requests ("could you please…", "using my account"). Words like "get",
 * "list", "find", "all" or "not" stay, since they name what operations do or
 * select.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about also am an and any are as at be because been being both by can could did do does doing each " +
    "for from few had has have having he her hers herself him himself his how i if in into is it its itself just " +
    "me my myself of on only or other our ours ourselves own please same she should so some such than that the " +
    "their theirs them themselves then there these they this those to too until us use used uses using very was " +
    "we were what when where which while who whom will with would you your yours yourself yourselves"
  ).split(" "),
);

/**
 * Contractions and possessives, folded before splitting: "don't" and its kin
 * are auxiliaries and go entirely; "NASA's", "I'm", "we'll" keep their word.
 * Otherwise the apostrophe would leave stray "s", "t" or "m" terms that match
 * unrelated text.
 */
const NEGATED_AUXILIARY = /\p{L}+n['’]t(?![\p{L}\p{N}])/giu;
const CLITIC = /(\p{L})['’](?:s|m|re|ve|ll|d)(?![\p{L}\p{N}])/giu;
/**
 * An acronym's plural ("GIFs", "URLs", "IDs" in "getUserIDs") is one word.
 * Upper-casing its "s" makes it an all-capitals run, so the camelCase rules
 * below keep it whole and it folds to the same word as "gifs" and "GIFS".
 */
const ACRONYM_PLURAL = /([A-Z]{2,})s(?![a-z])/g;

/**
 * Folds case for matching: NFKC first (full-width "ＧＩＦ" is "GIF"), then
 * upper-casing before lower-casing outside ASCII, so "ß", "SS" and "ss" fold
 * alike. A query and its upper- and lower-case forms fold to the same text.
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKC").toUpperCase().toLowerCase();
}

/**
 * Splits text into lowercase words, breaking camelCase, snake_case, digits and
 * punctuation, and segmenting scripts written without spaces. Documents and
 * queries go through this same function; a query is case-folded first
 * (see splitQueryWords), so its case never changes its words.
 */
export function splitWords(text: string): string[] {
  // Each rewrite runs only when its trigger is present: catalog creation splits every text of every operation.
  let spaced = APOSTROPHE.test(text) ? text.replace(NEGATED_AUXILIARY, " ").replace(CLITIC, "$1") : text;
  if (UPPER.test(spaced))
    spaced = spaced
      .replace(ACRONYM_PLURAL, "$1S")
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  if (DIGIT.test(spaced)) spaced = spaced.replace(/([A-Za-z])([0-9])|([0-9])([A-Za-z])/g, "$1$3 $2$4");
  const folded = foldCase(spaced);
  const words = folded.split(/[^\p{L}\p{M}\p{N}]+/u).filter((word) => word.length > 0);
  // Tested on the folded text, whose words are the ones segmented: NFKC makes Han and Kana of some
  // other characters ("🈚" is "無"), which a query, folded before it is split, already holds.
  return UNSPACED.test(folded) ? words.flatMap(segmentUnspaced) : words;
}

/**
 * A word of prose that the splitter breaks at its inner capitals: "JavaScript", "GitHub",
 * "YouTube", "OAuth", "WordPress" (a lower-case letter before a capital, or a capital before a
 * capital and a lower-case letter). Not a word with digits, which split at them as well.
 */
const INNER_CAPITALS = /\b[A-Za-z]*(?:[a-z][A-Z]|[A-Z][A-Z][a-z])[A-Za-z]*\b/g;

/**
 * The words of prose (a description, instructions): splitWords', and also each word written with
 * inner capitals as the one word a reader sees in it ("JavaScript": java, script, javascript). A
 * query is case-folded before it is split, so its "javascript" or "JavaScript" stays one word and
 * would otherwise never meet a description's "JavaScript"; "java script" still meets its parts.
 */
export function splitProseWords(text: string): string[] {
  const words = splitWords(text);
  if (!UPPER.test(text)) return words;
  for (const [written] of text.matchAll(INNER_CAPITALS)) {
    // An acronym's plural ("GIFs") is one word already.
    if (splitWords(written).length > 1) words.push(written.toLowerCase());
  }
  return words;
}

/** A query's words: the query case-folded, then split as documents are, so "GIFs", "gifs" and "GIFS" are one word. */
export function splitQueryWords(query: string): string[] {
  return splitWords(foldCase(query));
}

const ASCII = /^[\x00-\x7f]*$/;
const APOSTROPHE = /['’]/;
const UPPER = /[A-Z]/;
const DIGIT = /[0-9]/;

/**
 * The index term of a word: its stem, with an API abbreviation's stem read as
 * its full word's ("desc" and "descriptions" are one term), or nothing for a
 * stop word. Stemmed from three letters up, so "ids", "vms" and "ips" meet
 * "id", "vm" and "ip".
 */
export function termOf(word: string): string | undefined {
  if (STOP_WORDS.has(word)) return undefined;
  return expandAbbreviation(stemOf(word));
}

/**
 * termOf with a memory, for indexing a whole catalog: operations repeat a
 * small vocabulary many times, and stemming is the costly step. `words` holds
 * every distinct word seen, the vocabulary that run-together query words are
 * split with.
 */
export function memoizedTermOf(): { termOf: (word: string) => string | undefined; words: () => Iterable<string> } {
  const memo = new Map<string, string | null>();
  return {
    termOf(word) {
      let term = memo.get(word);
      if (term === undefined) memo.set(word, (term = termOf(word) ?? null));
      return term ?? undefined;
    },
    words: () => memo.keys(),
  };
}
