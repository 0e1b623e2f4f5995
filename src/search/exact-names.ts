import { foldCase } from "./tokenize.js";

/**
 * The exact-name rule (docs/search.md, "Exact names first"): a query that is
 * an operation's full path, or its last segment written in any case and with
 * any separators ("send_email", "sendEmail", "send email", "SEND EMAIL"),
 * puts that operation ahead of every operation it does not name. Several
 * operations can share a last segment ("list"); they all come first, in
 * their BM25 order.
 */
export class ExactNames {
  readonly #byPath = new Map<string, number[]>();
  readonly #byName = new Map<string, number[]>();

  /** Indexes `paths`; a document's number is its position in the array. */
  constructor(paths: readonly string[]) {
    paths.forEach((path, doc) => {
      append(this.#byPath, foldCase(path), doc);
      append(this.#byName, nameKey(path.slice(path.lastIndexOf(".") + 1)), doc);
    });
  }

  /** Calls `visit` with each document the query names and its bonus: a full path outranks a last segment. */
  forEachNamed(query: string, visit: (doc: number, bonus: number) => void): void {
    const folded = foldCase(query.trim());
    for (const doc of this.#byPath.get(folded) ?? []) visit(doc, PATH_BONUS);
    const key = nameKey(folded);
    if (key !== "") for (const doc of this.#byName.get(key) ?? []) visit(doc, NAME_BONUS);
  }
}

/** Added to the score of a named operation: far above what the few words of a name score lexically. */
const NAME_BONUS = 1_000;
const PATH_BONUS = 2_000;

/** A name with case and separators folded away: "send_email", "sendEmail" and "Send Email" are all "sendemail". */
function nameKey(name: string): string {
  return foldCase(name).replace(/[^\p{L}\p{M}\p{N}]+/gu, "");
}

function append(map: Map<string, number[]>, key: string, doc: number): void {
  const docs = map.get(key);
  if (docs === undefined) map.set(key, [doc]);
  else docs.push(doc);
}
