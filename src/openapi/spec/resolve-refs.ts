import {
  $RefParser,
  dereferenceInternal,
  jsonSchemaParserNormalizeArgs,
  type ParserOptions,
} from "@apidevtools/json-schema-ref-parser";
import { ForageError } from "../../forage-error.js";
import { refTokens } from "../../json-schema/json-pointer.js";
import type { JsonObject } from "../../json-value.js";
import { isExtensionKey } from "../extension-keys.js";
import { MAX_EXPANDED_DEPTH } from "../limits.js";
import type { OpenApiVersion } from "../types.js";

// Local references only: no file or HTTP resolver may run, and external
// references are never followed (intake has already refused any). Circular
// references stay as `$ref` objects, so the result is a finite DAG; the
// operations that reach them were already marked unsupported. Extensions
// (`x-*`) are documentation: the budget never measured them, so they are
// never resolved either.
const RESOLVER_OPTIONS: ParserOptions = {
  resolve: { file: false, http: false, external: false },
  dereference: { circular: "ignore", maxDepth: MAX_EXPANDED_DEPTH + 8, excludedPathMatcher: isExtensionPath },
  mutateInputSchema: true,
  continueOnError: false,
  timeoutMs: 10_000,
};

/**
 * Resolves every local `$ref` of the (private, already budgeted) spec with
 * JSON Schema Ref Parser, in place. Shared targets become shared objects.
 *
 * The parser's public entry points are asynchronous only because they may
 * read files or URLs; intake never lets them, so it runs the same steps
 * synchronously: `parse` registers the in-memory root before its first
 * await, and `dereferenceInternal` (exported for exactly this kind of
 * embedding, as swagger-parser does) walks it.
 */
export function resolveLocalRefs(root: JsonObject, version: OpenApiVersion): JsonObject {
  if (version === "3.0") stripRefSiblings(root);
  // Without `openapi` (or a root $schema / $id) the parser resolves every
  // "#/..." against the document root, exactly as the budget measured; an
  // embedded `$id` is left for the compiler, which refuses it.
  const { openapi: _openapi, $schema: _schema, $id: _id, ...resolvable } = root;
  const parser = new $RefParser();
  parser.parse(resolvable, RESOLVER_OPTIONS).catch(() => undefined);
  if (parser.$refs.paths().length !== 1) {
    throw new ForageError(
      "unsupported",
      "The installed JSON Schema Ref Parser no longer registers documents synchronously; intake cannot resolve references",
    );
  }
  const options = jsonSchemaParserNormalizeArgs([resolvable, RESOLVER_OPTIONS] as unknown as IArguments).options;
  parser.schema = resolvable;
  try {
    dereferenceInternal(parser, options);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new ForageError("invalid_spec", `The spec's references could not be resolved: ${message}`);
  }
  return parser.schema as JsonObject;
}

/**
 * The resolver asks about every object it reaches, parent before child, and skips an excluded one's
 * whole subtree; so only the last member of the path (and the key it sits under) needs testing.
 */
function isExtensionPath(pathFromRoot: string): boolean {
  const tokens = refTokens(pathFromRoot.slice(pathFromRoot.indexOf("#")));
  if (tokens === undefined || tokens.length === 0) return false;
  return isExtensionKey(tokens.at(-1) as string, tokens.at(-2));
}

/**
 * OpenAPI 3.0 ignores every property beside `$ref`. The resolver would merge
 * them into the target instead (a sibling `maxLength` could then override the
 * target's), so they are removed first.
 */
function stripRefSiblings(root: JsonObject): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      for (const key of Object.keys(record)) if (key !== "$ref") delete record[key];
      continue;
    }
    stack.push(...Object.values(record));
  }
}
