// Which ranked matches a query's digest shows: the best, spread over namespaces, the weak ones left out.
import { enclosingNamespaceOf } from "../../catalog/operation-path.js";

/**
 * How many operations a query directory's index shows at most (validated and not-validated ones in one ranking).
 * Four: shell-only agents chose from the first four lines and never the fifth (docs/mount.md, "Search").
 */
const SEARCH_INDEX_RANKED = 4;
/**
 * At most this many of a digest's ranked lines come from one namespace while others match: a
 * namespace's further operations are one `cat NS/@index.txt` away, a match in another namespace is
 * not, and shell-only agents choose from the digest's four lines (docs/mount.md, "Search").
 */
export const SEARCH_INDEX_PER_NAMESPACE = 2;
/**
 * The digest shows this many of its matches whatever their scores, and further ones only while their
 * score is at least CLOSE_TO_BEST of the best's: a match scored under half the best's was almost never
 * what a request wanted, and each line costs an agent bytes in every digest it reads (docs/mount.md, "Search").
 */
const SHOWN_WHATEVER_SCORE = 2;
const CLOSE_TO_BEST = 0.5;

/**
 * The digest's matches, in rank order: of the best SEARCH_INDEX_RANKED, taking at most
 * SEARCH_INDEX_PER_NAMESPACE from one namespace while matches from other namespaces are left, then the
 * best passed over if room remains, those after the first SHOWN_WHATEVER_SCORE whose score (`scoreOf`,
 * one scale for all of `ranked`) is close to the best's.
 */
export function digestMatches<Match extends { readonly path: string }>(
  ranked: readonly Match[],
  scoreOf: (match: Match) => number,
): Match[] {
  const taken = new Map<string, number>();
  const chosen = new Set<Match>();
  for (const match of ranked) {
    if (chosen.size === SEARCH_INDEX_RANKED) break;
    const namespace = enclosingNamespaceOf(match.path);
    const count = taken.get(namespace) ?? 0;
    if (count === SEARCH_INDEX_PER_NAMESPACE) continue;
    taken.set(namespace, count + 1);
    chosen.add(match);
  }
  for (const match of ranked) {
    if (chosen.size === SEARCH_INDEX_RANKED) break;
    chosen.add(match);
  }
  const least = Math.max(0, ...ranked.map(scoreOf)) * CLOSE_TO_BEST;
  return ranked
    .filter((match) => chosen.has(match))
    .filter((match, index) => index < SHOWN_WHATEVER_SCORE || scoreOf(match) >= least);
}

/**
 * Whether the first `shown` of `chosen` differ from the first `shown` of `ranked`: the digest's header
 * says the spread only of the lines that fit its bytes, so a line cut for room never makes it say so.
 */
export function passesOverBest<Match>(chosen: readonly Match[], ranked: readonly Match[], shown: number): boolean {
  return chosen.slice(0, shown).some((match, index) => match !== ranked[index]);
}
