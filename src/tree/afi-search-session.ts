import { TreeError, type ControlSession } from "./virtual-tree.js";

/** Largest search request accepted through the control file. */
export const MAX_SEARCH_REQUEST_BYTES = 64 * 1_024;

/** Where control sessions of one tree leave and find the latest request. */
export interface RequestSlot {
  latest: Uint8Array | undefined;
}

/** A session on /.afi/search: collects a JSON request, answers NDJSON Match lines and an empty line. */
export class AfiSearchSession implements ControlSession {
  private request = new Uint8Array(0);
  private wrote = false;
  private answer: Uint8Array | undefined;
  private failure: TreeError | undefined;

  constructor(
    private readonly slot: RequestSlot,
    private readonly run: (request: string) => Uint8Array,
  ) {}

  write(data: Uint8Array, offset: number): number {
    const end = offset + data.length;
    if (end > MAX_SEARCH_REQUEST_BYTES) throw new TreeError("invalid_path", `a search request is at most ${MAX_SEARCH_REQUEST_BYTES} bytes`);
    if (end > this.request.length) {
      const grown = new Uint8Array(end);
      grown.set(this.request);
      this.request = grown;
    }
    this.request.set(data, offset);
    this.wrote = true;
    this.answer = undefined;
    this.failure = undefined;
    return data.length;
  }

  truncate(size: number): void {
    this.request = this.request.slice(0, Math.min(size, this.request.length));
    this.wrote = true;
    this.answer = undefined;
  }

  read(offset: number, length: number): Uint8Array {
    if (this.failure !== undefined) throw this.failure;
    if (this.answer === undefined) {
      const request = this.wrote ? this.request : this.takeLatest();
      // With no request yet the file reads as empty, so `grep -r` and `cat` over the mount never fail on it.
      if (request === undefined || request.length === 0) return new Uint8Array(0);
      try {
        this.answer = this.run(new TextDecoder().decode(request));
      } catch (error) {
        this.failure = error instanceof TreeError ? error : new TreeError("internal", String(error));
        throw this.failure;
      }
    }
    return this.answer.subarray(offset, offset + length);
  }

  /** A request left by a writer is answered once, like a pipe, so later `grep -r` or `cat` read an empty file. */
  private takeLatest(): Uint8Array | undefined {
    const latest = this.slot.latest;
    this.slot.latest = undefined;
    return latest;
  }

  size(): number {
    return this.answer?.length ?? this.request.length;
  }

  close(): void {
    // A writer that read its own answer (one handle for both) leaves nothing for others.
    if (this.wrote && this.request.length > 0 && this.answer === undefined && this.failure === undefined) this.slot.latest = this.request;
  }
}
