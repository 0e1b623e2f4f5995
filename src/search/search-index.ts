import { splitCompound } from "./compound-words.js";
import { splitWords, termOf, termsOf } from "./tokenize.js";

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

/**
 * Field weights for BM25F. Names are what callers type, so path words weigh
 * most; instructions and field descriptions often mention other operations,
 * so they weigh least.
 */
const WEIGHTS = { path: 3, description: 1, capabilities: 1, instructions: 0.4, fieldNames: 1, fieldDescriptions: 0.4 } as const;
const K1 = 1.2;
const B = 0.75;
/** A query word missing from the vocabulary may still be the start of one ("calend" → "calendar"). */
const PREFIX_WEIGHT = 0.5;
const MAX_PREFIX_EXPANSIONS = 8;
/** Each query term matched beyond the first multiplies the score, so full matches outrank partial ones. */
const COVERAGE_BONUS = 0.25;

interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float32Array;
}

/** A BM25F inverted index over operations, built once per catalog. */
export class SearchIndex {
  private readonly postings: Map<string, Postings>;
  private readonly sortedTerms: readonly string[];
  private readonly exactPaths: Map<string, number>;
  private readonly accumulator: Float64Array;
  private readonly matchedTerms: Uint8Array;

  private constructor(postings: Map<string, Postings>, exactPaths: Map<string, number>, size: number) {
    this.postings = postings;
    this.sortedTerms = [...postings.keys()].sort();
    this.exactPaths = exactPaths;
    this.accumulator = new Float64Array(size);
    this.matchedTerms = new Uint8Array(size);
  }

  /** Indexes documents; a document's index is its position in `documents`. */
  static build(documents: readonly SearchDocument[]): SearchIndex {
    const vocabulary = textVocabulary(documents);
    const weighted = documents.map((document) => weightedTerms(document, vocabulary));
    const averageLength = weighted.reduce((sum, entry) => sum + entry.length, 0) / Math.max(1, weighted.length);
    const collected = new Map<string, { docs: number[]; tfs: number[]; lengths: number[] }>();
    weighted.forEach((entry, doc) => {
      for (const [term, tf] of entry.terms) {
        let list = collected.get(term);
        if (list === undefined) collected.set(term, (list = { docs: [], tfs: [], lengths: [] }));
        list.docs.push(doc);
        list.tfs.push(tf);
        list.lengths.push(entry.length);
      }
    });
    const postings = new Map<string, Postings>();
    for (const [term, list] of collected) {
      const idf = Math.log(1 + (documents.length - list.docs.length + 0.5) / (list.docs.length + 0.5));
      const scores = list.tfs.map((tf, index) => {
        const norm = 1 - B + (B * (list.lengths[index] as number)) / Math.max(averageLength, 1e-9);
        return (idf * tf * (K1 + 1)) / (tf + K1 * norm);
      });
      postings.set(term, { docs: Int32Array.from(list.docs), scores: Float32Array.from(scores) });
    }
    return new SearchIndex(postings, new Map(documents.map((document, doc) => [document.path, doc])), documents.length);
  }

  /** Every accepted document matching the query, best first; ties keep document order. */
  rank(query: string, accept: (doc: number) => boolean): RankedMatch[] {
    const queryTerms = this.queryTerms(query);
    const touched: number[] = [];
    queryTerms.forEach(({ term, weight }) => this.accumulate(term, weight, touched));
    const exact = this.exactPaths.get(query.trim());
    const matches: RankedMatch[] = [];
    for (const doc of touched) {
      const coverage = 1 + COVERAGE_BONUS * Math.max(0, (this.matchedTerms[doc] as number) - 1);
      const score = (this.accumulator[doc] as number) * coverage + (doc === exact ? 1_000 : 0);
      this.accumulator[doc] = 0;
      this.matchedTerms[doc] = 0;
      if (score > 0 && accept(doc)) matches.push({ doc, score });
    }
    if (exact !== undefined && !touched.includes(exact) && accept(exact)) matches.push({ doc: exact, score: 1_000 });
    return matches.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  private accumulate(term: string, weight: number, touched: number[]): void {
    const list = this.postings.get(term);
    if (list === undefined) return;
    for (let index = 0; index < list.docs.length; index += 1) {
      const doc = list.docs[index] as number;
      if (this.matchedTerms[doc] === 0) touched.push(doc);
      this.accumulator[doc] = (this.accumulator[doc] as number) + weight * (list.scores[index] as number);
      this.matchedTerms[doc] = Math.min(255, (this.matchedTerms[doc] as number) + 1);
    }
  }

  /** Query terms with weights: exact terms at 1, prefix completions of unknown words at less. */
  private queryTerms(query: string): { term: string; weight: number }[] {
    const terms = new Map<string, number>();
    for (const word of splitWords(query)) {
      const term = termOf(word);
      if (term === undefined) continue;
      if (this.postings.has(term)) terms.set(term, 1);
      else if (word.length >= 3) for (const completion of this.completions(word)) terms.set(completion, Math.max(terms.get(completion) ?? 0, PREFIX_WEIGHT));
    }
    return [...terms].map(([term, weight]) => ({ term, weight }));
  }

  private completions(prefix: string): string[] {
    let low = 0;
    let high = this.sortedTerms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.sortedTerms[middle] as string) < prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let index = low; index < this.sortedTerms.length && found.length < MAX_PREFIX_EXPANSIONS; index += 1) {
      const term = this.sortedTerms[index] as string;
      if (!term.startsWith(prefix)) break;
      found.push(term);
    }
    return found;
  }
}

/** Words of three or more letters used in descriptive text, to split run-together names with. */
function textVocabulary(documents: readonly SearchDocument[]): Set<string> {
  const vocabulary = new Set<string>();
  for (const document of documents) {
    for (const word of splitWords(`${document.description} ${document.capabilities.join(" ")}`)) {
      if (word.length >= 3) vocabulary.add(word);
    }
  }
  return vocabulary;
}

function weightedTerms(document: SearchDocument, vocabulary: ReadonlySet<string>): { terms: Map<string, number>; length: number } {
  const terms = new Map<string, number>();
  let length = 0;
  const add = (words: readonly string[], weight: number): void => {
    for (const term of words) terms.set(term, (terms.get(term) ?? 0) + weight);
    length += words.length * weight;
  };
  add(pathTerms(document.path, vocabulary), WEIGHTS.path);
  add(termsOf(document.description), WEIGHTS.description);
  add(termsOf(document.capabilities.join(" ")), WEIGHTS.capabilities);
  add(termsOf(document.instructions), WEIGHTS.instructions);
  add(termsOf(document.inputFields.map((field) => field.name).join(" ")), WEIGHTS.fieldNames);
  add(termsOf(document.inputFields.map((field) => field.description).join(" ")), WEIGHTS.fieldDescriptions);
  return { terms, length };
}

/** Path words, with run-together segments also split into known words. */
function pathTerms(path: string, vocabulary: ReadonlySet<string>): string[] {
  const words: string[] = [];
  for (const word of splitWords(path)) {
    words.push(word);
    words.push(...(splitCompound(word, vocabulary) ?? []));
  }
  return words.map(termOf).filter((term): term is string => term !== undefined);
}
