import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Bearer tokens and what each selects (docs/afi.md, "Tokens"). Lookup takes the
 * same time whatever the presented token is: see `find`.
 */
export class TokenTable<V> {
  readonly #digests: readonly Buffer[];
  readonly #values: readonly V[];

  constructor(entries: readonly (readonly [token: string, value: V])[]) {
    this.#digests = entries.map(([token]) => digest(token));
    this.#values = entries.map(([, value]) => value);
  }

  /**
   * What `token` selects, or undefined for an unknown token.
   *
   * A Map lookup or `===` compares strings byte by byte and returns at the first
   * difference, so its time tells an attacker how much of a guess was right.
   * Instead both sides are hashed (sha256, so `timingSafeEqual` gets equal lengths
   * and no token's length shows either) and compared in constant time, against
   * every entry without stopping at a match, so neither the token's content nor
   * which entry it is changes how long the answer takes.
   */
  find(token: string): V | undefined {
    const presented = digest(token);
    let found: V | undefined;
    for (const [index, known] of this.#digests.entries()) {
      const equal = timingSafeEqual(presented, known);
      found = equal ? this.#values[index] : found;
    }
    return found;
  }
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
