import type { z } from "zod";
import type { JsonObject } from "../json-value.js";
import { isJsonObject } from "./json-document.js";

/** What `additionalProperties` says about keys not listed in `properties`. */
export type Additional =
  | { readonly mode: "open" }
  | { readonly mode: "closed" }
  | { readonly mode: "schema"; readonly schema: z.ZodType };

/** Everything the raw-input guard needs to check what a zod object cannot. */
export interface ObjectRules {
  readonly declared: ReadonlyMap<string, z.ZodType>;
  /** Declared names a zod object would mishandle (see {@link isInheritedName}). */
  readonly inheritedDeclared: readonly string[];
  readonly inheritedRequired: readonly string[];
  readonly additional: Additional;
  readonly minProperties: number | undefined;
  readonly maxProperties: number | undefined;
}

/**
 * Names zod's object reads through `key in input` and `input[key]`, which see
 * Object.prototype ("toString", "constructor") or skip the key ("__proto__").
 * They are checked by the guard with own-property tests instead.
 */
export function isInheritedName(name: string): boolean {
  return name === "__proto__" || name in Object.prototype;
}

/** True when the object has a rule only the raw-instance guard can check. */
export function needsGuard(rules: ObjectRules): boolean {
  return (
    rules.inheritedDeclared.length > 0 ||
    rules.inheritedRequired.length > 0 ||
    rules.additional.mode !== "open" ||
    rules.minProperties !== undefined ||
    rules.maxProperties !== undefined
  );
}

/** Checks, on the raw instance, what the zod object cannot see or read safely. */
export function guardObject(value: unknown, rules: ObjectRules, context: z.RefinementCtx): void {
  if (!isJsonObject(value)) return;
  for (const name of rules.inheritedDeclared) {
    const schema = rules.declared.get(name);
    if (schema !== undefined && Object.hasOwn(value, name)) reportNested(schema, value[name], [name], context);
  }
  for (const name of rules.inheritedRequired) {
    if (!Object.hasOwn(value, name))
      context.addIssue({ code: "custom", message: `Missing required property "${name}"`, path: [name] });
  }
  for (const name of undeclaredKeysToGuard(value, rules)) checkUndeclared(value, name, rules.additional, context);
  const count = Object.keys(value).length;
  if (rules.minProperties !== undefined && count < rules.minProperties) {
    context.addIssue({
      code: "custom",
      message: `Too small: expected object to have >=${rules.minProperties} properties`,
    });
  }
  if (rules.maxProperties !== undefined && count > rules.maxProperties) {
    context.addIssue({
      code: "custom",
      message: `Too big: expected object to have <=${rules.maxProperties} properties`,
    });
  }
}

// The zod catchall covers undeclared keys, except "__proto__" (which it never
// sees) and, when inherited names are declared, everything (it was switched off).
function undeclaredKeysToGuard(value: JsonObject, rules: ObjectRules): string[] {
  if (rules.additional.mode === "open") return [];
  if (rules.inheritedDeclared.length > 0) return Object.keys(value).filter((key) => !rules.declared.has(key));
  return Object.hasOwn(value, "__proto__") && !rules.declared.has("__proto__") ? ["__proto__"] : [];
}

function checkUndeclared(value: JsonObject, name: string, additional: Additional, context: z.RefinementCtx): void {
  if (additional.mode === "closed") {
    context.addIssue({
      code: "custom",
      message: `Unrecognized key "${name}": additional properties are not allowed`,
      path: [name],
    });
  } else if (additional.mode === "schema") {
    reportNested(additional.schema, value[name], [name], context);
  }
}

function reportNested(schema: z.ZodType, value: unknown, path: readonly PropertyKey[], context: z.RefinementCtx): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) {
    context.addIssue({ code: "custom", message: issue.message, path: [...path, ...issue.path] });
  }
}
