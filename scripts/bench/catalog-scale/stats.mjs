// Timing helpers: high-resolution samples and their percentiles.

/** Runs `action` and returns how long it took, in milliseconds. */
export function timed(action) {
  const started = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The p-th percentile (0–100) of samples, nearest-rank. */
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** The median of samples. */
export const median = (samples) => percentile(samples, 50);
