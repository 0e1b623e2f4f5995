import { z } from "zod";
import type { JsonObject } from "../json-value.js";
import { isDecimalMultiple } from "./decimal-multiple.js";
import type { DialectProfile } from "./dialect.js";
import { childPointer } from "./json-pointer.js";
import { keywordValue, readNumber } from "./keyword-values.js";
import { malformedSchema } from "./refusal.js";

/**
 * The number or integer branch. Bounds use zod's exact comparisons; `integer`
 * and `multipleOf` are refinements because zod's versions differ from JSON
 * Schema (z.int() stops at 2^53, zod's multipleOf is float-based).
 */
export function compileNumberBranch(
  node: JsonObject,
  pointer: string,
  dialect: DialectProfile,
  integer: boolean,
): z.ZodType {
  let schema = applyBounds(z.number(), node, pointer, dialect);
  const meta: Record<string, string | number> = {};
  if (integer) {
    schema = schema.refine(Number.isInteger, { message: "Invalid input: expected integer" });
    meta.type = "integer";
  }
  const multipleOf = readMultipleOf(node, pointer);
  if (multipleOf !== undefined) {
    schema = schema.refine((value) => isDecimalMultiple(value, multipleOf), {
      message: `Invalid number: must be a multiple of ${multipleOf}`,
    });
    meta.multipleOf = multipleOf;
  }
  return Object.keys(meta).length === 0 ? schema : schema.meta(meta);
}

function applyBounds(schema: z.ZodNumber, node: JsonObject, pointer: string, dialect: DialectProfile): z.ZodNumber {
  let bounded = schema;
  const { lower, upper } = readNumberBounds(node, pointer, dialect);
  if (lower.inclusive !== undefined) bounded = bounded.gte(lower.inclusive);
  if (lower.exclusive !== undefined) bounded = bounded.gt(lower.exclusive);
  if (upper.inclusive !== undefined) bounded = bounded.lte(upper.inclusive);
  if (upper.exclusive !== undefined) bounded = bounded.lt(upper.exclusive);
  return bounded;
}

/** `multipleOf`, which must be a number greater than 0. */
export function readMultipleOf(node: JsonObject, pointer: string): number | undefined {
  const multipleOf = readNumber(node, "multipleOf", pointer);
  if (multipleOf !== undefined && multipleOf <= 0)
    throw malformedSchema(childPointer(pointer, "multipleOf"), "multipleOf must be greater than 0", "multipleOf");
  return multipleOf;
}

/** One side of a number's range: its inclusive limit, its exclusive limit, either or neither. */
export interface Bound {
  inclusive?: number;
  exclusive?: number;
}

/** The lower and upper bounds of a number, each dialect's spelling read as numbers. */
export function readNumberBounds(
  node: JsonObject,
  pointer: string,
  dialect: DialectProfile,
): { readonly lower: Bound; readonly upper: Bound } {
  return {
    lower: readBound(node, "minimum", "exclusiveMinimum", pointer, dialect),
    upper: readBound(node, "maximum", "exclusiveMaximum", pointer, dialect),
  };
}

// Draft 4 and OpenAPI 3.0 spell an exclusive bound as `minimum` plus `exclusiveMinimum: true`;
// later drafts give `exclusiveMinimum` its own number.
function readBound(
  node: JsonObject,
  limitKeyword: string,
  exclusiveKeyword: string,
  pointer: string,
  dialect: DialectProfile,
): Bound {
  const limit = readNumber(node, limitKeyword, pointer);
  if (!dialect.booleanExclusiveBounds)
    return { inclusive: limit, exclusive: readNumber(node, exclusiveKeyword, pointer) };
  const flag = keywordValue(node, exclusiveKeyword);
  const where = childPointer(pointer, exclusiveKeyword);
  if (flag !== undefined && typeof flag !== "boolean") {
    throw malformedSchema(where, `${exclusiveKeyword} must be a boolean in ${dialect.name}`, exclusiveKeyword);
  }
  if (flag === true && limit === undefined) {
    throw malformedSchema(where, `${exclusiveKeyword} requires ${limitKeyword}`, exclusiveKeyword);
  }
  return flag === true ? { exclusive: limit } : { inclusive: limit };
}
