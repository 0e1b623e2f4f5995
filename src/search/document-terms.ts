import type { Steps } from "../slices.js";
import { splitCompound } from "./compound-words.js";
import { actionObjectTerm, actionTerm, httpActionOf } from "./rest-actions.js";
import type { SearchDocument } from "./search-index.js";
import { memoizedTermOf, splitProseWords, splitWords } from "./tokenize.js";

// Turning operations into weighted index terms: the build half of the search index.

/**
 * Field weights for BM25F. Names are what callers type, so path words weigh
 * most; instructions and field descriptions often mention other operations,
 * so they weigh least.
 */
const WEIGHTS = {
  path: 3,
  description: 1,
  capabilities: 1,
  instructions: 0.4,
  fieldNames: 1,
  fieldDescriptions: 0.4,
  /** What an HTTP method does (rest-actions.ts), and that action on the path's last literal segment. */
  action: 1,
  actionObject: 3,
} as const;

/**
 * One document's terms in its two groups of fields, each with their weighted frequencies and
 * weighted length, normalised apart (docs/search.md, "A long input schema does not bury a name"):
 * `text` is its path, description, capability notes and instructions; `schema` its input fields'
 * names and descriptions.
 */
export interface WeighedGroups {
  readonly text: { readonly terms: ReadonlyMap<string, number>; readonly length: number };
  readonly schema: { readonly terms: ReadonlyMap<string, number>; readonly length: number };
}

/**
 * Receives one document's weighed groups. The maps are the weigher's own, reused for the next
 * document: read them, do not keep them. A map per document lived until the whole catalog was
 * weighed: the young generation's collections copied each and promoted it, to die in the old
 * generation (BENCHMARKS.md, "The mount benchmark at ~20,000 real tools").
 */
export type VisitWeighted = (doc: number, groups: WeighedGroups) => void;

/**
 * Documents per step while weighing: a mount builds the index between its requests (src/slices.ts),
 * and a step per document cost more in resuming the generators than in work.
 */
const WEIGHED_PER_STEP = 64;

/** The words weighing met: every distinct word (a query's run-together words split into these), and the words of descriptive text. */
export interface WeighedWords {
  readonly all: ReadonlySet<string>;
  /** Words of three or more letters in descriptions and capability notes: a run-together path segment splits into these. */
  readonly text: ReadonlySet<string>;
}

/**
 * Each document's weighed groups of fields, handed to `visit` in document
 * order, tokenising and stemming each distinct word once; returns the words it met. A path
 * segment splits into the words of these documents' text and of `knownText` (the text of
 * documents weighed before, which an extended index numbers first). As steps that yield after
 * every few documents.
 */
export function* weightedTermsSteps(
  documents: readonly SearchDocument[],
  visit: VisitWeighted,
  knownText: ReadonlySet<string> = new Set(),
): Steps<WeighedWords> {
  const memo = memoizedTermOf();
  const termOfWord = memo.termOf;
  const termsOfWords = (words: readonly string[]): string[] => {
    const terms: string[] = [];
    for (const word of words) {
      const term = termOfWord(word);
      if (term !== undefined) terms.push(term);
    }
    return terms;
  };
  // Input fields repeat across operations (at 20,000 real tools, 96,000 field descriptions hold 13,000
  // distinct texts): each distinct name or description is split and stemmed once. Splitting a field
  // alone gives the words it gives within the fields' joined text (splitWords and splitProseWords:
  // docs/search.md, "No word spans a space"), so the terms are the same.
  const fieldNameTerms = memoized((name: string) => termsOfWords(splitWords(name)));
  const fieldDescriptionTerms = memoized((text: string) => termsOfWords(splitProseWords(text)));
  const described: { description: string[]; capabilities: string[] }[] = [];
  for (const [doc, document] of documents.entries()) {
    described.push({
      description: splitProseWords(document.description),
      capabilities: splitWords(document.capabilities.join(" ")),
    });
    if (doc % WEIGHED_PER_STEP === WEIGHED_PER_STEP - 1) yield;
  }
  const text = textVocabulary(described, knownText);
  const pathTerms = pathTermsOf(text, termOfWord);
  const objectTermOf = headTermOf(termOfWord);
  const textGroup = { terms: new Map<string, number>(), length: 0 };
  const schemaGroup = { terms: new Map<string, number>(), length: 0 };
  const add = (group: typeof textGroup, words: readonly string[], weight: number): void => {
    for (const term of words) group.terms.set(term, (group.terms.get(term) ?? 0) + weight);
    group.length += words.length * weight;
  };
  for (const [doc, document] of documents.entries()) {
    textGroup.terms.clear();
    textGroup.length = 0;
    schemaGroup.terms.clear();
    schemaGroup.length = 0;
    const words = described[doc] as { description: string[]; capabilities: string[] };
    add(textGroup, pathTerms(document.path), WEIGHTS.path);
    add(textGroup, termsOfWords(words.description), WEIGHTS.description);
    add(textGroup, termsOfWords(words.capabilities), WEIGHTS.capabilities);
    add(textGroup, termsOfWords(splitProseWords(document.instructions)), WEIGHTS.instructions);
    // Names, then descriptions, as the joined texts were added: weights sum in the same order, to the same bits.
    for (const field of document.inputFields) add(schemaGroup, fieldNameTerms(field.name), WEIGHTS.fieldNames);
    for (const field of document.inputFields)
      add(schemaGroup, fieldDescriptionTerms(field.description), WEIGHTS.fieldDescriptions);
    addActionTerms(textGroup.terms, document.capabilities, objectTermOf);
    visit(doc, { text: textGroup, schema: schemaGroup });
    if (doc % WEIGHED_PER_STEP === WEIGHED_PER_STEP - 1) yield;
  }
  return { all: new Set(memo.words()), text };
}

/** `make` with a memory of its results by argument, for one build. */
function memoized<T extends object>(make: (key: string) => T): (key: string) => T {
  const memo = new Map<string, T>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) memo.set(key, (value = make(key)));
    return value;
  };
}

/**
 * The action terms of an operation whose capability notes name an HTTP method
 * and path. They are evidence, not text, so they leave the length alone.
 */
function addActionTerms(
  terms: Map<string, number>,
  capabilities: readonly string[],
  objectTermOf: (segment: string) => string | undefined,
): void {
  const found = httpActionOf(capabilities);
  if (found === undefined) return;
  terms.set(actionTerm(found.action), WEIGHTS.action);
  const term = objectTermOf(found.object);
  // The shortest path to a thing is its own endpoint (POST /cards, GET /cards/{id}); a longer one reaches it through another.
  const depth = 2 / (1 + found.segments);
  if (term !== undefined) terms.set(actionObjectTerm(found.action, term), WEIGHTS.actionObject * depth);
}

/**
 * The term of a path segment's head noun, its last word ("boardBackgrounds"
 * holds backgrounds, not boards); memoised, since many paths end in the same
 * segment.
 */
function headTermOf(termOfWord: (word: string) => string | undefined): (segment: string) => string | undefined {
  const memo = new Map<string, string | undefined>();
  return (segment) => {
    if (memo.has(segment)) return memo.get(segment);
    const head = splitWords(segment).at(-1);
    const term = head === undefined ? undefined : termOfWord(head);
    memo.set(segment, term);
    return term;
  };
}

/** Words of three or more letters used in descriptive text, `known` and the documents', to split run-together names with. */
function textVocabulary(
  described: readonly { description: string[]; capabilities: string[] }[],
  known: ReadonlySet<string>,
): Set<string> {
  const vocabulary = new Set<string>(known);
  for (const text of described) {
    for (const word of text.description) if (word.length >= 3) vocabulary.add(word);
    for (const word of text.capabilities) if (word.length >= 3) vocabulary.add(word);
  }
  return vocabulary;
}

/** Path terms: each word, and run-together segments also split into known words; memoised per word, since paths share segments. */
function pathTermsOf(
  vocabulary: ReadonlySet<string>,
  termOfWord: (word: string) => string | undefined,
): (path: string) => string[] {
  const wordTerms = memoized((word: string) =>
    [word, ...(splitCompound(word, vocabulary) ?? [])]
      .map(termOfWord)
      .filter((term): term is string => term !== undefined),
  );
  return (path) => {
    const terms: string[] = [];
    for (const word of splitWords(path)) terms.push(...wordTerms(word));
    return terms;
  };
}
