import { z } from "zod";
import type { JsonObject, JsonValue } from "../json-value.js";
import type { NodeScope } from "./compile-schema.js";
import { canonicalJson } from "./json-equality.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue, readBoolean, readCount, readSchemaList } from "./keyword-values.js";
import { malformedSchema } from "./refusal.js";

/**
 * The array branch: z.array for a list, z.tuple for positional schemas
 * (draft 4/7 `items: [...]`, 2020-12 `prefixItems`). Positional schemas are
 * optional because JSON Schema lets an array be shorter than its tuple.
 */
export function compileArrayBranch(node: JsonObject, pointer: string, scope: NodeScope): z.ZodType {
  const minItems = readCount(node, "minItems", pointer);
  const maxItems = readCount(node, "maxItems", pointer);
  const prefix = compilePrefix(node, pointer, scope);
  let array: z.ZodType;
  if (prefix === undefined) {
    let list = z.array(compileItems(node, pointer, scope));
    if (minItems !== undefined) list = list.min(minItems);
    if (maxItems !== undefined) list = list.max(maxItems);
    array = list;
  } else {
    array = compileTuple(prefix, compileRest(node, pointer, scope), minItems, maxItems);
  }
  if (readBoolean(node, "uniqueItems", pointer) !== true) return array;
  // Uniqueness is judged on the raw items, beside the array: parsed objects drop "__proto__" keys.
  const unique = z.unknown().superRefine(guardUnique).meta({ uniqueItems: true });
  return z.intersection(unique, array);
}

function compileTuple(
  prefix: z.ZodType[],
  rest: z.ZodType | null,
  minItems: number | undefined,
  maxItems: number | undefined,
): z.ZodType {
  const items = prefix.map((schema) => schema.optional()) as unknown as [z.ZodType, ...z.ZodType[]];
  let tuple: z.ZodType = rest === null ? z.tuple(items) : z.tuple(items, rest);
  // z.minLength / z.maxLength are zod's own length checks, so the projection shows them.
  if (minItems !== undefined) tuple = tuple.check(z.minLength(minItems));
  if (maxItems !== undefined) tuple = tuple.check(z.maxLength(maxItems));
  return tuple;
}

function compilePrefix(node: JsonObject, pointer: string, scope: NodeScope): z.ZodType[] | undefined {
  const keyword = scope.dialect.tupleKeyword;
  if (keyword === undefined || !Array.isArray(keywordValue(node, keyword))) return undefined;
  const members = readSchemaList(node, keyword, pointer) ?? [];
  const base = childPointer(pointer, keyword);
  return members.map((member, index) => scope.schema(member, childPointer(base, index)));
}

// List form: `items` is one schema for every element.
function compileItems(node: JsonObject, pointer: string, scope: NodeScope): z.ZodType {
  const items = keywordValue(node, "items");
  if (items === undefined) return z.unknown();
  if (Array.isArray(items))
    throw malformedSchema(childPointer(pointer, "items"), `items must be a schema in ${scope.dialect.name}`, "items");
  return scope.schema(items, childPointer(pointer, "items"));
}

// The schema for elements after the tuple: 2020-12 `items`, draft 4/7 `additionalItems`. Null closes the tuple.
function compileRest(node: JsonObject, pointer: string, scope: NodeScope): z.ZodType | null {
  const keyword = scope.dialect.tupleKeyword === "prefixItems" ? "items" : "additionalItems";
  const rest = keywordValue(node, keyword);
  if (rest === undefined || rest === true) return z.unknown();
  if (rest === false) return null;
  if (Array.isArray(rest))
    throw malformedSchema(childPointer(pointer, keyword), `${keyword} must be a schema`, keyword);
  return scope.schema(rest, childPointer(pointer, keyword));
}

function guardUnique(value: unknown, context: z.RefinementCtx): void {
  if (!Array.isArray(value)) return;
  const firstIndex = new Map<string, number>();
  value.forEach((item: JsonValue, index) => {
    const key = canonicalJson(item);
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else
      context.addIssue({
        code: "custom",
        message: `Array items must be unique: item ${index} repeats item ${first}`,
        path: [index],
      });
  });
}
