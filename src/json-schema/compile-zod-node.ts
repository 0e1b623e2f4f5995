import { z } from "zod";
import type { JsonObject } from "../json-value.js";
import { collectAnnotations } from "./annotations.js";
import { compileCombinators } from "./compile-combinators.js";
import { compileEnum, hasSubschemaKeywords } from "./compile-enum.js";
import type { NodeScope, SchemaBuilder } from "./compile-schema.js";
import { compileTypeBranches } from "./compile-type-branches.js";
import { childPointer } from "./json-pointer.js";

/** Builds each schema node as zod pieces that accept exactly what the node accepts. */
export const zodBuilder: SchemaBuilder<z.ZodType> = {
  node(node, pointer, scope, ref) {
    const combined = intersectAll(compileParts(node, pointer, scope, ref));
    const annotations = collectAnnotations(node, pointer, scope.dialect);
    return annotations === undefined ? combined : combined.meta(annotations);
  },
  boolean: (value) => (value ? z.unknown() : z.never()),
};

// Every constraint of the node becomes one part; the node accepts what all parts accept.
function compileParts(
  node: JsonObject,
  pointer: string,
  scope: NodeScope<z.ZodType>,
  ref: string | undefined,
): z.ZodType[] {
  const typed = compileTypeBranches(node, pointer, scope);
  const parts: z.ZodType[] = [];
  // A finite enum beside scalar keywords is filtered at compile time: the result
  // is exactly the surviving values, which also projects as a plain enum.
  const enumFilter = hasSubschemaKeywords(node) ? undefined : typed;
  const enumerated = compileEnum(node, pointer, enumFilter);
  if (enumerated === undefined || enumFilter === undefined) {
    if (typed !== undefined) parts.push(typed);
  }
  if (enumerated !== undefined) parts.push(enumerated);
  parts.push(...compileCombinators(node, pointer, scope));
  if (ref !== undefined) parts.push(scope.ref(ref, childPointer(pointer, "$ref")));
  return parts;
}

function intersectAll(parts: readonly z.ZodType[]): z.ZodType {
  const [first, ...rest] = parts;
  if (first === undefined) return z.unknown();
  return rest.reduce<z.ZodType>((left, right) => z.intersection(left, right), first);
}
