/**
 * Long work done between requests (docs/native.md, "Serving before the table is built"): a
 * generator that yields often is run for a few milliseconds at a time, and the event loop
 * serves the kernel's requests in between (setImmediate runs after the poll phase).
 */

/** How long one slice may keep the event loop, in milliseconds. */
export const SLICE_MS = 8;

/** What runInSlices rejects with once `cancelled()` is true. */
export class SlicesCancelled extends Error {}

/** Runs `work` to its end in slices of about `sliceMs`; rejects with SlicesCancelled once `cancelled()` is true. */
export function runInSlices<T>(
  work: Generator<void, T>,
  cancelled: () => boolean = () => false,
  sliceMs = SLICE_MS,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const slice = (): void => {
      try {
        if (cancelled()) throw new SlicesCancelled("cancelled");
        const end = performance.now() + sliceMs;
        for (;;) {
          const step = work.next();
          if (step.done) {
            resolve(step.value);
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
