import { lowerBound } from "../lower-bound.js";
import { runToEnd, type Steps } from "../slices.js";
import { visitBestFirst } from "./best-first.js";
import { splitCompound } from "./compound-words.js";
import { type WeighedGroups, type WeighedWords, weightedTermsSteps } from "./document-terms.js";
import { ExactNames } from "./exact-names.js";
import { NamespaceEvidence } from "./namespace-evidence.js";
import { type Action, actionObjectTerm, actionTerm, isActionTerm, queryActionOf } from "./rest-actions.js";
import { splitQueryWords, termOf } from "./tokenize.js";

/** The searchable text of one operation, by field. */
export interface SearchDocument {
  readonly path: string;
  readonly description: string;
  readonly capabilities: readonly string[];
  readonly instructions: string;
  /** Input field names and their descriptions. */
  readonly inputFields: readonly { readonly name: string; readonly description: string }[];
}

/** One ranked match: the document's index and its score (> 0). */
export interface RankedMatch {
  readonly doc: number;
  readonly score: number;
}

/** Terms scored per step of buildSteps and extendedSteps: map work too small to yield after each. */
const SCORED_PER_STEP = 1024;

/** The textbook BM25 parameters, left untuned so ranking carries over to catalogs we have not seen. */
const K1 = 1.2;
const B = 0.75;
/** A query word missing from the vocabulary may still be the start of one ("calend" → "calendar"). */
const PREFIX_WEIGHT = 0.5;
const MAX_PREFIX_EXPANSIONS = 8;
/**
 * A document matching every query word scores up to this much more than one
 * matching a single word, so full matches outrank partial ones. It grows with
 * the fraction of words matched, not their count, so a long conversational
 * query does not reward documents that merely share its filler.
 */
const COVERAGE_BONUS = 0.25;
/**
 * A word a query repeats weighs more, saturating as BM25's query-term factor
 * does ((k3 + 1) · n / (k3 + n), 1 for a word written once): a long request
 * names what it is about more than once ("convert … converted … units …
 * units"). k3 = 7, at the low end of the Okapi papers' 7 to 1,000; 1.2, 8 and 100 were tried
 * (docs/search.md, "Vocabulary mismatch: what was tried").
 */
const QUERY_TERM_K3 = 7;
/** An operation gains this share of its namespace's mean score (namespace-evidence.ts). */
const NAMESPACE_WEIGHT = 0.5;
/**
 * A query word the catalog does not hold may be words run together
 * ("sendemail", "GETURLS" once folded); it is split into catalog words of two
 * letters and up, so "listvms" finds "list" and "vms".
 */
const MIN_QUERY_PIECE = 2;

/** A long query's verbs and the words they act on are bounded, so pairing them stays a few dozen lookups. */
const MAX_ACTIONS = 4;
const MAX_ACTION_OBJECTS = 16;

interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float32Array;
  /**
   * Each document's weighted frequency of the term in its text and in its input schema (document-terms.ts,
   * WeighedGroups), kept so that an extended index scores it again (extendedSteps).
   */
  readonly frequencies: Float64Array;
  readonly schemaFrequencies: Float64Array;
}

/** Each document's weighted length, per group of fields. */
interface Lengths {
  readonly text: Float64Array;
  readonly schema: Float64Array;
}

/** The postings of the documents just weighed, numbered after those weighed before. */
interface AddedPostings {
  readonly docs: number[];
  readonly frequencies: number[];
  readonly schemaFrequencies: number[];
}

/** Weighed documents, ready to be scored: per term its documents (ascending) and weighted frequencies. */
interface Weighed {
  readonly paths: readonly string[];
  /** The terms of the documents weighed before (an index being extended); empty for a new index. */
  readonly before: ReadonlyMap<string, Postings>;
  /** The terms of the documents just weighed, numbered after those. */
  readonly added: ReadonlyMap<string, AddedPostings>;
  readonly lengths: Lengths;
  readonly words: WeighedWords;
}

/** A query term, its weight, and which query word it came from (for coverage). */
interface QueryTerm {
  readonly term: string;
  readonly weight: number;
  readonly word: number;
}

/**
 * Per-document working arrays for one query. A catalog's index keeps one set
 * and reuses it, so a search over a large catalog allocates almost nothing.
 */
class Scratch {
  readonly accumulator: Float64Array;
  readonly matchedWords: Uint16Array;
  readonly lastWord: Int32Array;
  /** Documents touched by the query, then the accepted ones as a heap. */
  readonly touched: Int32Array;
  readonly scores: Float64Array;
  /** The exact-name bonus of each document named by the query (see ExactNames), 0 for the rest. */
  readonly bonus: Float64Array;
  /** The summed scores of each namespace, and the namespaces the query reached (NamespaceEvidence). */
  readonly namespaceSums: Float64Array;
  readonly namespacesReached: Int32Array;

  constructor(size: number, namespaces: number) {
    this.bonus = new Float64Array(size);
    this.namespaceSums = new Float64Array(namespaces);
    this.namespacesReached = new Int32Array(namespaces);
    this.accumulator = new Float64Array(size);
    this.matchedWords = new Uint16Array(size);
    this.lastWord = new Int32Array(size).fill(-1);
    this.touched = new Int32Array(size);
    this.scores = new Float64Array(size);
  }
}

/**
 * A BM25F inverted index over operations, built once per catalog: lexical
 * ranking over path words, description, capability notes, instructions and
 * input fields, plus the exact-name rule and HTTP methods as evidence for
 * verbs. No translation, and no synonyms beyond the verb and abbreviation
 * tables (docs/search.md says what it is and is not).
 */
export class SearchIndex {
  readonly #postings: Map<string, Postings>;
  readonly #sortedTerms: readonly string[];
  readonly #words: WeighedWords;
  readonly #exactNames: ExactNames;
  readonly #namespaces: NamespaceEvidence;
  readonly #paths: readonly string[];
  readonly #lengths: Lengths;
  readonly #scratch: Scratch;
  /** True while a rank call uses `scratch`; a call made from inside `visit` gets its own. */
  #busy = false;

  private constructor(postings: Map<string, Postings>, { paths, lengths, words }: Weighed) {
    this.#postings = postings;
    this.#sortedTerms = [...postings.keys()].sort();
    this.#words = words;
    this.#paths = paths;
    this.#lengths = lengths;
    this.#exactNames = new ExactNames(paths);
    this.#namespaces = new NamespaceEvidence(paths);
    this.#scratch = new Scratch(paths.length, this.#namespaces.count);
  }

  /** How many documents the index holds, numbered from 0. */
  get size(): number {
    return this.#paths.length;
  }

  /** Indexes documents; a document's index is its position in `documents`. */
  static build(documents: readonly SearchDocument[]): SearchIndex {
    return runToEnd(SearchIndex.buildSteps(documents));
  }

  /**
   * build as steps (src/slices.ts), yielding after every few documents and terms, so that a mount
   * builds the index between its requests rather than on the first search.
   */
  static *buildSteps(documents: readonly SearchDocument[]): Steps<SearchIndex> {
    return yield* SearchIndex.#scoredSteps(yield* weighedSteps(documents, undefined));
  }

  /**
   * An index over this index's documents, then `more` (numbered after them), as steps: what
   * building over all of them gives (docs/search.md, "An index extended with more documents"),
   * except that this index's documents keep the terms they were weighed with here, so they are
   * not weighed again. Term statistics, and so every score, are drawn from all of them.
   */
  *extendedSteps(more: readonly SearchDocument[]): Steps<SearchIndex> {
    const earlier = { postings: this.#postings, paths: this.#paths, lengths: this.#lengths, words: this.#words };
    return yield* SearchIndex.#scoredSteps(yield* weighedSteps(more, earlier));
  }

  /**
   * Scores every term's postings with BM25F over all the weighed documents, as steps: a document's
   * text and input schema are each normalised by their own length against that group's mean, and
   * their weighted frequencies summed before BM25's saturation (docs/search.md, "A long input schema
   * does not bury a name").
   */
  static *#scoredSteps(weighed: Weighed): Steps<SearchIndex> {
    const { before, added, lengths } = weighed;
    const count = lengths.text.length;
    const textNorms = normalisers(lengths.text);
    const schemaNorms = normalisers(lengths.schema);
    const postings = new Map<string, Postings>();
    const score = (
      term: string,
      docs: Int32Array,
      frequencies: Float64Array,
      schemaFrequencies: Float64Array,
    ): void => {
      const idf = Math.log(1 + (count - docs.length + 0.5) / (docs.length + 0.5));
      const scores = new Float32Array(docs.length);
      // An action is evidence, not text: its weight does not shrink in a long document (rest-actions.ts).
      const action = isActionTerm(term);
      docs.forEach((doc, index) => {
        const tf =
          (frequencies[index] as number) / (action ? 1 : (textNorms[doc] as number)) +
          (schemaFrequencies[index] as number) / (schemaNorms[doc] as number);
        scores[index] = (idf * tf * (K1 + 1)) / (tf + K1);
      });
      postings.set(term, { docs, scores, frequencies, schemaFrequencies });
    };
    for (const [term, old] of before) {
      const more = added.get(term);
      score(
        term,
        concatenated(Int32Array, old.docs, more?.docs),
        concatenated(Float64Array, old.frequencies, more?.frequencies),
        concatenated(Float64Array, old.schemaFrequencies, more?.schemaFrequencies),
      );
      if (postings.size % SCORED_PER_STEP === 0) yield;
    }
    for (const [term, list] of added) {
      if (before.has(term)) continue;
      score(
        term,
        Int32Array.from(list.docs),
        Float64Array.from(list.frequencies),
        Float64Array.from(list.schemaFrequencies),
      );
      if (postings.size % SCORED_PER_STEP === 0) yield;
    }
    yield;
    return new SearchIndex(postings, weighed);
  }

  /**
   * Calls `visit` with each accepted document matching the query, best first
   * (ties in document order), until it returns false. Scoring touches only
   * the documents holding a query term; ordering is drawn lazily, so stopping
   * after a page costs a page, not a sort of every match.
   */
  rank(query: string, accept: (doc: number) => boolean, visit: (match: RankedMatch) => boolean): void {
    const reentered = this.#busy;
    const scratch = reentered ? new Scratch(this.#paths.length, this.#namespaces.count) : this.#scratch;
    this.#busy = true;
    try {
      const count = this.#score(query, accept, scratch);
      visitBestFirst(scratch.touched, count, scratch.scores, (doc, score) => visit({ doc, score }));
    } finally {
      if (!reentered) this.#busy = false;
    }
  }

  /** Scores the query into `scratch`: returns how many accepted documents lead `scratch.touched`, their scores in `scratch.scores`. */
  #score(query: string, accept: (doc: number) => boolean, scratch: Scratch): number {
    const { accumulator, matchedWords, lastWord, touched, scores, bonus, namespaceSums, namespacesReached } = scratch;
    const { terms, words } = this.#queryTerms(query);
    let touchedCount = 0;
    for (const term of terms) touchedCount = this.#accumulate(term, scratch, touchedCount);
    // Named documents no query term reached still enter, on their bonus alone.
    this.#exactNames.forEachNamed(query, (doc, named) => {
      bonus[doc] = Math.max(bonus[doc] as number, named);
      if (matchedWords[doc] === 0) {
        touched[touchedCount++] = doc;
        matchedWords[doc] = 1;
      }
    });
    const spread = Math.max(1, words - 1);
    const namespaces = this.#namespaces.count > 1 ? this.#namespaces : undefined;
    let reached = 0;
    let count = 0;
    // Accepted documents are compacted to the front of `touched` as it is read, which the heap then orders in place.
    for (let index = 0; index < touchedCount; index += 1) {
      const doc = touched[index] as number;
      const coverage = 1 + (COVERAGE_BONUS * ((matchedWords[doc] as number) - 1)) / spread;
      const own = accumulator[doc] as number;
      if (namespaces !== undefined) reached = namespaces.add(doc, own, namespaceSums, namespacesReached, reached);
      const score = own * coverage + (bonus[doc] as number);
      accumulator[doc] = 0;
      matchedWords[doc] = 0;
      lastWord[doc] = -1;
      bonus[doc] = 0;
      if (score > 0 && accept(doc)) {
        touched[count] = doc;
        scores[doc] = score;
        count += 1;
      }
    }
    // Only now is every namespace's sum complete; the accepted documents take their namespace's share.
    namespaces?.addShares(touched, count, scores, namespaceSums, NAMESPACE_WEIGHT);
    for (let index = 0; index < reached; index += 1) namespaceSums[namespacesReached[index] as number] = 0;
    return count;
  }

  /** Adds one query term's postings into the accumulator; returns the new count of touched documents. */
  #accumulate({ term, weight, word }: QueryTerm, scratch: Scratch, touchedCount: number): number {
    const list = this.#postings.get(term);
    if (list === undefined) return touchedCount;
    const { accumulator, matchedWords, lastWord, touched } = scratch;
    let count = touchedCount;
    for (let index = 0; index < list.docs.length; index += 1) {
      const doc = list.docs[index] as number;
      if (lastWord[doc] !== word) {
        if (matchedWords[doc] === 0) touched[count++] = doc;
        matchedWords[doc] = (matchedWords[doc] as number) + 1;
        lastWord[doc] = word;
      }
      accumulator[doc] = (accumulator[doc] as number) + weight * (list.scores[index] as number);
    }
    return count;
  }

  /**
   * Query terms with weights: known terms at 1, then the pieces of an unknown
   * word run together (each counted as a word of its own), else prefix
   * completions of it at less. A word asking for an action ("create",
   * "deleted") also asks for that action's terms (rest-actions.ts), alone and
   * on each other word of the query. Each term is asked for once, for the
   * first word that yields it, weighing more the more words yield it;
   * `words` counts the words that yielded any term.
   */
  #queryTerms(query: string): { terms: QueryTerm[]; words: number } {
    const byTerm = new Map<string, { weight: number; word: number; repeats: number }>();
    const objects: { term: string; word: number }[] = [];
    const actions: { action: Action; word: number }[] = [];
    let words = 0;
    const add = (candidates: readonly string[], weight: number): void => {
      let yielded = false;
      for (const candidate of candidates) {
        const known = byTerm.get(candidate);
        if (known !== undefined) {
          known.weight = Math.max(known.weight, weight);
          known.repeats += 1;
        } else {
          byTerm.set(candidate, { weight, word: words, repeats: 1 });
          yielded = true;
        }
      }
      if (yielded) words += 1;
    };
    for (const word of splitQueryWords(query)) {
      const term = termOf(word);
      if (term === undefined) continue;
      const action = queryActionOf(word, term);
      if (action !== undefined && this.#postings.has(actionTerm(action))) {
        if (actions.length < MAX_ACTIONS) actions.push({ action, word: words });
        objects.push({ term, word: words });
        add([term, actionTerm(action)], 1);
        continue;
      }
      if (this.#postings.has(term)) {
        objects.push({ term, word: words });
        add([term], 1);
        continue;
      }
      const pieces = splitCompound(word, this.#words.all, MIN_QUERY_PIECE);
      if (pieces !== undefined) {
        for (const piece of pieces) {
          const pieceTerm = termOf(piece);
          if (pieceTerm === undefined || !this.#postings.has(pieceTerm)) continue;
          objects.push({ term: pieceTerm, word: words });
          add([pieceTerm], 1);
        }
      } else if (word.length >= 3) add(this.#completions(word), PREFIX_WEIGHT);
    }
    for (const { action, word } of actions) {
      for (const object of objects.slice(0, MAX_ACTION_OBJECTS)) {
        const term = actionObjectTerm(action, object.term);
        if (object.word !== word && !byTerm.has(term)) byTerm.set(term, { weight: 1, word, repeats: 1 });
      }
    }
    const repeated = (repeats: number): number => ((QUERY_TERM_K3 + 1) * repeats) / (QUERY_TERM_K3 + repeats);
    return {
      terms: [...byTerm].map(([term, { weight, word, repeats }]) => ({
        term,
        weight: weight * repeated(repeats),
        word,
      })),
      words,
    };
  }

  #completions(prefix: string): string[] {
    const terms = this.#sortedTerms;
    const low = lowerBound(terms.length, (index) => (terms[index] as string) < prefix);
    const found: string[] = [];
    for (let index = low; index < this.#sortedTerms.length && found.length < MAX_PREFIX_EXPANSIONS; index += 1) {
      const term = this.#sortedTerms[index] as string;
      if (!term.startsWith(prefix)) break;
      found.push(term);
    }
    return found;
  }
}

/** What an index being extended brings: its documents' terms, paths, lengths and words. */
interface Earlier {
  readonly postings: ReadonlyMap<string, Postings>;
  readonly paths: readonly string[];
  readonly lengths: Lengths;
  readonly words: WeighedWords;
}

/** Weighs `documents`, numbered after the documents of `earlier` (an index being extended) if any, as steps. */
function* weighedSteps(documents: readonly SearchDocument[], earlier: Earlier | undefined): Steps<Weighed> {
  const first = earlier?.paths.length ?? 0;
  const lengths = {
    text: new Float64Array(first + documents.length),
    schema: new Float64Array(first + documents.length),
  };
  if (earlier !== undefined) {
    lengths.text.set(earlier.lengths.text);
    lengths.schema.set(earlier.lengths.schema);
  }
  const added = new Map<string, AddedPostings>();
  const post = (term: string, doc: number, frequency: number, schemaFrequency: number): void => {
    let list = added.get(term);
    if (list === undefined) added.set(term, (list = { docs: [], frequencies: [], schemaFrequencies: [] }));
    list.docs.push(doc);
    list.frequencies.push(frequency);
    list.schemaFrequencies.push(schemaFrequency);
  };
  const visit = (doc: number, { text, schema }: WeighedGroups): void => {
    lengths.text[first + doc] = text.length;
    lengths.schema[first + doc] = schema.length;
    for (const [term, frequency] of text.terms) post(term, first + doc, frequency, schema.terms.get(term) ?? 0);
    for (const [term, frequency] of schema.terms) if (!text.terms.has(term)) post(term, first + doc, 0, frequency);
  };
  const words = yield* weightedTermsSteps(documents, visit, earlier?.words.text);
  const documentPaths = documents.map((document) => document.path);
  return {
    paths: earlier === undefined ? documentPaths : [...earlier.paths, ...documentPaths],
    before: earlier?.postings ?? new Map(),
    added,
    lengths,
    words: earlier === undefined ? words : { all: new Set([...earlier.words.all, ...words.all]), text: words.text },
  };
}

/**
 * Each document's BM25 length normaliser, 1 - B + B · length / mean length: a document of the mean
 * length has 1, a longer one more, so its frequencies count for less.
 */
function normalisers(lengths: Float64Array): Float64Array {
  let total = 0;
  for (const length of lengths) total += length;
  const mean = Math.max(total / Math.max(1, lengths.length), 1e-9);
  return lengths.map((length) => 1 - B + (B * length) / mean);
}

/** `first` then `second`, in one array of `type`. */
function concatenated<A extends Int32Array | Float64Array>(
  type: { new (length: number): A },
  first: A,
  second: readonly number[] | undefined,
): A {
  if (second === undefined) return first;
  const joined = new type(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}
