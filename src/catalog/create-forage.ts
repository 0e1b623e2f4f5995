import { boundMatcher } from "./bound-patterns.js";
import { canonicalJson, sha256Hex } from "./canonical-json.js";
import { CatalogView, forageOf } from "./catalog-view.js";
import { coreOf } from "./create-catalog.js";
import type { Catalog, Forage } from "./types.js";

export interface ForageOptions {
  /**
   * The operations this guest may discover: exact paths, `*` for one segment,
   * or a trailing `**`. Absent means every operation.
   */
  readonly bound?: readonly string[];
}

/** The discovery surface for one guest: the catalog's list, search and describe over its bound operations only. */
export function createForage(catalog: Catalog, options: ForageOptions = {}): Forage {
  const core = coreOf(catalog);
  const everything = core.operations.map((_operation, doc) => doc);
  if (options.bound === undefined) return forageOf(new CatalogView(core, everything, "all"));
  const matches = boundMatcher(options.bound);
  const visible = everything.filter((doc) => matches((core.operations[doc] as { path: string }).path));
  const bindingKey = sha256Hex(canonicalJson(visible.map((doc) => (core.operations[doc] as { path: string }).path)));
  return forageOf(new CatalogView(core, visible, bindingKey));
}
