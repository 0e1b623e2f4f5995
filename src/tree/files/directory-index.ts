import type { Summary } from "../../catalog/types.js";
import type { LeftOutOperation } from "../source-info.js";
import { INDEX_LINE, type LineShape, namespaceLine, operationLine, unsupportedLine } from "../text/index-lines.js";
import type { InputNames } from "../text/input-names.js";
import { cutText, pageName, plural, positionWords, renderPages } from "../text/text-pages.js";
import {
  UNVALIDATED_MARK,
  type UnvalidatedSubject,
  unvalidatedCount,
  unvalidatedIndexLine,
} from "../unvalidated/unvalidated-operations.js";

/** The stem of every directory's index pages: `@index.txt`, `@index.2.txt`, … */
export const INDEX_STEM = "@index";

/** One child of a directory, as its index shows it. */
export type IndexEntry =
  | {
      readonly kind: "operation";
      readonly summary: Summary;
      /** Its top-level input names (see inputNames). */
      readonly inputs: InputNames | undefined;
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

/**
 * What an index header says its lines are, so a reader needs no other file to read one: the formats of
 * the kinds of line the index holds, and only those, since every agent that reads the index pays for it.
 */
function lineFormats(entries: readonly IndexEntry[]): string {
  const kinds = new Set(entries.map((entry) => entry.kind));
  const formats: string[] = [];
  if (kinds.has("namespace")) formats.push("NAME/ — counts — about");
  if (kinds.has("operation") || kinds.has("unvalidated"))
    formats.push(`${kinds.has("unvalidated") ? `${UNVALIDATED_MARK}? ` : ""}path({ input, optional? }) — sentence`);
  if (kinds.has("unsupported")) formats.push("[unsupported] NS: NAME — summary");
  return formats.length === 0 ? "" : ` Lines: ${formats.join(" | ")}`;
}

/**
 * The index pages of one directory: a header line saying what the file holds, then one line per
 * child in listing order. The header is an index line too, so it is held to INDEX_LINE.limit by
 * cutting the directory's title, the one part of it that a catalog's names can make long.
 */
export function indexPages(
  subject: IndexSubject,
  entries: readonly IndexEntry[],
  shown: (path: string) => string,
): string[] {
  const total = subject.operations + (subject.unvalidated ?? 0);
  const described = `${total} ${plural(total, "operation")} below${unvalidatedCount(subject.unvalidated)}`;
  const leftOut = subject.unsupported === 0 ? "" : `, ${subject.unsupported} unsupported`;
  const formats = lineFormats(entries);
  return renderPages(
    INDEX_STEM,
    entries.map((entry) => indexLine(entry, INDEX_LINE, shown)),
    (at) => {
      const head = `# ${pageName(INDEX_STEM, at.page)}: index of `;
      const rest = `, ${described}${leftOut}: ${positionWords(at, "entry")}.${formats}`;
      // Past the title, large counts can still run the header over: its line-format legend is cut last.
      const title = cutText(subject.title, Math.max(0, INDEX_LINE.limit - head.length - rest.length));
      return cutText(`${head}${title}${rest}`, INDEX_LINE.limit);
    },
  );
}

/**
 * One entry's line, as every index shows it; `shape` bounds an operation's or a left-out one's (a
 * digest's are shorter); `shown` names an operation by its path (a directory's index: by its file stem).
 */
export function indexLine(
  entry: IndexEntry,
  shape: LineShape = INDEX_LINE,
  shown: (path: string) => string = (path) => path,
): string {
  switch (entry.kind) {
    case "operation":
      return operationLine({ ...entry.summary, inputs: entry.inputs }, shape, shown(entry.summary.path));
    case "namespace": {
      const total = entry.operations + (entry.unvalidated ?? 0);
      const counts = `${total} ${plural(total, "operation")}${unvalidatedCount(entry.unvalidated)}`;
      const leftOut = entry.unsupported === 0 ? "" : `, ${entry.unsupported} unsupported`;
      return namespaceLine(entry.name, `${counts}${leftOut}`, entry.summary);
    }
    case "unvalidated":
      return unvalidatedIndexLine(entry, shape, shown(entry.path));
    case "unsupported": {
      const { name, summary } = entry.operation;
      return unsupportedLine(entry.namespace, name, summary, shape.limit);
    }
  }
}
