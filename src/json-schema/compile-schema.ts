import { z } from "zod";
import type { JsonObject, JsonSchema, JsonValue } from "../json-value.js";
import { collectAnnotations } from "./annotations.js";
import { compileCombinators } from "./compile-combinators.js";
import { compileEnum, hasSubschemaKeywords } from "./compile-enum.js";
import { compileTypeBranches } from "./compile-type-branches.js";
import type { DialectProfile } from "./dialect.js";
import { isJsonObject } from "./json-document.js";
import { childPointer } from "./json-pointer.js";
import { assertKeywordsSupported } from "./keyword-policy.js";
import { readSchemaMap, readString } from "./keyword-values.js";
import { MAX_EXPANDED_DEPTH, MAX_EXPANDED_NODES } from "./limits.js";
import { resolveLocalRef } from "./local-ref.js";
import { projectNode } from "./node-projection.js";
import { malformedSchema, schemaTooLarge, unsupportedKeyword } from "./refusal.js";
import type { Compiled } from "./types.js";

/** The projection of `true`, written `{}` as the normal form writes a schema that accepts anything. */
const ACCEPTS_ANYTHING: JsonSchema = Object.freeze({});

/** State shared by one compilation of one document. */
export interface CompileContext {
  readonly root: JsonValue;
  readonly dialect: DialectProfile;
  /** One validator per document location: `$ref`s share it instead of re-expanding. */
  readonly memo: Map<string, Compiled>;
  /** Locations being compiled right now; reaching one again through `$ref` is recursion. */
  readonly active: Set<string>;
}

/** Creates the context for compiling `root` in `dialect`. */
export function createContext(root: JsonValue, dialect: DialectProfile): CompileContext {
  return { root, dialect, memo: new Map(), active: new Set() };
}

/**
 * The compiler's handle for one schema node: builders ask it for subschema
 * validators, and it records each child's expanded size and depth so the
 * node's budget is known without re-walking.
 */
export class NodeScope {
  readonly children: Compiled[] = [];
  /** Each child by the pointer it was asked for at (a `$ref` by the pointer of the `$ref` itself). */
  readonly #byPointer = new Map<string, Compiled>();

  constructor(readonly context: CompileContext) {}

  get dialect(): DialectProfile {
    return this.context.dialect;
  }

  /** The validator for the subschema `node` found at `pointer`. */
  schema(node: JsonValue, pointer: string): z.ZodType {
    return this.#child(pointer, compileAt(node, pointer, this.context));
  }

  /** The validator for the target of a local `$ref` written at `refPointer`. */
  ref(ref: string, refPointer: string): z.ZodType {
    const target = resolveLocalRef(this.context.root, ref, refPointer, this.context.dialect);
    // Recursive schemas are refused, as OpenAPI intake refuses them: every validator
    // stays a finite tree, so its work per instance is bounded by the expansion budget.
    if (this.context.active.has(target.pointer)) {
      throw unsupportedKeyword("$ref", refPointer, `recursive reference to #${target.pointer} is unsupported`);
    }
    return this.#child(refPointer, compileAt(target.node, target.pointer, this.context));
  }

  /** The projection of the child compiled for `pointer` (node-projection.ts). */
  projection(pointer: string): JsonSchema {
    const child = this.#byPointer.get(pointer);
    if (child === undefined) throw new Error(`no subschema was compiled at #${pointer}`);
    return child.projection;
  }

  #child(pointer: string, compiled: Compiled): z.ZodType {
    this.children.push(compiled);
    this.#byPointer.set(pointer, compiled);
    return compiled.schema;
  }
}

/** Compiles the schema at `pointer` once, enforcing the expansion budgets. */
export function compileAt(node: JsonValue, pointer: string, context: CompileContext): Compiled {
  const known = context.memo.get(pointer);
  if (known !== undefined) return known;
  context.active.add(pointer);
  try {
    const compiled = compileNode(node, pointer, new NodeScope(context));
    if (compiled.size > MAX_EXPANDED_NODES) {
      throw schemaTooLarge("$ref expansion exceeds the node budget", MAX_EXPANDED_NODES, pointer);
    }
    if (compiled.depth > MAX_EXPANDED_DEPTH) {
      throw schemaTooLarge("$ref expansion nests too deeply", MAX_EXPANDED_DEPTH, pointer);
    }
    context.memo.set(pointer, compiled);
    return compiled;
  } finally {
    context.active.delete(pointer);
  }
}

function compileNode(node: JsonValue, pointer: string, scope: NodeScope): Compiled {
  if (typeof node === "boolean") return compileBooleanSchema(node, pointer, scope.dialect);
  if (!isJsonObject(node)) throw malformedSchema(pointer, "a schema must be an object or a boolean");
  const ref = readString(node, "$ref", pointer);
  if (ref !== undefined && scope.dialect.refSiblingsIgnored) {
    // Draft 4/7 and OpenAPI 3.0: "$ref" replaces the whole schema; siblings are ignored.
    const refPointer = childPointer(pointer, "$ref");
    const schema = scope.ref(ref, refPointer);
    return measure(schema, scope.projection(refPointer), scope, 0);
  }
  assertKeywordsSupported(node, pointer, scope.dialect);
  readSchemaMap(node, "$defs", pointer);
  readSchemaMap(node, "definitions", pointer);
  const parts = compileParts(node, pointer, scope, ref);
  const combined = intersectAll(parts);
  const annotations = collectAnnotations(node, pointer, scope.dialect);
  const schema = annotations === undefined ? combined : combined.meta(annotations);
  return measure(schema, projectNode(node, pointer, scope), scope, 1);
}

// Every constraint of the node becomes one part; the node accepts what all parts accept.
function compileParts(node: JsonObject, pointer: string, scope: NodeScope, ref: string | undefined): z.ZodType[] {
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

function compileBooleanSchema(node: boolean, pointer: string, dialect: DialectProfile): Compiled {
  if (!dialect.booleanSchemas) throw malformedSchema(pointer, `boolean schemas do not exist in ${dialect.name}`);
  return node
    ? { schema: z.unknown(), projection: ACCEPTS_ANYTHING, size: 1, depth: 1 }
    : { schema: z.never(), projection: false, size: 1, depth: 1 };
}

function measure(schema: z.ZodType, projection: JsonSchema, scope: NodeScope, ownDepth: number): Compiled {
  let size = 1;
  let depth = 0;
  for (const child of scope.children) {
    size += child.size;
    depth = Math.max(depth, child.depth);
  }
  return { schema, projection, size, depth: depth + ownDepth };
}
