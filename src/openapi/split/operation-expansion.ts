import { ForageError } from "../../forage-error.js";
import { ownMember } from "../../json-schema/json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import { MAX_EXPANDED_NODES } from "../limits.js";
import { RefBudget } from "../spec/ref-budget.js";
import type { OpenApiVersion } from "../types.js";
import type { SplitOperation } from "./spec-operations.js";
import type { WorkBudget } from "./work-budget.js";

/**
 * What each operation expands to on its own, measured as intake's expansion budget measures
 * (every `$ref` occurrence a copy, targets memoized across the whole spec, so the spec is
 * walked about once). A part holds its operations' subtrees and every component they reach,
 * so an operation over intake's budget on its own fits no part: the splitter leaves it out at
 * once instead of building part after part to find that out.
 */
export class OperationExpansion {
  readonly #root: JsonObject;
  readonly #refs: RefBudget;
  readonly #budget: WorkBudget;
  readonly #problems = new Map<SplitOperation, string | undefined>();

  constructor(root: JsonObject, version: OpenApiVersion, budget: WorkBudget) {
    this.#root = root;
    this.#refs = new RefBudget(root, version);
    this.#budget = budget;
  }

  /** Why some operation of `operations` can fit no part on its own, or undefined when none is known to. */
  problemIn(operations: readonly SplitOperation[]): string | undefined {
    for (const operation of operations) {
      const problem = this.#problemOf(operation);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  #problemOf(operation: SplitOperation): string | undefined {
    if (this.#problems.has(operation)) return this.#problems.get(operation);
    const item = ownMember(this.#root.paths, operation.path);
    const problem = this.#measure([ownMember(item, "parameters"), ownMember(item, operation.method)]);
    this.#problems.set(operation, problem);
    return problem;
  }

  #measure(subtree: unknown): string | undefined {
    let size: number;
    try {
      size = this.#refs.expandedSize(subtree);
    } catch (error) {
      if (error instanceof ForageError && error.code === "too_large") return error.message;
      throw error;
    }
    // Targets are memoized, so measuring every operation walks each component once and each operation once:
    // at most twice the values already counted when the spec was read. One step per operation stands for that.
    this.#budget.charge(1);
    if (size <= MAX_EXPANDED_NODES) return undefined;
    return `its references expand to about ${size} nodes on their own; intake's budget is ${MAX_EXPANDED_NODES}`;
  }
}
