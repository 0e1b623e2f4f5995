import { stemmer } from "stemmer";

/**
 * Common English words that carry no meaning for finding an operation. Kept
 * short on purpose: words like "get", "list" or "find" stay, since they name
 * what operations do.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  ("a an and are as at be by can could do does for from has have how i if in into is it its me my " +
    "of on or our please should so than that the their them then there these this those to us was " +
    "we were what when where which who will with would you your").split(" "),
);

/** Splits text into lowercase words, breaking camelCase, snake_case, digits and punctuation. */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])([0-9])|([0-9])([A-Za-z])/g, "$1$3 $2$4");
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/** The index terms of a word: its stem, or nothing for a stop word. */
export function termOf(word: string): string | undefined {
  if (STOP_WORDS.has(word)) return undefined;
  return word.length > 3 ? stemmer(word) : word;
}

/** The index terms of a text, in order, stop words removed. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    const term = termOf(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}
