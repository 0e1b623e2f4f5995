import { ForageError } from "../../forage-error.js";
import { childPointer, ownMember, refTokens, resolveTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import { MAX_SPEC_OPERATIONS } from "../limits.js";

/** Path Item keys that name operations, in the order OpenAPI lists them. */
export const PATH_ITEM_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Where one operation sits in the raw spec. */
export interface OperationSite {
  /** Upper-case HTTP method. */
  readonly method: string;
  readonly path: string;
  /** Pointer of the Path Item, e.g. "/paths/~1pets". */
  readonly itemPointer: string;
  /** Pointer of the Operation object. */
  readonly pointer: string;
  /** The Path Item is a `$ref`: its operations are reported, not exposed. */
  readonly referencedItem: boolean;
}

/**
 * Every operation the spec declares, in document order, refusing more than
 * 500 before any reference or schema work. Referenced Path Items are listed
 * through their local target so each of their operations can be reported.
 */
export function listOperationSites(root: JsonObject): OperationSite[] {
  const paths = root.paths;
  if (paths === undefined) return [];
  if (!isObject(paths)) throw new ForageError("invalid_spec", "The spec's `paths` must be an object");
  const sites: OperationSite[] = [];
  for (const path of Object.keys(paths)) {
    // OpenAPI allows extensions among the paths: `x-` keys are not Path Items.
    if (path.startsWith("x-")) continue;
    const itemPointer = childPointer("/paths", path);
    const item = paths[path];
    if (!isObject(item))
      throw new ForageError("invalid_spec", `The Path Item for ${JSON.stringify(path)} must be an object`, {
        pointer: itemPointer,
      });
    const referenced = typeof item.$ref === "string";
    const declared = referenced ? referencedItem(root, item.$ref as string) : item;
    for (const key of PATH_ITEM_METHODS) {
      if (ownMember(item, key) === undefined && ownMember(declared, key) === undefined) continue;
      sites.push({
        method: key.toUpperCase(),
        path,
        itemPointer,
        pointer: childPointer(itemPointer, key),
        referencedItem: referenced,
      });
    }
    if (sites.length > MAX_SPEC_OPERATIONS) {
      throw new ForageError("too_large", `The spec declares more than ${MAX_SPEC_OPERATIONS} operations`, {
        limit: MAX_SPEC_OPERATIONS,
      });
    }
  }
  return sites;
}

function referencedItem(root: JsonObject, ref: string): unknown {
  const tokens = refTokens(ref);
  return tokens === undefined ? undefined : resolveTokens(root, tokens);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
