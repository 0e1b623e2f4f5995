/**
 * Splits a run-together name such as "airqualityforecast" into words the
 * catalog already uses ("air", "quality", "forecast"). Names glued without
 * case or underscores are common in real tool catalogs, and no tokenizer can
 * split them without a vocabulary. Pieces are `minPiece` letters and up; the
 * split with the fewest pieces wins.
 */
export function splitCompound(
  word: string,
  vocabulary: ReadonlySet<string>,
  minPiece = MIN_PIECE,
): string[] | undefined {
  if (word.length < 6 || word.length > MAX_WORD || vocabulary.has(word)) return undefined;
  // best[i] holds the fewest-piece split of word.slice(0, i).
  const best: (string[] | undefined)[] = [[]];
  for (let end = 1; end <= word.length; end += 1) {
    for (let start = Math.max(0, end - MAX_PIECE); start <= end - minPiece; start += 1) {
      const prefix = best[start];
      const piece = word.slice(start, end);
      if (prefix === undefined || !vocabulary.has(piece)) continue;
      const candidate = [...prefix, piece];
      const current = best[end];
      if (current === undefined || candidate.length < current.length) best[end] = candidate;
    }
  }
  const split = best[word.length];
  return split !== undefined && split.length > 1 ? split : undefined;
}

/** Pieces of three letters and up by default: shorter ones split ordinary words into noise. */
const MIN_PIECE = 3;
const MAX_PIECE = 20;
/** Longer runs are not names but noise (or a hostile query): the split's cost grows with the square of the length. */
const MAX_WORD = 64;
