import { stemmer } from "stemmer";

/**
 * Common English words that carry no meaning for finding an operation:
 * articles, pronouns, auxiliaries, conjunctions and fillers of conversational
 * requests ("could you please…"). Words like "get", "list", "find", "all" or
 * "not" stay, since they name what operations do or select.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about also am an and any are as at be because been being both by can could did do does doing each " +
    "for from few had has have having he her hers herself him himself his how i if in into is it its itself just " +
    "me my myself of on only or other our ours ourselves own please same she should so some such than that the " +
    "their theirs them themselves then there these they this those to too until us very was we were what when " +
    "where which while who whom will with would you your yours yourself yourselves"
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

/** Splits text into lowercase words, breaking camelCase, snake_case, digits and punctuation. */
export function splitWords(text: string): string[] {
  // Each rewrite runs only when its trigger is present: catalog creation splits every text of every operation.
  let spaced = APOSTROPHE.test(text) ? text.replace(NEGATED_AUXILIARY, " ").replace(CLITIC, "$1") : text;
  if (UPPER.test(spaced))
    spaced = spaced.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  if (DIGIT.test(spaced)) spaced = spaced.replace(/([A-Za-z])([0-9])|([0-9])([A-Za-z])/g, "$1$3 $2$4");
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

const APOSTROPHE = /['’]/;
const UPPER = /[A-Z]/;
const DIGIT = /[0-9]/;

/** The index terms of a word: its stem, or nothing for a stop word. */
export function termOf(word: string): string | undefined {
  if (STOP_WORDS.has(word)) return undefined;
  return word.length > 3 ? stemmer(word) : word;
}

/**
 * termOf with a memory, for indexing a whole catalog: operations repeat a
 * small vocabulary many times, and stemming is the costly step.
 */
export function memoizedTermOf(): (word: string) => string | undefined {
  const memo = new Map<string, string | null>();
  return (word) => {
    let term = memo.get(word);
    if (term === undefined) memo.set(word, (term = termOf(word) ?? null));
    return term ?? undefined;
  };
}
