import { z } from "zod";
import type { JsonObject } from "../json-value.js";
import type { NodeScope } from "./compile-schema.js";
import { childPointer } from "./json-pointer.js";
import { readSchemaList } from "./keyword-values.js";

/**
 * `allOf`, `anyOf` and `oneOf` as parts of the node: every `allOf` member is a
 * part of its own, `anyOf` is a zod union, and `oneOf` is `z.xor`, which fails
 * when more than one branch matches.
 */
export function compileCombinators(node: JsonObject, pointer: string, scope: NodeScope<z.ZodType>): z.ZodType[] {
  const parts: z.ZodType[] = [];
  parts.push(...compileList(node, "allOf", pointer, scope));
  const anyOf = compileList(node, "anyOf", pointer, scope);
  if (anyOf.length > 0) parts.push(single(anyOf) ?? z.union(anyOf));
  const oneOf = compileList(node, "oneOf", pointer, scope);
  if (oneOf.length > 0) parts.push(single(oneOf) ?? z.xor(oneOf));
  return parts;
}

function compileList(node: JsonObject, keyword: string, pointer: string, scope: NodeScope<z.ZodType>): z.ZodType[] {
  const members = readSchemaList(node, keyword, pointer) ?? [];
  const base = childPointer(pointer, keyword);
  return members.map((member, index) => scope.schema(member, childPointer(base, index)));
}

function single(schemas: readonly z.ZodType[]): z.ZodType | undefined {
  return schemas.length === 1 ? schemas[0] : undefined;
}
