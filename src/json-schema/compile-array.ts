import { z } from "zod";
import type { JsonObject, JsonValue } from "../json-value.js";
import type { NodeScope } from "./compile-schema.js";
import type { DialectProfile } from "./dialect.js";
import { canonicalJson } from "./json-equality.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue, readBoolean, readCount, readSchemaList } from "./keyword-values.js";
import { malformedSchema } from "./refusal.js";

/**
 * The array branch: z.array for a list, z.tuple for positional schemas
 * (draft 4/7 `items: [...]`, 2020-12 `prefixItems`). Positional schemas are
 * optional because JSON Schema lets an array be shorter than its tuple.
 */
export function compileArrayBranch(node: JsonObject, pointer: string, scope: NodeScope<z.ZodType>): z.ZodType {
  const minItems = readCount(node, "minItems", pointer);
  const maxItems = readCount(node, "maxItems", pointer);
  const { tuple, rest } = readArraySubschemas(node, pointer, scope.dialect);
  let array: z.ZodType;
  if (tuple === undefined) {
    let list = z.array(rest === undefined ? z.unknown() : scope.schema(rest.schema, rest.pointer));
    if (minItems !== undefined) list = list.min(minItems);
    if (maxItems !== undefined) list = list.max(maxItems);
    array = list;
  } else {
    const prefix = tuple.members.map((member, index) => scope.schema(member, childPointer(tuple.pointer, index)));
    const after =
      rest === undefined ? z.unknown() : rest.schema === false ? null : scope.schema(rest.schema, rest.pointer);
    array = compileTuple(prefix, after, minItems, maxItems);
  }
  if (readBoolean(node, "uniqueItems", pointer) !== true) return array;
  // Uniqueness is judged on the raw items, beside the array: parsed objects drop "__proto__" keys.
  const unique = z.unknown().superRefine(guardUnique).meta({ uniqueItems: true });
  return z.intersection(unique, array);
}

/** An array's subschemas as its dialect spells them, checked. */
export interface ArraySubschemas {
  /** The positional members (draft 4/7 `items: [...]`, 2020-12 `prefixItems`), or undefined for a list. */
  readonly tuple: { readonly members: readonly JsonValue[]; readonly pointer: string } | undefined;
  /**
   * The schema for the items after the tuple (2020-12 `items`, draft 4/7 `additionalItems`; `false`
   * closes the tuple) or, for a list, for every item (`items`); undefined when they are unconstrained.
   */
  readonly rest: { readonly schema: JsonValue; readonly pointer: string } | undefined;
}

/** Reads and checks `items`, `prefixItems` and `additionalItems` as `dialect` defines them. */
export function readArraySubschemas(node: JsonObject, pointer: string, dialect: DialectProfile): ArraySubschemas {
  const keyword = dialect.tupleKeyword;
  if (keyword === undefined || !Array.isArray(keywordValue(node, keyword))) {
    const items = keywordValue(node, "items");
    const where = childPointer(pointer, "items");
    if (Array.isArray(items)) throw malformedSchema(where, `items must be a schema in ${dialect.name}`, "items");
    return { tuple: undefined, rest: items === undefined ? undefined : { schema: items, pointer: where } };
  }
  const tuple = { members: readSchemaList(node, keyword, pointer) ?? [], pointer: childPointer(pointer, keyword) };
  const restKeyword = keyword === "prefixItems" ? "items" : "additionalItems";
  const rest = keywordValue(node, restKeyword);
  const where = childPointer(pointer, restKeyword);
  if (Array.isArray(rest)) throw malformedSchema(where, `${restKeyword} must be a schema`, restKeyword);
  return { tuple, rest: rest === undefined || rest === true ? undefined : { schema: rest, pointer: where } };
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
