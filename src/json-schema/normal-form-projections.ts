/**
 * The projections the compiler built that are already in describe's normal form
 * (src/describe/projection-normal-form.ts), so that describe takes them as they are rather than
 * walking each again to find nothing to change (src/json-schema/README.md, "Projection").
 * A projection is frozen, so what holds for it when it is made holds for as long as it lives.
 */
const normalForm = new WeakSet<object>();

/** Records that `projection`, which the compiler just built, is in normal form. */
export function markNormalForm(projection: unknown): void {
  if (typeof projection === "object" && projection !== null) normalForm.add(projection);
}

/** True when `value` is a projection the compiler built and marked as in normal form. */
export function isNormalFormProjection(value: unknown): boolean {
  return typeof value === "object" && value !== null && normalForm.has(value);
}
