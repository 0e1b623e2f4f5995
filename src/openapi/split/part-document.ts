import { refTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject, JsonValue } from "../../json-value.js";
import { type WalkNode, walkRefs } from "./ref-walk.js";
import { PATH_ITEM_METHODS, type SplitOperation } from "./spec-operations.js";
import type { WorkBudget } from "./work-budget.js";

/** What every part keeps of the spec as it is: its identity, servers and security. */
const KEPT_MEMBERS = ["openapi", "info", "jsonSchemaDialect", "servers", "security", "externalDocs"] as const;

/**
 * The spec narrowed to `operations`: their Path Items with only their methods (the Path
 * Item's own parameters, servers and text kept), the tags they use, every security scheme,
 * and only the components they reference, followed transitively. References inside
 * extensions (`x-*`) are documentation and not followed, so what they name is not carried.
 * Objects are shared with the spec, never copied: a part is serialized once it is built.
 */
export function partDocument(root: JsonObject, operations: readonly SplitOperation[], budget: WorkBudget): JsonObject {
  const part = partShell(root, operations);
  const components = referencedComponents(root, part.paths as JsonObject, budget);
  if (Object.keys(components).length > 0) part.components = components;
  return part;
}

/** A part without its components: the spec's identity, servers and security, the tags used, and the Path Items. */
export function partShell(root: JsonObject, operations: readonly SplitOperation[]): JsonObject {
  const part: JsonObject = {};
  for (const member of KEPT_MEMBERS) if (root[member] !== undefined) part[member] = root[member];
  const tags = usedTags(root, operations);
  if (tags !== undefined) part.tags = tags;
  part.paths = partPaths(root, operations);
  return part;
}

function partPaths(root: JsonObject, operations: readonly SplitOperation[]): JsonObject {
  const paths = root.paths as JsonObject;
  const kept: Record<string, JsonObject> = {};
  for (const { path, method } of operations) {
    const item = paths[path] as JsonObject;
    kept[path] ??= itemWithoutMethods(item);
    // A referenced Path Item is kept as its reference: its methods come with its target.
    if (item[method] !== undefined) (kept[path] as JsonObject)[method] = item[method] as JsonValue;
  }
  return kept;
}

function itemWithoutMethods(item: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(item).filter(([key]) => !PATH_ITEM_METHODS.has(key)));
}

function usedTags(root: JsonObject, operations: readonly SplitOperation[]): JsonValue[] | undefined {
  if (!Array.isArray(root.tags)) return undefined;
  const used = new Set(operations.flatMap((operation) => operation.tags));
  return root.tags.filter(
    (tag) => typeof tag === "object" && tag !== null && used.has((tag as JsonObject).name as string),
  );
}

/**
 * The components `paths` reaches, each taken whole. A reference names a component by its
 * first two tokens (`#/components/schemas/Pet/properties/id` keeps `schemas/Pet`); each
 * component is walked once per part, and every value visited is a step of work.
 */
function referencedComponents(root: JsonObject, paths: JsonObject, budget: WorkBudget): JsonObject {
  const source = isObject(root.components) ? root.components : {};
  const kept: Record<string, Record<string, JsonValue>> = {};
  const schemes = source.securitySchemes;
  if (isObject(schemes)) kept.securitySchemes = { ...schemes };
  const roots: WalkNode[] = [{ value: paths, key: "paths" }];
  if (isObject(schemes)) roots.push({ value: schemes, key: "securitySchemes" });
  walkRefs(roots, budget, (ref) => keepComponent(ref, source, kept));
  return kept;
}

/** Keeps the component `ref` names, the first time it is reached, and gives it back to be walked. */
function keepComponent(
  ref: string,
  source: JsonObject,
  kept: Record<string, Record<string, JsonValue>>,
): WalkNode | undefined {
  const tokens = refTokens(ref);
  if (tokens === undefined || tokens[0] !== "components" || tokens.length < 3) return undefined;
  const [, kind, name] = tokens as [string, string, string];
  const group = source[kind];
  if (!isObject(group) || !Object.hasOwn(group, name) || Object.hasOwn(kept[kind] ?? {}, name)) return undefined;
  kept[kind] ??= {};
  (kept[kind] as Record<string, JsonValue>)[name] = group[name] as JsonValue;
  return { value: group[name], key: name };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
