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
