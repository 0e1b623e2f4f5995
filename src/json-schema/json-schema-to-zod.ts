import type { StandardJSONSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import type { JsonSchema } from "../json-value.js";
import { compileAt, createContext } from "./compile-schema.js";
import { zodBuilder } from "./compile-zod-node.js";
import { CompiledSchemas } from "./compiled-schemas.js";
import { resolveDialect } from "./dialect.js";
import { adoptedOrCopy, boundedJsonText, frozenCopyOf } from "./json-document.js";
import { findNonJson } from "./json-instance.js";
import { projectionBuilder } from "./node-projection.js";
import { markNormalForm } from "./normal-form-projections.js";
import type { JsonSchemaToZodOptions } from "./types.js";

/** Every validator this module made and someone still holds, by schema text and options. */
const compiledSchemas = new CompiledSchemas();

/**
 * Compiles a JSON Schema into a zod validator that accepts exactly what the
 * schema accepts, or throws a ForageError: "unsupported" (naming the keyword
 * and its JSON pointer), "invalid_argument" (malformed) or "too_large".
 * The same schema text (keys in the same order) under the same options gives
 * the same validator object while one is held (compiled-schemas.ts).
 */
export function jsonSchemaToZod(schema: unknown, options: JsonSchemaToZodOptions = {}): z.ZodType {
  // Bounds and JSON-ness are checked on the raw input before any compilation work.
  const text = boundedJsonText(schema);
  return compiledSchemas.compile(String(options.dialect ?? ""), text, () => {
    const root = adoptedOrCopy(schema, text);
    const dialect = resolveDialect(root, options.dialect);
    // The projection's walk checks the whole schema (every keyword, value, reference and budget)
    // and refuses it now; the zod pieces, which a catalog that only lists, searches and describes
    // never runs, are built by the same walk when the validator first validates.
    const projection = compileAt(root, "", createContext(root, dialect, projectionBuilder)).value;
    // The normal form differs from the projection only in OpenAPI's `example`, which it merges into
    // `examples`: without that keyword (a dialect without extensions has none) the two are one.
    if (!dialect.extensions) markNormalForm(projection);
    // Until then it holds the text, not the parsed copy: a string is a fraction of the object tree
    // parsed from it, and the tree, but for the values the projection shares, dies young.
    const validator = z.lazy(() => {
      const copy = frozenCopyOf(text);
      return acceptOnlyJson(compileAt(copy, "", createContext(copy, dialect, zodBuilder)).value);
    });
    return answeringWith(validator, projection);
  });
}

/**
 * The validator, its Standard JSON Schema answering draft 2020-12 with the projection the
 * compiler built from the schema it compiled (node-projection.ts), rather than by walking the
 * zod pieces back (zod's `toJSONSchema`, most of what creating a catalog of compiled schemas
 * cost). Both accept exactly what the validator accepts; other targets are zod's own answer.
 */
function answeringWith(validator: z.ZodType, projection: JsonSchema): z.ZodType {
  const standard = validator["~standard"];
  const answer =
    (side: "input" | "output") =>
    (options: StandardJSONSchemaV1.Options): Record<string, unknown> =>
      options?.target === "draft-2020-12"
        ? (projection as Record<string, unknown>)
        : standard.jsonSchema[side](options);
  validator["~standard"] = { ...standard, jsonSchema: { input: answer("input"), output: answer("output") } };
  return validator;
}

// Non-JSON instances are rejected before the compiled schema runs. An identity
// transform (rather than z.unknown) keeps the compiled schema, with its own
// annotations, as the Standard JSON Schema input projection.
function acceptOnlyJson(compiled: z.ZodType): z.ZodType {
  return z
    .transform((value: unknown) => value)
    .superRefine((value, context) => {
      const found = findNonJson(value);
      if (found === undefined) return;
      context.addIssue({
        code: "custom",
        message: `Not a JSON value: ${found.problem}`,
        path: [...found.path],
        continue: false,
      });
    })
    .pipe(compiled);
}
