import type { Summary } from "../catalog/types.js";
import { UNSUPPORTED_FILE } from "./source-files.js";
import type { LeftOutOperation } from "./source-info.js";
import { firstSentence, oneLine, pageName, plural, positionWords, renderPages } from "./text-pages.js";

/** The stem of every directory's index pages: `@index.txt`, `@index.2.txt`, … */
export const INDEX_STEM = "@index";

/** One child of a directory, as its index shows it. */
export type IndexEntry =
  | {
      readonly kind: "operation";
      readonly summary: Summary;
      /** Its optional top-level input names (see optionalInputs). */
      readonly optional: readonly string[];
    }
  | {
      readonly kind: "namespace";
      /** The child directory's name. */
      readonly name: string;
      readonly summary: string;
      /** Operations described under it, nested ones included. */
      readonly operations: number;
      /** Operations its sources left out, nested ones included. */
      readonly unsupported: number;
    }
  | { readonly kind: "unsupported"; readonly namespace: string; readonly operation: LeftOutOperation };

/** What the header of a directory's index says the directory is. */
export interface IndexSubject {
  /** "the catalog root", "namespace petstore". */
  readonly title: string;
  readonly operations: number;
  readonly unsupported: number;
}

/** What every index header says its lines are, so a reader needs no other file to read one. */
const LINE_FORMAT =
  "Lines: NAME/ — summary — counts | path — first sentence — sample call[ — optional: other inputs] | [unsupported] NAMESPACE: NAME — summary " +
  "(an operation the source offers under that name; Forage could not describe its schema exactly, so it has no " +
  ".d.ts or .json here, and the source's @unsupported.txt says why)";

/** The index pages of one directory: a header line saying what the file holds, then one line per child in listing order. */
export function indexPages(subject: IndexSubject, entries: readonly IndexEntry[]): string[] {
  const described = `${subject.operations} ${plural(subject.operations, "operation")} below`;
  const leftOut = subject.unsupported === 0 ? "" : `, ${subject.unsupported} unsupported`;
  return indexPagesHeaded(`index of ${subject.title}, ${described}${leftOut}`, entries);
}

/** Index pages under a headline of their own (a search's, say), each header giving the position and the line format. */
export function indexPagesHeaded(headline: string, entries: readonly IndexEntry[]): string[] {
  return renderPages(
    INDEX_STEM,
    entries.map(indexLine),
    (at) => `# ${pageName(INDEX_STEM, at.page)}: ${headline}: ${positionWords(at, "entry")}. ${LINE_FORMAT}`,
  );
}

/** One entry's line, as every index shows it. */
export function indexLine(entry: IndexEntry): string {
  switch (entry.kind) {
    case "operation": {
      const { path, description, sample } = entry.summary;
      const optional = entry.optional.length === 0 ? "" : ` — optional: ${entry.optional.join(", ")}`;
      return oneLine(`${path} — ${firstSentence(description) || "(no description)"} — ${sample}${optional}`);
    }
    case "namespace": {
      const counts = `${entry.operations} ${plural(entry.operations, "operation")}`;
      const leftOut =
        entry.unsupported === 0 ? "" : `, ${entry.unsupported} unsupported (${entry.name}/${UNSUPPORTED_FILE})`;
      return oneLine(`${entry.name}/ — ${entry.summary} — ${counts}${leftOut}`);
    }
    case "unsupported": {
      const { name, summary } = entry.operation;
      return oneLine(`[unsupported] ${entry.namespace}: ${name}${summary === undefined ? "" : ` — ${summary}`}`);
    }
  }
}
