import { compareCodeUnits } from "../../catalog/operation-path.js";
import type { PartFit } from "./part-fit.js";
import { namespaceSegment } from "./part-names.js";
import type { SplitOperation } from "./spec-operations.js";

/** A group's name and what put its operations together. */
export interface PartGroup {
  /** Namespace segments under the spec's namespace, e.g. ["actions", "repos", "runs"]. */
  readonly name: readonly string[];
  /** The tag that grouped it, as written; undefined when its first level came from paths. */
  readonly tag: string | undefined;
  /** The literal path segments that grouped it further, in order. */
  readonly segments: readonly string[];
}

/** A group of operations that fits intake's bounds. */
export interface PlannedPart extends PartGroup {
  /** Which chunk of a group no path segment could divide, 1-based, and how many. */
  readonly chunk: { readonly index: number; readonly count: number } | undefined;
  readonly operations: readonly SplitOperation[];
  readonly text: string;
}

/** An operation no part can hold: even alone it breaks one of intake's bounds; listed with its group. */
export interface PlannedLeftOut extends PartGroup {
  readonly operation: SplitOperation;
  readonly reason: string;
}

type TryPart = (operations: readonly SplitOperation[]) => PartFit;

/** The name a path level gives an operation whose path has no literal segment at that level. */
const ROOT = "root";

/**
 * Splits `operations` into parts that fit (docs/intake.md, "Splitting a large spec"): by first
 * tag (an untagged operation by its path's first literal segment), then a part still over a
 * bound by the next literal path segment, then in chunks of whole Path Items. A level where
 * every operation falls in one group adds no name. Groups are visited in name order, so the
 * same spec always gives the same parts under the same names.
 */
export function planParts(
  operations: readonly SplitOperation[],
  tryPart: TryPart,
): { parts: PlannedPart[]; leftOut: PlannedLeftOut[] } {
  const plan = new Planner(tryPart);
  plan.divide(operations, { name: [], tag: undefined, segments: [] }, "tag");
  return { parts: plan.parts, leftOut: plan.leftOut };
}

class Planner {
  readonly parts: PlannedPart[] = [];
  readonly leftOut: PlannedLeftOut[] = [];
  readonly #tryPart: TryPart;

  constructor(tryPart: TryPart) {
    this.#tryPart = tryPart;
  }

  /** Places a group that has not been tried yet: whole if it fits, else divided. */
  place(operations: readonly SplitOperation[], group: PartGroup, level: "tag" | number): void {
    const fit = this.#tryPart(operations);
    if (fit.ok) this.parts.push({ ...group, chunk: undefined, operations, text: fit.text });
    else if (operations.length === 1) this.#leaveOut(operations[0] as SplitOperation, group, fit.reason);
    else this.divide(operations, group, level);
  }

  /** Divides a group known not to fit, at the first level that separates its operations. */
  divide(operations: readonly SplitOperation[], group: PartGroup, level: "tag" | number): void {
    const deepest = Math.max(...operations.map((operation) => operation.segments.length));
    for (let at = level; at === "tag" || at < deepest; at = at === "tag" ? 0 : at + 1) {
      const groups = groupBy(operations, (operation) => levelKey(operation, at));
      if (groups.size < 2) continue;
      for (const [key, members] of [...groups].sort(([a], [b]) => compareCodeUnits(a, b))) {
        this.place(members, subgroup(group, key, members, at), at === "tag" ? 0 : at + 1);
      }
      return;
    }
    this.#chunk(operations, group);
  }

  /**
   * No path segment separates these operations: chunks of whole Path Items, halved until each
   * fits, then adjacent chunks joined again while they fit.
   */
  #chunk(operations: readonly SplitOperation[], group: PartGroup): void {
    const pieces: Array<{ operations: readonly SplitOperation[]; text: string }> = [];
    const halve = (units: readonly (readonly SplitOperation[])[]): void => {
      const middle = Math.ceil(units.length / 2);
      for (const half of [units.slice(0, middle), units.slice(middle)]) {
        const members = half.flat();
        const fit = this.#tryPart(members);
        if (fit.ok) pieces.push({ operations: members, text: fit.text });
        else if (half.length > 1) halve(half);
        else if (members.length > 1) halve(members.map((operation) => [operation]));
        else this.#leaveOut(members[0] as SplitOperation, group, fit.reason);
      }
    };
    const units = [...groupBy(operations, (operation) => operation.path).values()];
    halve(units.length > 1 ? units : operations.map((operation) => [operation]));
    this.#mergeAdjacent(pieces).forEach((piece, index) => {
      this.parts.push({
        ...group,
        name: [...group.name, `part${index + 1}`],
        chunk: { index: index + 1, count: pieces.length },
        ...piece,
      });
    });
  }

  /**
   * Halving around an operation that fits nowhere leaves ever smaller pieces beside it; each
   * piece is joined to the one before it while the two still fit together.
   */
  #mergeAdjacent(
    pieces: ReadonlyArray<{ operations: readonly SplitOperation[]; text: string }>,
  ): Array<{ operations: readonly SplitOperation[]; text: string }> {
    const merged: Array<{ operations: readonly SplitOperation[]; text: string }> = [];
    for (const piece of pieces) {
      const last = merged.at(-1);
      const joined = last === undefined ? undefined : [...last.operations, ...piece.operations];
      const fit = joined === undefined ? undefined : this.#tryPart(joined);
      if (joined !== undefined && fit?.ok === true) merged[merged.length - 1] = { operations: joined, text: fit.text };
      else merged.push(piece);
    }
    return merged;
  }

  #leaveOut(operation: SplitOperation, group: PartGroup, reason: string): void {
    this.leftOut.push({ ...group, operation, reason: `even alone, it breaks an intake bound: ${reason}` });
  }
}

function levelKey(operation: SplitOperation, level: "tag" | number): string {
  if (level === "tag") return namespaceSegment(operation.tag ?? operation.segments[0] ?? ROOT);
  return namespaceSegment(operation.segments[level] ?? ROOT);
}

function subgroup(group: PartGroup, key: string, members: readonly SplitOperation[], level: "tag" | number): PartGroup {
  const first = members[0] as SplitOperation;
  if (level === "tag" && first.tag !== undefined) return { ...group, name: [...group.name, key], tag: first.tag };
  const segment = level === "tag" ? first.segments[0] : first.segments[level];
  return { ...group, name: [...group.name, key], segments: [...group.segments, segment ?? ROOT] };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const members = groups.get(name);
    if (members === undefined) groups.set(name, [item]);
    else members.push(item);
  }
  return groups;
}
