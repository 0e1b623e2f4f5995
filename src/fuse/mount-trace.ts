/**
 * Timing lines for the mount benchmark (scripts/bench/mount): with FORAGE_MOUNT_TRACE set in
 * the environment, a mount says on stderr when its node table is in and how long the event
 * loop stalled during each swap. Off by default: nothing else should depend on them.
 */
import { monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";

const enabled = process.env.FORAGE_MOUNT_TRACE !== undefined && process.env.FORAGE_MOUNT_TRACE !== "";

/** True when timing lines are asked for. */
export function tracing(): boolean {
  return enabled;
}

/** Writes one timing line to stderr when tracing. */
export function trace(line: string): void {
  if (enabled) process.stderr.write(`forage: trace: ${line}\n`);
}

/**
 * Watches the event loop from now on; `stop()` returns the longest stall seen, in milliseconds,
 * and then `gcPauses()` the longest garbage collection and their total (perf_hooks "gc" entries).
 * Resolves once the monitor's timer has run: a stall that began before that would go unseen.
 */
export async function watchStalls(): Promise<{ stop(): number; gcPauses(): string }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let longest = 0;
  let total = 0;
  const count = (entries: readonly PerformanceEntry[]): void => {
    for (const entry of entries) {
      longest = Math.max(longest, entry.duration);
      total += entry.duration;
    }
  };
  const collections = new PerformanceObserver((list) => count(list.getEntries()));
  collections.observe({ entryTypes: ["gc"] });
  await new Promise((started) => setTimeout(started, 10));
  return {
    stop: () => {
      histogram.disable();
      count(collections.takeRecords());
      collections.disconnect();
      return histogram.max / 1e6;
    },
    gcPauses: () => `longest GC pause ${longest.toFixed(1)} ms (${total.toFixed(0)} ms in all)`,
  };
}
