import { compareCodeUnits } from "../../catalog/operation-path.js";
import { ForageError } from "../../forage-error.js";
import type { JsonObject } from "../../json-value.js";
import { MAX_SPEC_BYTES } from "../limits.js";
import { parseSpecText } from "../spec/parse-spec-text.js";
import { readSpecVersion } from "../spec/spec-version.js";
import { boundTitle } from "../text-limits.js";
import type { OpenApiVersion } from "../types.js";
import { AloneOperations } from "./alone-operation.js";
import { OperationExpansion } from "./operation-expansion.js";
import { partDocument } from "./part-document.js";
import { fitPart } from "./part-fit.js";
import { readLargeSpec } from "./read-large-spec.js";
import { relocatePathReferences } from "./relocate-refs.js";
import { listSplitOperations, type SplitOperation } from "./spec-operations.js";
import { type PartGroup, type PlannedLeftOut, type PlannedPart, planParts } from "./split-plan.js";
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
  /** Operations (method + path) in its text. */
  readonly operations: number;
  /** Operations of its group that no part could hold, each with the reason: listed with this part. */
  readonly leftOut: readonly OpenApiSplitLeftOut[];
  /** The part as an OpenAPI document (JSON), or the spec's own text when it is taken whole. */
  readonly text: string;
}

/** An operation the splitter could put in no part, and why; nothing is dropped silently. */
export interface OpenApiSplitLeftOut {
  readonly method: string;
  readonly path: string;
  readonly summary?: string;
  readonly reason: string;
  /**
   * The operation alone with the components it references, when it broke a bound even alone
   * and they are within MAX_UNVALIDATED_SCHEMA_BYTES: a document to read its schemas from unexpanded,
   * so it is shown not validated (docs/intake.md, "Operations too large to expand").
   */
  readonly alone?: JsonObject;
}

/** A spec as parts: every selected operation in exactly one part's text or in exactly one part's `leftOut`. */
export interface OpenApiSplit {
  /** False when the spec fits intake's bounds and is taken whole (after selection). */
  readonly split: boolean;
  /** Operations the spec declares. */
  readonly declared: number;
  /** Operations the selection kept (all of them without one). */
  readonly selected: number;
  readonly parts: readonly OpenApiPart[];
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
  const kept = operations.filter(selected);
  if (kept.length === 0 && options.select !== undefined)
    throw new ForageError("invalid_argument", "The selection keeps none of the spec's operations");
  const whole = readByIntake && fitPart(root, operations.length, version, budget, text).ok;
  const done = (parts: OpenApiPart[]): OpenApiSplit => ({
    split: !whole,
    declared: operations.length,
    selected: kept.length,
    parts,
    steps: budget.spent,
  });
  if (whole && kept.length === operations.length) return done([wholePart(text, kept.length)]);
  // Parts (and a spec narrowed by selection) hold only some Path Items: references into others are moved first.
  const relocated = relocatePathReferences(root, budget);
  const tryPart = partTrial(relocated, version, budget);
  if (whole) return done([wholePart(fittingText(tryPart, kept), kept.length)]);
  const alone = new AloneOperations(relocated, budget);
  return done(splitParts(planParts(operations, tryPart), selected, tryPart, alone));
}

/** Tries a group of operations as a part of `root`: an operation over the expansion budget alone fails at once. */
function partTrial(root: JsonObject, version: OpenApiVersion, budget: WorkBudget): TryPart {
  const expansion = new OperationExpansion(root, version, budget);
  return (members) => {
    const problem = expansion.problemIn(members);
    if (problem !== undefined) return { ok: false, reason: problem };
    return fitPart(partDocument(root, members, budget), members.length, version, budget);
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

function wholePart(text: string, operations: number): OpenApiPart {
  return { name: "", number: 1, count: 1, segments: [], operations, leftOut: [], text };
}

/**
 * The planned parts with only the selected operations (a part left with none is dropped; fewer
 * operations always fit), and each left-out operation listed with the part of its group's name,
 * or with a part of its own that holds no operation, in name order.
 */
function splitParts(
  plan: { parts: readonly PlannedPart[]; leftOut: readonly PlannedLeftOut[] },
  selected: (operation: SplitOperation) => boolean,
  tryPart: TryPart,
  alone: AloneOperations,
): OpenApiPart[] {
  const byName = new Map<string, { group: PartGroup; part?: PlannedPart; leftOut: OpenApiSplitLeftOut[] }>();
  for (const part of plan.parts) {
    const kept = part.operations.filter(selected);
    if (kept.length === 0) continue;
    const narrowed =
      kept.length === part.operations.length ? part : { ...part, operations: kept, text: fittingText(tryPart, kept) };
    byName.set(part.name.join("."), { group: part, part: narrowed, leftOut: [] });
  }
  for (const left of plan.leftOut) {
    if (!selected(left.operation)) continue;
    const name = left.name.join(".");
    const entry = byName.get(name) ?? { group: left, leftOut: [] };
    entry.leftOut.push(toLeftOut(left, alone));
    byName.set(name, entry);
  }
  const names = [...byName.keys()].sort(compareCodeUnits);
  return names.map((name, index) => {
    const { group, part, leftOut } = byName.get(name) as {
      group: PartGroup;
      part?: PlannedPart;
      leftOut: OpenApiSplitLeftOut[];
    };
    return {
      name,
      number: index + 1,
      count: names.length,
      ...(group.tag === undefined ? {} : { tag: group.tag }),
      segments: group.segments,
      ...(part?.chunk === undefined ? {} : { chunk: part.chunk }),
      operations: part?.operations.length ?? 0,
      leftOut,
      text: part?.text ?? fittingText(tryPart, []),
    };
  });
}

/** Some of a fitting part's operations (or none, for a part that only lists left-out ones): it can only fit too. */
function fittingText(tryPart: TryPart, members: readonly SplitOperation[]): string {
  const fit = tryPart(members);
  if (!fit.ok) throw new Error(`a narrowed part no longer fits intake's bounds: ${fit.reason}`);
  return fit.text;
}

function toLeftOut({ operation, reason }: PlannedLeftOut, alone: AloneOperations): OpenApiSplitLeftOut {
  const summary = boundTitle(operation.summary);
  const document = alone.document(operation);
  return {
    method: operation.method.toUpperCase(),
    path: operation.path,
    ...(summary === undefined ? {} : { summary }),
    ...(document.ok
      ? { reason: document.cut === undefined ? reason : `${reason}; ${document.cut}`, alone: document.document }
      : { reason: `${reason}; ${document.reason}` }),
  };
}
