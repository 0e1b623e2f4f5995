import { ForageError } from "../../forage-error.js";
import type { JsonObject } from "../../json-value.js";
import { MAX_SPEC_BYTES } from "../limits.js";
import { parseSpecText } from "../spec/parse-spec-text.js";
import { readSpecVersion } from "../spec/spec-version.js";
import { boundTitle } from "../text-limits.js";
import type { OpenApiVersion } from "../types.js";
import { partDocument } from "./part-document.js";
import { fitPart } from "./part-fit.js";
import { readLargeSpec } from "./read-large-spec.js";
import { listSplitOperations, type SplitOperation } from "./spec-operations.js";
import { type PlannedLeftOut, type PlannedPart, planParts } from "./split-plan.js";
import { type OpenApiSelect, selectionTest } from "./split-selection.js";
import { WorkBudget } from "./work-budget.js";

/** What to keep of a spec before it is split. */
export interface SplitOpenApiOptions {
  readonly select?: OpenApiSelect;
}

/** One part of a spec: a spec text within intake's bounds, for `normalizeOpenApi`, and where it came from. */
export interface OpenApiPart {
  /** Its namespace under the spec's, dotted (`actions.repos`); "" when the spec is taken whole. */
  readonly name: string;
  /** 1-based, in name order, and how many parts the spec gave. */
  readonly number: number;
  readonly count: number;
  /** The tag that grouped its operations, as written; undefined when paths did. */
  readonly tag?: string;
  /** The literal path segments that grouped its operations further, in order. */
  readonly segments: readonly string[];
  /** Which chunk of its group it is, when no path segment could divide the group. */
  readonly chunk?: { readonly index: number; readonly count: number };
  /** Operations (method + path) in this part. */
  readonly operations: number;
  /** The part as an OpenAPI document (JSON), or the spec's own text when it is taken whole. */
  readonly text: string;
}

/** An operation the splitter could put in no part, and why; nothing is dropped silently. */
export interface OpenApiSplitLeftOut {
  readonly method: string;
  readonly path: string;
  readonly summary?: string;
  /** The namespace (under the spec's) its group would have had. */
  readonly part: string;
  readonly reason: string;
}

/** A spec as parts, every selected operation in exactly one part or left out with a reason. */
export interface OpenApiSplit {
  /** False when the spec fits intake's bounds and is taken whole (after selection). */
  readonly split: boolean;
  /** Operations the spec declares. */
  readonly declared: number;
  /** Operations the selection kept (all of them without one). */
  readonly selected: number;
  readonly parts: readonly OpenApiPart[];
  readonly leftOut: readonly OpenApiSplitLeftOut[];
  /** Work the split took, in the steps MAX_SPLIT_STEPS bounds. */
  readonly steps: number;
}

/**
 * Splits an OpenAPI 3.0/3.1 spec that breaks intake's bounds into parts that each meet them
 * (docs/intake.md, "Splitting a large spec"): by tag, then path segment, then chunks, each
 * part carrying only the components it references. A spec within the bounds is one part, its
 * text unchanged. `select` keeps only operations with a named tag or a path matching a glob;
 * names do not depend on it. Refusals are ForageErrors: "too_large" past the splitter's bounds
 * (src/openapi/split/split-limits.ts), "invalid_argument" for a selection that keeps nothing,
 * and intake's own for a spec intake would refuse whatever its size.
 */
export function splitOpenApi(text: string, options: SplitOpenApiOptions = {}): OpenApiSplit {
  if (typeof options !== "object" || options === null)
    throw new ForageError("invalid_argument", "splitOpenApi options must be an object");
  const selected = selectionTest(options.select);
  const budget = new WorkBudget();
  const { root, version, readByIntake } = readSpec(text, budget);
  const operations = listSplitOperations(root);
  budget.charge(operations.length);
  const whole = readByIntake && fitPart(root, operations.length, version, budget).ok;
  const kept = operations.filter(selected);
  if (kept.length === 0 && options.select !== undefined)
    throw new ForageError("invalid_argument", "The selection keeps none of the spec's operations");
  const tryPart = (members: readonly SplitOperation[]) =>
    fitPart(partDocument(root, members, budget), members.length, version, budget);
  const taken = whole ? wholeSpec(text, operations, kept, tryPart) : planParts(operations, tryPart);
  const parts = (whole ? taken.parts : narrowed(taken.parts, selected, tryPart)).map((part, index, all) =>
    toPart(part, index, all.length),
  );
  return {
    split: !whole,
    declared: operations.length,
    selected: kept.length,
    parts,
    leftOut: taken.leftOut.filter(({ operation }) => selected(operation)).map(toLeftOut),
    steps: budget.spent,
  };
}

type TryPart = (members: readonly SplitOperation[]) => ReturnType<typeof fitPart>;

/** The parsed spec, read by intake's own reader when its text is within intake's bounds. */
function readSpec(
  text: string,
  budget: WorkBudget,
): { root: JsonObject; version: OpenApiVersion; readByIntake: boolean } {
  if (typeof text !== "string")
    throw new ForageError("invalid_argument", "splitOpenApi takes the spec text as a string");
  const parsed = Buffer.byteLength(text, "utf8") <= MAX_SPEC_BYTES ? intakeParse(text) : undefined;
  const { root, version } = readSpecVersion(parsed ?? readLargeSpec(text, budget));
  return { root, version, readByIntake: parsed !== undefined };
}

/** Intake's own reader, so a spec it takes is read exactly as it will be; undefined when a bound refuses it. */
function intakeParse(text: string): unknown {
  try {
    return parseSpecText(text).document;
  } catch (error) {
    if (error instanceof ForageError && error.code === "too_large") return undefined;
    throw error;
  }
}

/** A spec within the bounds: its own text, or without the operations the selection drops. */
function wholeSpec(
  text: string,
  operations: readonly SplitOperation[],
  kept: readonly SplitOperation[],
  tryPart: TryPart,
): { parts: PlannedPart[]; leftOut: PlannedLeftOut[] } {
  const narrowedText = kept.length === operations.length ? text : fittingText(tryPart, kept);
  const part = { name: [], tag: undefined, segments: [], chunk: undefined, operations: kept, text: narrowedText };
  return { parts: [part], leftOut: [] };
}

/** Each part with only the selected operations; a part left with none is dropped. Fewer operations always fit. */
function narrowed(
  parts: readonly PlannedPart[],
  selected: (operation: SplitOperation) => boolean,
  tryPart: TryPart,
): PlannedPart[] {
  return parts.flatMap((part) => {
    const kept = part.operations.filter(selected);
    if (kept.length === part.operations.length) return [part];
    return kept.length === 0 ? [] : [{ ...part, operations: kept, text: fittingText(tryPart, kept) }];
  });
}

/** Some of a fitting part's operations: fewer paths and components can only fit too. */
function fittingText(tryPart: TryPart, members: readonly SplitOperation[]): string {
  const fit = tryPart(members);
  if (!fit.ok) throw new Error(`a narrowed part no longer fits intake's bounds: ${fit.reason}`);
  return fit.text;
}

function toPart(part: PlannedPart, index: number, count: number): OpenApiPart {
  return {
    name: part.name.join("."),
    number: index + 1,
    count,
    ...(part.tag === undefined ? {} : { tag: part.tag }),
    segments: part.segments,
    ...(part.chunk === undefined ? {} : { chunk: part.chunk }),
    operations: part.operations.length,
    text: part.text,
  };
}

function toLeftOut({ operation, name, reason }: PlannedLeftOut): OpenApiSplitLeftOut {
  const summary = boundTitle(operation.summary);
  return {
    method: operation.method.toUpperCase(),
    path: operation.path,
    ...(summary === undefined ? {} : { summary }),
    part: name.join("."),
    reason,
  };
}
