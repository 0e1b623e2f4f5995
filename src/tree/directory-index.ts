import type { Summary } from "../catalog/types.js";
import { UNSUPPORTED_FILE } from "./source-files.js";
import type { LeftOutOperation } from "./source-info.js";
import { firstSentence, oneLine, pageName, plural, positionWords, renderPages } from "./text-pages.js";

/** The stem of every directory's index pages: `@index.txt`, `@index.2.txt`, … */
export const INDEX_STEM = "@index";

/** One child of a directory, as its index shows it. */
export type IndexEntry =
  | { readonly kind: "operation"; readonly summary: Summary }
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

/** The index pages of one directory: a header line saying what the file holds, then one line per child in listing order. */
export function indexPages(subject: IndexSubject, entries: readonly IndexEntry[]): string[] {
  const described = `${subject.operations} ${plural(subject.operations, "operation")} below`;
  const leftOut = subject.unsupported === 0 ? "" : `, ${subject.unsupported} unsupported`;
  return renderPages(
    INDEX_STEM,
    entries.map(indexLine),
    (at) =>
      `# ${pageName(INDEX_STEM, at.page)}: index of ${subject.title}, ${described}${leftOut}: ${positionWords(at, "entry")}. ` +
      "Lines: NAME/ — summary — counts | path — first sentence — sample call | [unsupported] NAMESPACE: NAME — summary " +
      "(the source has it under that name, but Forage could not describe its schema: no .d.ts or .json here)",
  );
}

function indexLine(entry: IndexEntry): string {
  switch (entry.kind) {
    case "operation": {
      const { path, description, sample } = entry.summary;
      return oneLine(`${path} — ${firstSentence(description) || "(no description)"} — ${sample}`);
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
