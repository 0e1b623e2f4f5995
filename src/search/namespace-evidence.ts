/**
 * A namespace as evidence (docs/search.md, "A namespace vouches for its operations"): an
 * operation's namespace is its path without the last segment (`Google_Maps` for
 * `Google_Maps.maps_geocode`), the server or API it came from. How much the query is about a
 * namespace is the mean score of all its operations, those the query did not reach counting 0;
 * an operation gains a share of its namespace's mean. A request about maps then lifts every
 * maps tool over a tool of another server that shares a few of its words, and one stray match
 * in a large namespace about something else is worth less than a match in a namespace the query
 * is about. In a catalog with a single namespace every operation would gain alike, so nothing is
 * added there and scores stay as they were.
 */
export class NamespaceEvidence {
  /** Each document's namespace number. */
  readonly #of: Int32Array;
  /** One over each namespace's number of documents (a product per scored document, not a division). */
  readonly #inverseSizes: Float64Array;

  /** Groups `paths` by namespace; a document's number is its position in the array. */
  constructor(paths: readonly string[]) {
    const numbers = new Map<string, number>();
    const sizes: number[] = [];
    this.#of = Int32Array.from(paths, (path) => {
      const namespace = path.slice(0, Math.max(0, path.lastIndexOf(".")));
      let number = numbers.get(namespace);
      if (number === undefined) {
        number = numbers.size;
        numbers.set(namespace, number);
        sizes.push(0);
      }
      sizes[number] = (sizes[number] as number) + 1;
      return number;
    });
    this.#inverseSizes = Float64Array.from(sizes, (size) => 1 / size);
  }

  /** How many namespaces there are; with fewer than two the evidence tells nothing apart. */
  get count(): number {
    return this.#inverseSizes.length;
  }

  /**
   * Adds `doc`'s score into its namespace's sum in `sums`; a namespace first reached is written into `reached`
   * at `reachedCount`. Returns the new count of namespaces reached.
   */
  add(doc: number, score: number, sums: Float64Array, reached: Int32Array, reachedCount: number): number {
    // Scores are never negative; skipping 0 keeps a namespace's sum 0 until it is first reached.
    if (score === 0) return reachedCount;
    const namespace = this.#of[doc] as number;
    const before = sums[namespace] as number;
    sums[namespace] = before + score;
    if (before !== 0) return reachedCount;
    reached[reachedCount] = namespace;
    return reachedCount + 1;
  }

  /** Adds `weight` times its namespace's mean (from `sums`) to the score of each of the first `count` of `docs`. */
  addShares(docs: Int32Array, count: number, scores: Float64Array, sums: Float64Array, weight: number): void {
    for (let index = 0; index < count; index += 1) {
      const doc = docs[index] as number;
      const namespace = this.#of[doc] as number;
      scores[doc] =
        (scores[doc] as number) + weight * (sums[namespace] as number) * (this.#inverseSizes[namespace] as number);
    }
  }
}
