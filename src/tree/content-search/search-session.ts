import { type ControlSession, TreeError } from "../virtual-tree.js";

/** Largest search request accepted through the control file. */
export const MAX_SEARCH_REQUEST_BYTES = 64 * 1_024;

/** Callers with a request waiting at once; the oldest is dropped past this. */
const MAX_PENDING_CALLERS = 256;

/**
 * Requests written and closed unanswered, one per caller (a Unix session), so
 * that `echo '{…}' > .afi/search; cat .afi/search` works from one shell while
 * another agent's `grep -r` can neither take nor disturb that answer.
 */
export class PendingRequests {
  readonly #byCaller = new Map<string, Uint8Array>();

  leave(caller: string, request: Uint8Array): void {
    this.#byCaller.delete(caller);
    this.#byCaller.set(caller, request);
    if (this.#byCaller.size > MAX_PENDING_CALLERS) this.#byCaller.delete(this.#byCaller.keys().next().value as string);
  }

  /** A caller's pending request, answered once, like a pipe. */
  take(caller: string): Uint8Array | undefined {
    const request = this.#byCaller.get(caller);
    this.#byCaller.delete(caller);
    return request;
  }
}

/** A session on /.afi/search: collects a JSON request, answers NDJSON Match lines and an empty line. */
export class AfiSearchSession implements ControlSession {
  #request = new Uint8Array(0);
  #wrote = false;
  /** The answer, or the search still computing it. */
  #answer: Uint8Array | Promise<Uint8Array> | undefined;
  #failure: TreeError | undefined;

  readonly #pending: PendingRequests;
  readonly #caller: string | undefined;
  readonly #run: (request: string) => Promise<Uint8Array>;

  constructor(
    pending: PendingRequests,
    /** Who opened this handle; without one, requests never pass between handles. */
    caller: string | undefined,
    run: (request: string) => Promise<Uint8Array>,
  ) {
    this.#pending = pending;
    this.#caller = caller;
    this.#run = run;
  }

  write(data: Uint8Array, offset: number): number {
    const end = offset + data.length;
    if (end > MAX_SEARCH_REQUEST_BYTES)
      throw new TreeError("invalid_path", `a search request is at most ${MAX_SEARCH_REQUEST_BYTES} bytes`);
    if (end > this.#request.length) {
      const grown = new Uint8Array(end);
      grown.set(this.#request);
      this.#request = grown;
    }
    this.#request.set(data, offset);
    this.#wrote = true;
    this.#answer = undefined;
    this.#failure = undefined;
    return data.length;
  }

  truncate(size: number): void {
    this.#request = this.#request.slice(0, Math.min(size, this.#request.length));
    this.#wrote = true;
    this.#answer = undefined;
  }

  read(offset: number, length: number): Uint8Array | Promise<Uint8Array> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#answer === undefined) {
      const request = this.#wrote ? this.#request : this.#takeLatest();
      // With no request yet the file reads as empty, so `grep -r` and `cat` over the mount never fail on it.
      if (request === undefined || request.length === 0) return new Uint8Array(0);
      try {
        this.#answer = this.#run(new TextDecoder().decode(request)).then(
          (answer) => (this.#answer = answer),
          (error: unknown) => {
            throw (this.#failure = asTreeError(error));
          },
        );
      } catch (error) {
        throw (this.#failure = asTreeError(error));
      }
    }
    const answer = this.#answer;
    return answer instanceof Uint8Array
      ? answer.subarray(offset, offset + length)
      : answer.then((bytes) => bytes.subarray(offset, offset + length));
  }

  #takeLatest(): Uint8Array | undefined {
    return this.#caller === undefined ? undefined : this.#pending.take(this.#caller);
  }

  size(): number {
    return this.#answer instanceof Uint8Array ? this.#answer.length : this.#request.length;
  }

  close(): void {
    if (this.#caller === undefined || !this.#wrote) return;
    // An empty write (`: > .afi/search`) withdraws the caller's waiting request.
    if (this.#request.length === 0) this.#pending.take(this.#caller);
    // A writer that read its own answer (one handle for both) leaves nothing for others.
    else if (this.#answer === undefined && this.#failure === undefined)
      this.#pending.leave(this.#caller, this.#request);
  }
}

function asTreeError(error: unknown): TreeError {
  return error instanceof TreeError ? error : new TreeError("internal", String(error));
}
