/**
 * Long work written once, as a generator that yields between its steps, and run either way:
 * to its end at once (`runToEnd`, what the synchronous APIs do) or a few milliseconds at a time
 * between requests (`runInSlices`, what a mount does while it serves), so that the event loop
 * answers the kernel's requests in between (setImmediate runs after the poll phase).
 */

/** Work that yields between its steps and returns a T. */
export type Steps<T> = Generator<void, T>;

/** How long one slice may keep the event loop, in milliseconds. */
export const SLICE_MS = 8;

/** What runInSlices rejects with once `cancelled()` is true. */
export class SlicesCancelled extends Error {}

/** Runs `work` to its end now, without yielding to the event loop. */
export function runToEnd<T>(work: Steps<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs `work` to its end in slices of about `sliceMs`, and resolves on a turn after the last; rejects with SlicesCancelled once `cancelled()` is true. */
export function runInSlices<T>(work: Steps<T>, cancelled: () => boolean = () => false, sliceMs = SLICE_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const slice = (): void => {
      try {
        if (cancelled()) throw new SlicesCancelled("cancelled");
        const end = performance.now() + sliceMs;
        for (;;) {
          const step = work.next();
          if (step.done) {
            // On a turn of its own: what awaits the work (a switch, the next long step) would
            // otherwise run in this slice's turn and lengthen it.
            setImmediate(() => resolve(step.value));
            return;
          }
          if (performance.now() >= end) break;
        }
        setImmediate(slice);
      } catch (error) {
        reject(error);
      }
    };
    setImmediate(slice);
  });
}

/**
 * Work done once, by whoever asks first: `steps()` runs it between a server's requests, and
 * `value()` finishes it now for a caller that cannot wait. Every generator `steps()` gives
 * drives the same work, so a request that arrives halfway finishes what the slices began and
 * the slices then find it done: nothing is built twice and no caller sees it half-built.
 */
export class StepsOnce<T> {
  readonly #make: () => Steps<T>;
  #work: Steps<T> | undefined;
  #done = false;
  #value: T | undefined;

  constructor(make: () => Steps<T>) {
    this.#make = make;
  }

  /** Whether the work has finished. */
  get done(): boolean {
    return this.#done;
  }

  /** The result, finishing the work now if it has not finished. */
  value(): T {
    return runToEnd(this.steps());
  }

  /** The work as steps, resumed where it stands; returns its result. */
  *steps(): Steps<T> {
    while (!this.#done) {
      this.#work ??= this.#make();
      let step: IteratorResult<void, T>;
      try {
        step = this.#work.next();
      } catch (error) {
        this.#work = undefined; // a failed run starts over when next asked
        throw error;
      }
      if (step.done) {
        this.#value = step.value;
        this.#done = true;
        this.#work = undefined;
      } else yield;
    }
    return this.#value as T;
  }
}
