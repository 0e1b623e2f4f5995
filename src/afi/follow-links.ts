import { afiError } from "./afi-error.js";
import type { AfiCore } from "./types.js";

/** Most links one path may pass through; more is a loop, or a chain no tree of Forage's makes. */
const MAX_LINK_HOPS = 8;

/**
 * The path a chain of symlinks ends at, by `stat` alone, so that it sees what the caller may
 * see: a target hidden from the caller is `not_found`. AFI's `read` refuses a symlink
 * (invalid_path); a transport follows one only when asked (docs/afi.md, "Reading a symlink").
 * Targets are AFI paths, normalised within the root, so following never leaves the tree.
 */
export function followLinks(afi: AfiCore, path: unknown): unknown {
  let current = path;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop += 1) {
    const entry = afi.stat(current);
    if (entry.type !== "symlink" || entry.target === undefined) return current;
    current = entry.target;
  }
  throw afiError("invalid_path", `more than ${MAX_LINK_HOPS} symlinks in a row`, String(path));
}
