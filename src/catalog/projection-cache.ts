import { type ProjectionSide, projectJsonSchemaWithText } from "../describe/schema-projection.js";
import type { JsonSchema } from "../json-value.js";
import { deepFreeze } from "./deep-freeze.js";

/** One validator's projection, frozen, with its JSON text (exactly JSON.stringify(schema)). */
export interface Projection {
  readonly schema: JsonSchema;
  readonly json: string;
}

/**
 * The projections made during one createCatalog call, by validator and side.
 * Hosts often give many operations the same validator object, and projecting
 * is most of the cost of creation; a validator is taken to stay as it is for
 * the length of one creation (zod's never change; a reload's creation spans
 * turns of the event loop, in slices), so each is made, checked and frozen once.
 * Validators that fail to project are not cached: the first failure ends the
 * call.
 */
export class ProjectionCache {
  readonly #made = { input: new WeakMap<object, Projection>(), output: new WeakMap<object, Projection>() };

  /** The projection of `validator`; throws a plain Error saying why it cannot be projected. */
  project(validator: unknown, side: ProjectionSide): Projection {
    const cacheable = validator !== null && (typeof validator === "object" || typeof validator === "function");
    const cached = cacheable ? this.#made[side].get(validator) : undefined;
    if (cached !== undefined) return cached;
    const { schema, json } = projectJsonSchemaWithText(validator, side);
    const projection: Projection = { schema: deepFreeze(schema), json };
    if (cacheable) this.#made[side].set(validator, projection);
    return projection;
  }
}
