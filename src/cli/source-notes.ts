import { UNSUPPORTED_FILE } from "../tree/files/source-files.js";
import type { SourceInfo } from "../tree/source-info.js";
import { count } from "./count.js";

/**
 * Sources noted one line each, per kind (not validated, unsupported); past it, one line sums the
 * kind over every source. A folder of 430 tool lists would otherwise print 283 lines (50 KB) on
 * every mount: a person scrolls past them and an agent that runs `forage mount` pays for each byte
 * (docs/cli.md, "What loading says about the sources").
 */
const NOTED_SOURCES = 5;
/** Sources a summary line names, with their counts, before "and N more". */
const NAMED_IN_SUMMARY = 3;

/** What loading says about the sources on stderr, one line each (without the `forage: ` prefix). */
export function sourceNotes(sources: readonly SourceInfo[]): string[] {
  const whole = sources.filter((info) => info.part === undefined);
  const unvalidated = whole.filter((info) => unvalidatedOf(info) > 0);
  const leftOut = whole.filter((info) => info.unsupported.length > 0);
  return [
    ...(unvalidated.length <= NOTED_SOURCES ? unvalidated.map(unvalidatedNote) : [unvalidatedSummary(unvalidated)]),
    ...(leftOut.length <= NOTED_SOURCES ? leftOut.map(leftOutNote) : [leftOutSummary(leftOut)]),
    ...[...splitSpecs(sources).values()].map(splitSpecNote),
  ];
}

/** The parts of each split spec, by spec and origin, in load order. */
function splitSpecs(sources: readonly SourceInfo[]): Map<string, SourceInfo[]> {
  const specs = new Map<string, SourceInfo[]>();
  for (const info of sources) {
    if (info.part === undefined) continue;
    const key = `${info.part.spec}\0${info.origin}`;
    specs.set(key, [...(specs.get(key) ?? []), info]);
  }
  return specs;
}

function unvalidatedOf(info: SourceInfo): number {
  return info.unvalidated?.length ?? 0;
}

/**
 * One line for a spec split into parts, summed over them: "github: 1223 operations in 120 parts:
 * 482 validated, 741 not validated (…); 0 unsupported (…)", never one line per part.
 */
function splitSpecNote(parts: readonly SourceInfo[]): string {
  const first = parts[0] as SourceInfo & { part: { spec: string } };
  const sum = (amount: (info: SourceInfo) => number): number => parts.reduce((total, info) => total + amount(info), 0);
  const declared = sum((info) => info.declared);
  const unvalidated = sum(unvalidatedOf);
  const unsupported = sum((info) => info.unsupported.length);
  const where = first.part.spec.split(".").join("/");
  const shown =
    unvalidated === 0
      ? ""
      : ` (shown from the source's own schemas, marked [not validated], each .json with the reason)`;
  const listed =
    unsupported === 0 ? "" : ` (listed with the reasons in each part's ${UNSUPPORTED_FILE} below ${where}/)`;
  return (
    `${first.part.spec}: ${count(declared, "operation")} in ${count(parts.length, "part")}: ` +
    `${declared - unvalidated - unsupported} validated, ${unvalidated} not validated${shown}; ${unsupported} unsupported${listed}`
  );
}

/** "uspto: 2 operations not validated (of 3 declared); the mount shows them from the source's own schemas, marked [not validated]". */
function unvalidatedNote(info: SourceInfo): string {
  const amount = unvalidatedOf(info);
  const operations = `${count(amount, "operation")} not validated (of ${info.declared} declared)`;
  return `${info.namespace}: ${operations}; the mount shows ${amount === 1 ? "it" : "them"} from the source's own schemas, marked [not validated], each .json with the reason`;
}

/** "petstore: 3 operations unsupported (of 3 declared); the mount lists them with the reasons in petstore/@unsupported.txt". */
function leftOutNote(info: SourceInfo): string {
  const file = `${info.namespace.split(".").join("/")}/${UNSUPPORTED_FILE}`;
  const amount = info.unsupported.length;
  const operations = `${count(amount, "operation")} unsupported (of ${info.declared} declared)`;
  return `${info.namespace}: ${operations}; the mount lists ${amount === 1 ? "it" : "them"} with the reasons in ${file}`;
}

/** "7451 operations not validated in 231 sources (asana_api 26, box_api 112, …, and 228 more); …". */
function unvalidatedSummary(sources: readonly SourceInfo[]): string {
  return (
    `${summed(sources, unvalidatedOf, "not validated")}; the mount shows them from the sources' own schemas, ` +
    "marked [not validated], each .json with the reason; each namespace's line in @index.txt counts its own"
  );
}

/** "12 operations unsupported in 7 sources (…); each source's @unsupported.txt lists its own with the reasons". */
function leftOutSummary(sources: readonly SourceInfo[]): string {
  return `${summed(sources, (info) => info.unsupported.length, "unsupported")}; each source's ${UNSUPPORTED_FILE} lists its own with the reasons`;
}

/** "N operations KIND in M sources (a 1, b 2, c 3, and 4 more)". */
function summed(sources: readonly SourceInfo[], amount: (info: SourceInfo) => number, kind: string): string {
  const total = sources.reduce((sum, info) => sum + amount(info), 0);
  const named = sources.slice(0, NAMED_IN_SUMMARY).map((info) => `${info.namespace} ${amount(info)}`);
  const more = sources.length - named.length;
  return `${count(total, "operation")} ${kind} in ${count(sources.length, "source")} (${named.join(", ")}, and ${more} more)`;
}
