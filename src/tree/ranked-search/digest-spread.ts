// Which ranked matches a query's digest shows: the best, spread over namespaces.
import { enclosingNamespaceOf } from "../../catalog/operation-path.js";

/**
 * How many operations a query directory's index shows (validated and not-validated ones in one ranking).
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
 * The digest's SEARCH_INDEX_RANKED matches, in rank order: the best ones, taking at most
 * SEARCH_INDEX_PER_NAMESPACE from one namespace while matches from other namespaces are left, then the
 * best passed over if room remains.
 */
export function spreadOverNamespaces<Match extends { readonly path: string }>(ranked: readonly Match[]): Match[] {
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
  return ranked.filter((match) => chosen.has(match));
}

/**
 * Whether the first `shown` of `chosen` differ from the first `shown` of `ranked`: the digest's header
 * says the spread only of the lines that fit its bytes, so a line cut for room never makes it say so.
 */
export function passesOverBest<Match>(chosen: readonly Match[], ranked: readonly Match[], shown: number): boolean {
  return chosen.slice(0, shown).some((match, index) => match !== ranked[index]);
}
