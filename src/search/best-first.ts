/**
 * Visits `docs[0..count)` by descending `scores[doc]`, ties by ascending
 * document number (list order), until `visit` returns false. It heapifies in
 * place in linear time and pops lazily: a search reads only its first few
 * results, so sorting every match of a common word in a large catalog would be
 * wasted work. The order is exactly that of a full sort by the same comparison.
 */
export function visitBestFirst(
  docs: Int32Array,
  count: number,
  scores: Float64Array,
  visit: (doc: number, score: number) => boolean,
): void {
  const before = (a: number, b: number): boolean => {
    const scoreA = scores[a] as number;
    const scoreB = scores[b] as number;
    return scoreA > scoreB || (scoreA === scoreB && a < b);
  };
  const siftDown = (start: number, size: number): void => {
    let parent = start;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && before(docs[right] as number, docs[left] as number) ? right : left;
      if (!before(docs[child] as number, docs[parent] as number)) return;
      const swap = docs[parent] as number;
      docs[parent] = docs[child] as number;
      docs[child] = swap;
      parent = child;
    }
  };
  for (let index = (count >>> 1) - 1; index >= 0; index -= 1) siftDown(index, count);
  for (let size = count; size > 0; size -= 1) {
    const top = docs[0] as number;
    docs[0] = docs[size - 1] as number;
    siftDown(0, size - 1);
    if (!visit(top, scores[top] as number)) return;
  }
}
