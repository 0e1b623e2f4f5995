/** The files the tree root holds besides namespaces, operations and "@" files. */
export const ROOT_METADATA_FILES: readonly string[] = ["README.md", "tsconfig.json", "index.d.ts", "package.json"];
/** What an operation's file stem gets when its files would take a root metadata file's name. */
export const ESCAPED_STEM_SUFFIX = ".op";

/**
 * The stem of an operation's `.d.ts` and `.json` files: its last path segment, or, at the
 * root, `<segment>.op` when `<segment>.d.ts` or `<segment>.json` is a metadata file's name
 * (an operation `tsconfig` at the root is `tsconfig.op.d.ts` and `tsconfig.op.json`).
 * A segment is an ASCII identifier, so an escaped stem can never be another operation's.
 */
export function operationStem(segment: string, atRoot: boolean): string {
  const taken = atRoot && ROOT_METADATA_FILES.some((name) => name === `${segment}.d.ts` || name === `${segment}.json`);
  return taken ? `${segment}${ESCAPED_STEM_SUFFIX}` : segment;
}
