import { ForageError } from "../../forage-error.js";
import { ownMember, refTokens, resolveTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import { MAX_SPLIT_OPERATIONS } from "./split-limits.js";

/**
 * Path Item keys that name operations, as intake reads them. The operation stage has the same
 * list (src/openapi/operation/operation-sites.ts), but this stage runs before it and may not import it.
 */
export const PATH_ITEM_METHODS: ReadonlySet<string> = new Set([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);

/** One operation as the splitter sees it: where it is, and what it is grouped by. */
export interface SplitOperation {
  /** The Path Item key, lower case ("get"). */
  readonly method: string;
  readonly path: string;
  /** Its first tag, as written; undefined when it has none. */
  readonly tag: string | undefined;
  /** Its tags, as written, for selection. */
  readonly tags: readonly string[];
  /** The path's literal segments, templates (`{owner}`) left out: `/repos/{owner}/{repo}/pulls` → repos, pulls. */
  readonly segments: readonly string[];
  readonly summary: string | undefined;
}

/**
 * Every operation of the spec in document order, refusing more than the splitter's bound
 * before any part is built. A Path Item that is a local `$ref` is read through its target.
 */
export function listSplitOperations(root: JsonObject): SplitOperation[] {
  const paths = root.paths;
  if (paths === undefined) return [];
  if (!isObject(paths)) throw new ForageError("invalid_spec", "The spec's `paths` must be an object");
  const operations: SplitOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (path.startsWith("x-")) continue;
    if (!isObject(item))
      throw new ForageError("invalid_spec", `The Path Item for ${JSON.stringify(path)} must be an object`);
    const declared = typeof item.$ref === "string" ? localTarget(root, item.$ref) : item;
    for (const method of PATH_ITEM_METHODS) {
      const operation = ownMember(item, method) ?? ownMember(declared, method);
      if (operation === undefined) continue;
      operations.push(splitOperation(method, path, operation));
    }
    if (operations.length > MAX_SPLIT_OPERATIONS) {
      throw new ForageError("too_large", `The spec declares more than ${MAX_SPLIT_OPERATIONS} operations`, {
        limit: MAX_SPLIT_OPERATIONS,
      });
    }
  }
  return operations;
}

function splitOperation(method: string, path: string, operation: unknown): SplitOperation {
  const record = isObject(operation) ? operation : {};
  const tags = Array.isArray(record.tags) ? record.tags.filter((tag): tag is string => typeof tag === "string") : [];
  return {
    method,
    path,
    tag: tags[0],
    tags,
    segments: path.split("/").filter((segment) => segment !== "" && !/^\{.*\}$/.test(segment)),
    summary: typeof record.summary === "string" ? record.summary : undefined,
  };
}

function localTarget(root: JsonObject, ref: string): unknown {
  const tokens = refTokens(ref);
  return tokens === undefined ? undefined : resolveTokens(root, tokens);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
