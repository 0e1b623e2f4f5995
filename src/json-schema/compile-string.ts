import { z } from "zod";
import type { JsonObject } from "../json-value.js";
import { codePointLength } from "./code-points.js";
import { readCount } from "./keyword-values.js";

/**
 * The string branch. Lengths count code points, so they are refinements rather
 * than zod's UTF-16 `.min`/`.max`; metadata restores them in the projection.
 */
export function compileStringBranch(node: JsonObject, pointer: string): z.ZodType {
  const minLength = readCount(node, "minLength", pointer);
  const maxLength = readCount(node, "maxLength", pointer);
  let schema = z.string();
  const meta: Record<string, number> = {};
  if (minLength !== undefined) {
    schema = schema.refine((text) => codePointLength(text) >= minLength, {
      message: `Too small: expected string to have >=${minLength} characters`,
    });
    meta.minLength = minLength;
  }
  if (maxLength !== undefined) {
    schema = schema.refine((text) => codePointLength(text) <= maxLength, {
      message: `Too big: expected string to have <=${maxLength} characters`,
    });
    meta.maxLength = maxLength;
  }
  return Object.keys(meta).length === 0 ? schema : schema.meta(meta);
}
