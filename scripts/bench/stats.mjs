// The statistics every benchmark reports, defined once so their tables mean the same thing.
//
// Percentiles are nearest-rank: the p-th percentile of n samples is the ceil(p/100 · n)-th
// smallest (at least the first). It is always a value that was observed, never an
// interpolation, so the median of an even number of samples is the lower of the middle two.

/** Runs `action` and returns how long it took, in milliseconds. */
export function timed(action) {
  const started = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Awaits `action` and returns how long it took, in milliseconds. */
export async function timedAsync(action) {
  const started = process.hrtime.bigint();
  await action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The p-th percentile (0–100) of samples, nearest-rank. */
export function percentile(samples, p) {
  return percentileBy(samples, p, (sample) => sample);
}

/** The median of samples: the nearest-rank 50th percentile. */
export const median = (samples) => percentile(samples, 50);

/** The row whose `key(row)` is the nearest-rank p-th percentile, so a measured row is reported whole. */
export function percentileBy(rows, p, key) {
  if (rows.length === 0) throw new RangeError("percentile of no samples");
  const sorted = [...rows].sort((a, b) => key(a) - key(b));
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** The row whose `key(row)` is the median of all rows. */
export const medianBy = (rows, key) => percentileBy(rows, 50, key);

/** The smallest sample (a loop, since Math.min(...samples) overflows the stack on large arrays). */
export function min(samples) {
  return samples.reduce((least, sample) => Math.min(least, sample), Number.POSITIVE_INFINITY);
}

/** The largest sample. */
export function max(samples) {
  return samples.reduce((most, sample) => Math.max(most, sample), Number.NEGATIVE_INFINITY);
}

/** Milliseconds with three significant-ish digits: 123, 12.3, 1.23; "–" when there is no value. */
export function formatMs(ms) {
  if (ms === undefined || Number.isNaN(ms)) return "–";
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

/** a / b as "1.23×"; "–" when either is missing. */
export function formatRatio(a, b) {
  return a === undefined || b === undefined ? "–" : `${(a / b).toFixed(2)}×`;
}
