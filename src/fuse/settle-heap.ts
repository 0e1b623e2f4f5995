/**
 * Cleaning up after building a node table, before the mount serves its first request.
 *
 * Building the table renders every file, and left alone V8 would collect
 * that garbage later, on its own schedule. Measured at 1,000 operations,
 * about 20 ms of marking then landed in the first cold `find`, which ran
 * 1.4 times slower than the C filesystem instead of 1.09 times. And the
 * rendered bytes, freed, stay in glibc's heap: at 10,000 operations the
 * daemon's RSS settled at about 386 MB without this, and 280 MB with it.
 *
 * One collection, not compacting. A second, compacting one used to follow, for the sparse pages the
 * build leaves, but what it gave back lasted only until V8's memory reducer compacts an idle heap
 * anyway (some 30–40 s later, to the same size within 5 MB), while it raised the peak it was meant
 * to lower (the evacuated pages are copied first: 534 against 474 MB at ~20,000 real tools) and held
 * the daemon for 0.65 s there, search's preparation waiting behind it (BENCHMARKS.md, "One
 * collection after the table").
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined;

/** A full garbage collection, then hands the freed memory back to the kernel. */
export function settleHeap(releaseFreeMemory: () => void): void {
  if (!collect) {
    // Node has no public call for a collection; exposing V8's gc() is the documented way in.
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
  releaseFreeMemory();
}
