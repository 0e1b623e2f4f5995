import { z } from "zod";
import { invalidArgument } from "./issues.js";
import { MAX_APP_TOOL_NAME } from "./limits.js";
import type { AppToolFamilyApi } from "./types.js";

const name = z.string().min(1).max(MAX_APP_TOOL_NAME);

// Strict: an unexpected field (a handler, a default binding) is a caller mistake, not something to carry.
const apiShape = z.strictObject({
  family: name,
  listMethod: z.strictObject({ name, output: z.union([z.boolean(), z.record(z.string(), z.unknown())]) }),
  callMethod: name,
  effect: z.enum(["read", "write"]),
  requirements: z.array(z.string().min(1)).optional(),
});

/** Checks the caller-supplied family API, or throws "invalid_argument" naming the field. */
export function assertAppToolFamilyApi(api: unknown): asserts api is AppToolFamilyApi {
  const result = apiShape.safeParse(api);
  if (!result.success) throw invalidArgument("App tool family api", result.error);
}
