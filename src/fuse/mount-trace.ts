/**
 * Timing lines for the mount benchmark (scripts/bench/mount): with FORAGE_MOUNT_TRACE set in
 * the environment, a mount says on stderr when its node table is in and how long the event
 * loop stalled during each swap. Off by default: nothing else should depend on them.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

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
 * Watches the event loop from now on; `stop()` returns the longest stall seen, in milliseconds.
 * Resolves once the monitor's timer has run: a stall that began before that would go unseen.
 */
export async function watchStalls(): Promise<{ stop(): number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await new Promise((started) => setTimeout(started, 10));
  return {
    stop: () => {
      histogram.disable();
      return histogram.max / 1e6;
    },
  };
}
