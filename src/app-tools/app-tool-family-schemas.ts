import type { z } from "zod";
import { ForageError, isForageError } from "../forage-error.js";
import { jsonSchemaToZod } from "../json-schema/index.js";
import { assertAppToolFamilyApi } from "./api-shape.js";
import { compileRows } from "./compile-rows.js";
import { invalidArgument } from "./issues.js";
import { readListingEnvelope } from "./listing-envelope.js";
import type { AppToolFamily, AppToolFamilyApi } from "./types.js";

/**
 * Projects one dynamic App tool listing into rows with validators: the reply is
 * checked by the listing method's declared output schema, then each row's
 * input and output schema is compiled with jsonSchemaToZod.
 */
export function appToolFamilySchemas(api: AppToolFamilyApi, reply: unknown): AppToolFamily {
  assertAppToolFamilyApi(api);
  validateThroughListOutput(api, reply);
  const listing = readListingEnvelope(reply);
  const compiled = listing.indexed ? compileRows(listing.rows ?? []) : { rows: [], unsupported: [] };
  // Only data and validators: no handlers, no binding defaults, no credentials or grants.
  // The host builds each invocation through the App's call owner with `callMethod`.
  return Object.freeze({
    family: api.family,
    listMethod: api.listMethod.name,
    callMethod: api.callMethod,
    effect: api.effect,
    requirements: Object.freeze([...(api.requirements ?? [])]),
    indexed: listing.indexed,
    rows: Object.freeze(compiled.rows),
    unsupported: Object.freeze(compiled.unsupported),
  });
}

function validateThroughListOutput(api: AppToolFamilyApi, reply: unknown): void {
  const result = compileListOutput(api).safeParse(reply);
  if (!result.success) throw invalidArgument(`Reply of ${api.listMethod.name}`, result.error);
}

function compileListOutput(api: AppToolFamilyApi): z.ZodType {
  try {
    return jsonSchemaToZod(api.listMethod.output);
  } catch (error) {
    if (!isForageError(error)) throw error;
    // The signed output schema itself is unusable; say so instead of blaming the reply.
    throw new ForageError(error.code, `Output schema of ${api.listMethod.name}: ${error.message}`, {
      ...error.details,
    });
  }
}
