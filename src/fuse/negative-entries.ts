/**
 * The negative entries the handlers gave (ENOENT cached by the kernel), kept
 * so that a swap can invalidate each one: a name missing from this revision
 * may exist in the next (docs/native.md, "Kernel caching").
 */

/** Default cap on remembered negative entries; past it, misses are not cached. */
export const MAX_NEGATIVE_ENTRIES = 10_000;

export class NegativeEntries {
  readonly #timeout: number;
  readonly #max: number;
  readonly #byParent = new Map<number, Set<string>>();
  #count = 0;

  /** `timeout` is the negative timeout in seconds (0 turns negative caching off). */
  constructor(timeout: number, max = MAX_NEGATIVE_ENTRIES) {
    this.#timeout = timeout;
    this.#max = max;
  }

  /** Records "`name` is missing in `parent`"; false when negative caching is off or full (answer ENOENT then). */
  remember(parent: number, name: string): boolean {
    if (this.#timeout <= 0) return false;
    if (this.#count >= this.#max) return false;
    let names = this.#byParent.get(parent);
    if (!names) this.#byParent.set(parent, (names = new Set()));
    if (!names.has(name)) {
      names.add(name);
      this.#count++;
    }
    return true;
  }

  /** Appends every remembered entry as (parents[i], names[i]) and forgets them all. */
  drainInto(parents: number[], names: string[]): void {
    for (const [parent, set] of this.#byParent) {
      for (const name of set) {
        parents.push(parent);
        names.push(name);
      }
    }
    this.#byParent.clear();
    this.#count = 0;
  }
}
