import { ForageError } from "../../forage-error.js";
import type { JsonObject } from "../../json-value.js";
import { MAX_SPEC_BYTES, MAX_SPEC_NODES, MAX_SPEC_OPERATIONS } from "../limits.js";
import { RefBudget } from "../spec/ref-budget.js";
import { assertSpecLimits } from "../spec/spec-limits.js";
import type { OpenApiVersion } from "../types.js";
import { countValuesUpTo } from "./count-values.js";
import type { WorkBudget } from "./work-budget.js";

/** A part that meets every intake bound, as the text intake will read, or the first bound it breaks. */
export type PartFit = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/**
 * Tests a part against intake's own bounds (src/openapi/limits.ts), cheapest first, with
 * intake's own checks: operations, values, bytes of its JSON text, nesting and prototype
 * names, then the reference expansion budget. `ownText` is the spec's own text, when the part is
 * the whole spec. A part that fits here is one intake accepts
 * whole; which of its operations intake supports is still intake's to say.
 */
export function fitPart(
  part: JsonObject,
  operations: number,
  version: OpenApiVersion,
  budget: WorkBudget,
  ownText?: string,
): PartFit {
  if (operations > MAX_SPEC_OPERATIONS) return { ok: false, reason: `more than ${MAX_SPEC_OPERATIONS} operations` };
  const values = countValuesUpTo(part, MAX_SPEC_NODES + 1);
  budget.charge(values);
  if (values > MAX_SPEC_NODES) return { ok: false, reason: `more than ${MAX_SPEC_NODES} JSON values` };
  // A whole spec is measured by its own text (YAML can grow when spelled as JSON); a part by its JSON.
  const text = ownText ?? JSON.stringify(part);
  if (Buffer.byteLength(text, "utf8") > MAX_SPEC_BYTES)
    return { ok: false, reason: `more than ${MAX_SPEC_BYTES} bytes` };
  try {
    assertSpecLimits(part);
    // Measuring references costs about one step per value once, targets memoized.
    budget.charge(values);
    new RefBudget(part, version).assertWithinBudget();
  } catch (error) {
    // Only a bound makes a part smaller; any other refusal is the whole spec's, as intake would give it.
    if (error instanceof ForageError && error.code === "too_large") return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, text };
}
