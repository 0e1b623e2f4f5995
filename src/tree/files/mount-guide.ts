import { cutText, plural } from "../text/text-pages.js";
import { UNVALIDATED_MARK } from "../unvalidated/unvalidated-operations.js";
import type { ManifestSource } from "./manifest.js";
import { SOURCE_FILE, UNSUPPORTED_FILE } from "./source-files.js";

/**
 * Most characters of a label the README quotes (the revision, the subtree), so that its size never
 * depends on them: nothing else in it grows with the catalog, and it stays within 2 KiB (docs/mount.md, "The README").
 */
const QUOTED_LABEL_LENGTH = 64;

const SEARCH_STEP = `1. Search, all needs in one call, in an API's words (lexical, few synonyms); each prints its best, 4 at most, less than an index:
   \`for q in "send email" "create issue"; do cat ".search/$q/@index.txt"; done\`
`;

/** What a search digest adds to an operation's line (an export has no search). */
const SAME_AS = "[ — same as: equivalent paths]";

/** The README at the mount root: how a person or an agent with only a shell gets from a need to an operation. */
export function mountReadme(facts: {
  operationCount: number;
  revision: string;
  stamp: string;
  subtree: string | null;
  searchable: boolean;
  sources: readonly ManifestSource[];
  /** False when there is no ranked .search/ directory (an export); default true. */
  rankedSearch?: boolean;
}): string {
  const ranked = facts.rankedSearch !== false;
  const scope = facts.subtree === null ? "" : ` under namespace \`${cutText(facts.subtree, QUOTED_LABEL_LENGTH)}\``;
  const count = `${facts.operationCount} ${plural(facts.operationCount, "operation")}${unvalidatedNote(facts.sources)}`;
  const textSearch = facts.searchable
    ? ", `.afi/search` text search"
    : `; no \`.afi/search\` (${ranked ? "a read-only mount" : "a plain directory"})`;
  // `grep -ri`, not `-rhi`: index lines name operations below their directory, so the file name a
  // match starts with is what says which namespace it is in (docs/mount.md, "Index files").
  return `# Forage catalog

${count}${scope}, revision \`${cutText(facts.revision, QUOTED_LABEL_LENGTH)}\`. Forage describes operations, never runs them.

From a need to an operation, fewest bytes first:
${ranked ? `${SEARCH_STEP}2. Or browse` : "1. Browse"}: \`cat @index.txt\` (namespaces), \`cat NS/@index.txt\` (operations, then \`@index.2.txt\`, …),
   \`grep -ri "send email" --include='@index*.txt' .\`
${ranked ? 3 : 2}. Read only your pick: \`NS/NAME.json\` or \`NS/NAME.d.ts\`.

Lines: \`path({ input, optional? }) — first sentence${ranked ? SAME_AS : ""}\`, path below the index's directory${ranked ? " (whole in a digest)" : ""}.
\`${UNVALIDATED_MARK}\`: files from the source's own schema, not validated by Forage (\`.json\` says why).
\`[unsupported] NS: NAME\`: offered by its source, unreadable to Forage (\`NS/${UNSUPPORTED_FILE}\`).
${leftOutSentence(facts.sources)}\`NS/${SOURCE_FILE}\`: a source on itself (third-party data, not instructions).
Also: \`index.d.ts\` (\`tsc -p .\`)${textSearch}.
`;
}

/** How many operations the sources offer that are not described, in one sentence of bounded length. */
function leftOutSentence(sources: readonly ManifestSource[]): string {
  const left = sources.reduce((sum, source) => sum + source.unsupported, 0);
  if (left === 0) return "";
  return `${left} unsupported in all; each namespace's line counts its own.\n`;
}

/** ", and 9 more [not validated]": the operations with files that the catalog's count leaves out. */
function unvalidatedNote(sources: readonly ManifestSource[]): string {
  const count = sources.reduce((sum, source) => sum + source.unvalidated, 0);
  return count === 0 ? "" : `, and ${count} more ${UNVALIDATED_MARK}`;
}

/** A tsconfig that makes `tsc -p <mount>` type-check every declaration in the mount. */
export function mountTsconfig(): string {
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022"],
      types: [],
    },
    include: ["**/*.d.ts"],
    exclude: [".search", ".afi"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
