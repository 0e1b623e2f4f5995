import picomatch from "picomatch";
import { ForageError } from "../../forage-error.js";
import { namespaceSegment } from "./part-names.js";
import type { SplitOperation } from "./spec-operations.js";

/** What a user keeps of a spec: operations with one of these tags, or whose path matches one of these globs. */
export interface OpenApiSelect {
  /** Tag names, as written in the spec or as namespace segments (`code-scanning` or `code_scanning`). */
  readonly tags?: readonly string[];
  /** Globs over path templates, `/` separated: `/repos/**`, `/users/*`. Braces are literal, as in templates. */
  readonly paths?: readonly string[];
}

/** Most tags and globs one selection may hold. */
const MAX_SELECTORS = 256;

/**
 * The test an operation passes to be kept: any of its tags named, or its path matched; with
 * nothing to select, everything is kept. Globs are picomatch's, with braces and extglobs off,
 * because a path template's `{owner}` is literal text.
 */
export function selectionTest(select: OpenApiSelect | undefined): (operation: SplitOperation) => boolean {
  if (select === undefined) return () => true;
  const tags = stringList(select.tags, "tags");
  const paths = stringList(select.paths, "paths");
  if (tags.length + paths.length > MAX_SELECTORS)
    throw new ForageError("invalid_argument", `select takes at most ${MAX_SELECTORS} tags and paths`);
  const named = new Set(tags.flatMap((tag) => [tag, namespaceSegment(tag)]));
  const matchers = paths.map((glob) => picomatch(glob, { nobrace: true, noextglob: true, dot: true }));
  return (operation) =>
    operation.tags.some((tag) => named.has(tag) || named.has(namespaceSegment(tag))) ||
    matchers.some((matches) => matches(operation.path));
}

function stringList(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item !== ""))
    throw new ForageError("invalid_argument", `select.${what} must be an array of non-empty strings`);
  return value;
}
