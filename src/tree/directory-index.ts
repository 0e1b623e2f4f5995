import type { Summary } from "../catalog/types.js";
import { UNSUPPORTED_FILE } from "./source-files.js";
import type { LeftOutOperation } from "./source-info.js";
import { firstSentence, oneLine, pageName, plural, positionWords, renderPages } from "./text-pages.js";
import {
  UNVALIDATED_LINE_FORMAT,
  type UnvalidatedSubject,
  unvalidatedCount,
  unvalidatedIndexLine,
} from "./unvalidated-operations.js";

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
      /** Operations of its sources shown not validated, nested ones included. */
      readonly unvalidated?: number;
    }
  | ({ readonly kind: "unvalidated" } & UnvalidatedSubject)
  | { readonly kind: "unsupported"; readonly namespace: string; readonly operation: LeftOutOperation };

/** What the header of a directory's index says the directory is. */
export interface IndexSubject {
  /** "the catalog root", "namespace petstore". */
  readonly title: string;
  readonly operations: number;
  /** Not-validated operations below, which have files too (see unvalidatedCount). */
  readonly unvalidated?: number;
  readonly unsupported: number;
}

/** What every index header says its lines are, so a reader needs no other file to read one. */
const LINE_FORMAT =
  "Lines: NAME/ — summary — counts | path — first sentence — sample call[ — optional: other inputs] | " +
  `${UNVALIDATED_LINE_FORMAT} | [unsupported] NAMESPACE: NAME — summary ` +
  "(an operation the source offers under that name; Forage could not read its schema, so it has no " +
  ".d.ts or .json here, and the source's @unsupported.txt says why)";

/** The index pages of one directory: a header line saying what the file holds, then one line per child in listing order. */
export function indexPages(subject: IndexSubject, entries: readonly IndexEntry[]): string[] {
  const total = subject.operations + (subject.unvalidated ?? 0);
  const described = `${total} ${plural(total, "operation")} below${unvalidatedCount(subject.unvalidated)}`;
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
      const total = entry.operations + (entry.unvalidated ?? 0);
      const counts = `${total} ${plural(total, "operation")}${unvalidatedCount(entry.unvalidated)}`;
      const leftOut =
        entry.unsupported === 0 ? "" : `, ${entry.unsupported} unsupported (${entry.name}/${UNSUPPORTED_FILE})`;
      return oneLine(`${entry.name}/ — ${entry.summary} — ${counts}${leftOut}`);
    }
    case "unvalidated":
      return unvalidatedIndexLine(entry);
    case "unsupported": {
      const { name, summary } = entry.operation;
      return oneLine(`[unsupported] ${entry.namespace}: ${name}${summary === undefined ? "" : ` — ${summary}`}`);
    }
  }
}
