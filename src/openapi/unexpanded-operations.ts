import { resolveTokens } from "../json-schema/json-pointer.js";
import { leftOut } from "./normalize-openapi.js";
import { baseMethodName, freeMethodName } from "./operation/method-names.js";
import { listOperationSites } from "./operation/operation-sites.js";
import { referencedSourceSchema } from "./operation/referenced-schema.js";
import { readAuthHints } from "./spec/auth-hints.js";
import type { OpenApiPart } from "./split/split-openapi.js";
import type { UnsupportedOperation } from "./types.js";

/**
 * The operations listed with a split part that the splitter gave a document of their own
 * (`OpenApiSplitLeftOut.alone`: they break an intake bound even alone), as intake reports a
 * refused operation (docs/intake.md, "Operations too large to expand"): named as intake names
 * methods, after the names `taken` by the part's own operations, with the splitter's reason,
 * and with their schemas read unexpanded, each component schema they reference a `$defs`
 * entry, so they are shown not validated. Never compiled. An operation whose schemas cannot be
 * read that way (a reference that loops outside the component schemas) has no `sourceSchema`.
 */
export function unexpandedOperations(part: OpenApiPart, taken: Iterable<string>): UnsupportedOperation[] {
  const names = new Set(taken);
  const operations: UnsupportedOperation[] = [];
  for (const { alone, reason } of part.leftOut) {
    if (alone === undefined) continue;
    const site = listOperationSites(alone)[0];
    if (site === undefined) continue;
    const operation = resolveTokens(alone, ["paths", site.path, site.method.toLowerCase()]);
    const operationId = resolveTokens(operation, ["operationId"]);
    const name = freeMethodName(baseMethodName(operationId, site.method, site.path), names);
    names.add(name);
    const context = {
      credentialParameters: readAuthHints(alone.components).credentialParameters,
      authParameter: undefined,
    };
    const sourceSchema = site.referencedItem ? undefined : referencedSourceSchema(alone, site, context);
    operations.push(leftOut({ site, name, operation }, { ok: false, reason, ...(sourceSchema && { sourceSchema }) }));
  }
  return operations;
}
