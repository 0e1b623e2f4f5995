/** Clients remembered at once; past this the longest-idle one is forgotten (it starts again with a full bucket). */
const MAX_CLIENTS = 10_000;

/**
 * A token bucket per client: `perSecond` requests a second, bursts of as many.
 * `take` answers 0 when the request may go ahead, else the seconds to wait.
 */
export class RateLimit {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  readonly #perSecond: number;
  readonly #now: () => number;

  constructor(perSecond: number, now: () => number = () => performance.now() / 1_000) {
    this.#perSecond = perSecond;
    this.#now = now;
  }

  /** Spends one token of `client`'s bucket; returns 0, or the whole seconds until a token is there. */
  take(client: string): number {
    const now = this.#now();
    const bucket = this.#buckets.get(client) ?? { tokens: this.#perSecond, at: now };
    this.#buckets.delete(client);
    bucket.tokens = Math.min(this.#perSecond, bucket.tokens + (now - bucket.at) * this.#perSecond);
    bucket.at = now;
    this.#buckets.set(client, bucket);
    if (this.#buckets.size > MAX_CLIENTS) this.#buckets.delete(this.#buckets.keys().next().value as string);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#perSecond));
  }
}
