/** Which AFI transport a client speaks (AFI transports/). */
export type Transport = "fuse" | "http" | "mcp";

/** What was sent and what came back, in the transport's own terms: a failed scenario's evidence. */
export interface Exchange {
  readonly sent: string;
  readonly got: string;
}

/**
 * One answer of a provider. `ok` carries the result as it came off the wire
 * (scenarios check its shape); `error` an AFI Error as sent, which may itself be
 * malformed, with `signal` saying what the transport's own signalling was wrong
 * about (an HTTP status, a missing `isError`); `broken` a request that got no
 * AFI answer at all: a timeout, a dead connection, a body that is not JSON.
 */
export type Reply<T = unknown> = Exchange &
  (
    | { readonly kind: "ok"; readonly value: T }
    | { readonly kind: "error"; readonly error: unknown; readonly signal?: string }
    | {
        readonly kind: "broken";
        readonly reason: string;
        /** Set when the target itself could not be reached (a refused connection), not a bad answer. */
        readonly unreachable?: true;
      }
  );

/** `list` options (AFI operations/list). */
export interface ListOptions {
  readonly limit?: number;
  readonly cursor?: string;
  readonly glob?: string;
}

/** `read` options (AFI operations/read). */
export interface ReadOptions {
  readonly offset?: number;
  readonly length?: number;
}

/** `search` options (AFI operations/search). */
export interface SearchOptions {
  readonly path?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** A `read` result with the bytes decoded from the transport's form. */
export interface ReadValue {
  readonly bytes: Uint8Array;
  /** Absent where the transport has no form for it (FUSE). */
  readonly content_type?: string;
  readonly eof: boolean;
}

/** What a transport can express at all; a scenario that needs more is skipped on it, saying why. */
export interface TransportFeatures {
  /** Paths go to the provider as given, not resolved first by a kernel. */
  readonly rawPaths: boolean;
  /** Entries and reads carry `content_type`. */
  readonly contentType: boolean;
  /** `list` takes limit, cursor and glob; `search` takes a cursor. */
  readonly paging: boolean;
  /** `read` reports `eof` as the provider says it, not as the kit works it out from the size. */
  readonly providerEof: boolean;
}

/**
 * AFI's operations over one transport, knowing nothing of the provider behind
 * it. Every method answers a Reply and never throws; each call is bounded by
 * the client's per-request timeout.
 */
export interface AfiClient {
  readonly transport: Transport;
  readonly target: string;
  readonly features: TransportFeatures;
  manifest(): Promise<Reply>;
  stat(path: string): Promise<Reply>;
  list(path: string, options?: ListOptions): Promise<Reply>;
  read(path: string, options?: ReadOptions): Promise<Reply<ReadValue>>;
  search(query: unknown, options?: SearchOptions): Promise<Reply>;
  /** Ends the session (an MCP server process); safe to call twice. */
  close(): Promise<void>;
}

/** The target could not be reached or named at all: `forage afi-check` exits 2. */
export class TargetError extends Error {
  override readonly name = "TargetError";
  constructor(
    message: string,
    /** True when a request to it was left hanging (a hung FUSE mount), which may hold the process open. */
    readonly hung = false,
  ) {
    super(message);
  }
}

/** True for the broken reply of a request that got no answer in time. */
export function timedOut(reply: Reply): boolean {
  return reply.kind === "broken" && reply.reason.startsWith("no answer within");
}

/** Most characters of one side of an exchange kept as evidence. */
const EVIDENCE_CHARACTERS = 240;

/** Text shortened for evidence, with `…` where it was cut. */
export function evidenceText(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > EVIDENCE_CHARACTERS ? `${flat.slice(0, EVIDENCE_CHARACTERS)}…` : flat;
}

/** A value as JSON for evidence; bytes are summarised by their length. */
export function evidenceJson(value: unknown): string {
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  try {
    return evidenceText(JSON.stringify(value) ?? String(value));
  } catch {
    return evidenceText(String(value));
  }
}

/** Races `work` against `ms`; on timeout the answer is a broken reply naming the limit. */
export async function withTimeout<T>(
  work: Promise<Reply<T>>,
  ms: number,
  sent: string,
  onTimeout?: () => void,
): Promise<Reply<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Reply<T>>((resolve) => {
    timer = setTimeout(() => {
      onTimeout?.();
      resolve({ kind: "broken", reason: `no answer within ${ms} ms`, sent, got: "(nothing)" });
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
