/**
 * The first index in [0, count) at which `before(index)` is false, for a predicate that is
 * true on a prefix of the range and false after it: a binary search over any sorted sequence.
 */
export function lowerBound(count: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
