import { type AfiClient, type Reply, timedOut } from "./afi-client.js";

/** The longest `retry_after` the kit waits out, in seconds; a longer one is answered as it came. */
const MAX_RETRY_WAIT_S = 5;
const MAX_RETRIES = 3;

/** A client that keeps every error answer, waits out rate limits and stops asking once the run's deadline passes. */
export interface RecordingClient extends AfiClient {
  readonly errors: readonly Reply[];
  /** How many requests got no answer in time. */
  timeouts(): number;
}

/**
 * Wraps `client` for one run. A `rate_limited` answer with a short
 * `retry_after` is honoured and the request sent again (AFI basic/errors,
 * "Retries"); every error answer, retried or not, is kept for the Errors group.
 */
export function recordingClient(client: AfiClient, deadline: number): RecordingClient {
  const errors: Reply[] = [];
  let timeouts = 0;
  const ask = async <T>(request: () => Promise<Reply<T>>): Promise<Reply<T>> => {
    for (let attempt = 0; ; attempt += 1) {
      if (Date.now() > deadline)
        return {
          kind: "broken",
          reason: "the run's deadline passed before this request",
          sent: "(not sent)",
          got: "(nothing)",
        };
      const reply = await request();
      if (timedOut(reply)) timeouts += 1;
      if (reply.kind !== "error") return reply;
      errors.push(reply);
      const retry = (reply.error as { code?: unknown; retry_after?: unknown } | null) ?? {};
      const wait = typeof retry.retry_after === "number" ? retry.retry_after : Number.POSITIVE_INFINITY;
      if (retry.code !== "rate_limited" || attempt >= MAX_RETRIES || wait > MAX_RETRY_WAIT_S) return reply;
      if (Date.now() + wait * 1000 > deadline) return reply;
      await new Promise((resume) => setTimeout(resume, Math.max(wait * 1000, 100)));
    }
  };
  return {
    transport: client.transport,
    target: client.target,
    features: client.features,
    errors,
    timeouts: () => timeouts,
    manifest: () => ask(() => client.manifest()),
    stat: (path) => ask(() => client.stat(path)),
    list: (path, options) => ask(() => client.list(path, options)),
    read: (path, options) => ask(() => client.read(path, options)),
    search: (query, options) => ask(() => client.search(query, options)),
    close: () => client.close(),
  };
}
