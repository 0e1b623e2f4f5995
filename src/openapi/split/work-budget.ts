import { ForageError } from "../../forage-error.js";
import { MAX_SPLIT_STEPS } from "./split-limits.js";

/** Counts a split's work in steps and refuses the spec once it passes the budget (MAX_SPLIT_STEPS). */
export class WorkBudget {
  #spent = 0;
  readonly #limit: number;

  constructor(limit = MAX_SPLIT_STEPS) {
    this.#limit = limit;
  }

  /** Steps taken so far, for the benchmark's report. */
  get spent(): number {
    return this.#spent;
  }

  /** Spends `steps`; past the budget the whole split is refused, never left half done. */
  charge(steps: number): void {
    this.#spent += steps;
    if (this.#spent > this.#limit) {
      throw new ForageError(
        "too_large",
        `Splitting the spec takes more than ${this.#limit} steps of work; select fewer operations (by tag or path)`,
        { limit: this.#limit },
      );
    }
  }
}
