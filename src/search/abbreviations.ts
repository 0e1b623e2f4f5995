import { stemmer } from "stemmer";

/**
 * Abbreviations APIs write for words people spell out (docs/search.md,
 * "Abbreviations meet their words"): `updateCardsDesc` is what "edit the
 * description" asks for, `listOrgRepos` what "organization repositories" asks
 * for. Only abbreviations with one reading in API names are here: "auth"
 * (authentication or authorization), "temp" (temperature or temporary) or
 * "pos" (position or point of sale) are left out, since folding them would
 * make one word of two.
 */
const ABBREVIATIONS: readonly (readonly [string, string])[] = [
  ["acct", "account"],
  ["addr", "address"],
  ["admin", "administrator"],
  ["app", "application"],
  ["arg", "argument"],
  ["attr", "attribute"],
  ["cert", "certificate"],
  ["config", "configuration"],
  ["cred", "credential"],
  ["db", "database"],
  ["desc", "description"],
  ["dest", "destination"],
  ["dir", "directory"],
  ["doc", "document"],
  ["env", "environment"],
  ["id", "identifier"],
  ["img", "image"],
  ["info", "information"],
  ["lang", "language"],
  ["msg", "message"],
  ["num", "number"],
  ["org", "organization"],
  ["param", "parameter"],
  ["perm", "permission"],
  ["pref", "preference"],
  ["prop", "property"],
  ["pwd", "password"],
  ["qty", "quantity"],
  ["repo", "repository"],
  ["req", "request"],
  ["resp", "response"],
  ["spec", "specification"],
  ["src", "source"],
  ["txn", "transaction"],
];

/**
 * Words the Porter stemmer folds into an unrelated word's stem, kept apart under stems of their own
 * (docs/search.md, "Abbreviations meet their words"): "news" is not "new", "general" not "generate",
 * "business" not "busy", "several" not "severity". Only words common in API text whose fold made a query find the wrong
 * operations: the latest-news searches of the agent benchmark ranked "New Relic" settings and,
 * through "new" as a verb that asks for POST, "create a new key" first. Each word's other forms are
 * listed too, since they would fold to the unrelated stem as well.
 */
const OWN_STEMS: ReadonlyMap<string, string> = new Map<string, string>([
  ["news", "news"],
  ["general", "general"],
  ["generals", "general"],
  ["generally", "general"],
  ["generality", "general"],
  ["generalize", "general"],
  ["generalized", "general"],
  ["generalizes", "general"],
  ["generalization", "general"],
  ["business", "business"],
  ["businesses", "business"],
  ["several", "several"],
]);

/** A word's stem as the index takes it: stemmed from three letters up, so "repos" and "repo" share one key. */
export function stemOf(word: string): string {
  if (word.length < 3) return word;
  return OWN_STEMS.get(word) ?? stemmer(word);
}

/** Each abbreviation's stem → its full word's stem ("desc" → "descript", "ids" → "id" → "identifi"). */
const BY_STEM: ReadonlyMap<string, string> = new Map(
  ABBREVIATIONS.map(([short, full]) => [stemOf(short), stemOf(full)]),
);

/** The stem a stem stands for: the full word's, for an abbreviation, else the stem itself. */
export function expandAbbreviation(stem: string): string {
  return BY_STEM.get(stem) ?? stem;
}
