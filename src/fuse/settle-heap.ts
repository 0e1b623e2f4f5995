/**
 * Cleaning up after building a node table, before the mount serves its first request.
 *
 * Building the table renders every file, and left alone V8 would collect
 * that garbage later, on its own schedule. Measured at 1,000 operations,
 * about 20 ms of marking then landed in the first cold `find`, which ran
 * 1.4 times slower than the C filesystem instead of 1.09 times. And the
 * rendered bytes, freed, stay in glibc's heap: at 10,000 operations the
 * daemon's RSS settled at about 386 MB without this, and 280 MB with it.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined;

/** Two full garbage collections, then hands the freed memory back to the kernel. */
export function settleHeap(releaseFreeMemory: () => void): void {
  if (!collect) {
    // Node has no public call for a collection; exposing V8's gc() is the documented way in.
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
  // The first collection frees ArrayBuffer memory on a background thread; the second waits for that.
  collect();
  releaseFreeMemory();
}
