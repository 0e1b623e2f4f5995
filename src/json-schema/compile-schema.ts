import type { JsonObject, JsonValue } from "../json-value.js";
import type { DialectProfile } from "./dialect.js";
import { isJsonObject } from "./json-document.js";
import { childPointer } from "./json-pointer.js";
import { assertKeywordsSupported } from "./keyword-policy.js";
import { readSchemaMap, readString } from "./keyword-values.js";
import { MAX_EXPANDED_DEPTH, MAX_EXPANDED_NODES } from "./limits.js";
import { resolveLocalRef } from "./local-ref.js";
import { malformedSchema, schemaTooLarge, unsupportedKeyword } from "./refusal.js";

/**
 * What one walk of a schema document makes of each schema node: its projection
 * (node-projection.ts) or its zod validator (compile-zod-node.ts). The walk is the same
 * for both, so both meet the same nodes, references and budgets.
 */
export interface SchemaBuilder<T> {
  /** The result for a schema object whose keywords the walk has checked; `ref` is a `$ref` applied beside them. */
  node(node: JsonObject, pointer: string, scope: NodeScope<T>, ref: string | undefined): T;
  /** The result for the boolean schema `true` or `false`. */
  boolean(value: boolean): T;
}

/** One compiled schema location: what the builder made, plus the bookkeeping the budgets need. */
export interface Compiled<T> {
  readonly value: T;
  /** Schema nodes this location expands to once every `$ref` is inlined. */
  readonly size: number;
  /** Schema nesting depth once every `$ref` is inlined. */
  readonly depth: number;
}

/** State shared by one walk of one document. */
export interface CompileContext<T> {
  readonly root: JsonValue;
  readonly dialect: DialectProfile;
  readonly builder: SchemaBuilder<T>;
  /** One result per document location: `$ref`s share it instead of re-expanding. */
  readonly memo: Map<string, Compiled<T>>;
  /** Locations being compiled right now; reaching one again through `$ref` is recursion. */
  readonly active: Set<string>;
}

/** Creates the context for walking `root` in `dialect` with `builder`. */
export function createContext<T>(
  root: JsonValue,
  dialect: DialectProfile,
  builder: SchemaBuilder<T>,
): CompileContext<T> {
  return { root, dialect, builder, memo: new Map(), active: new Set() };
}

/**
 * The compiler's handle for one schema node: builders ask it for subschema
 * results, and it records each child's expanded size and depth so the
 * node's budget is known without re-walking.
 */
export class NodeScope<T> {
  readonly children: Compiled<T>[] = [];

  constructor(readonly context: CompileContext<T>) {}

  get dialect(): DialectProfile {
    return this.context.dialect;
  }

  /** The result for the subschema `node` found at `pointer`. */
  schema(node: JsonValue, pointer: string): T {
    const compiled = compileAt(node, pointer, this.context);
    this.children.push(compiled);
    return compiled.value;
  }

  /** The result for the target of a local `$ref` written at `refPointer`. */
  ref(ref: string, refPointer: string): T {
    const target = resolveLocalRef(this.context.root, ref, refPointer, this.context.dialect);
    // Recursive schemas are refused, as OpenAPI intake refuses them: every validator
    // stays a finite tree, so its work per instance is bounded by the expansion budget.
    if (this.context.active.has(target.pointer)) {
      throw unsupportedKeyword("$ref", refPointer, `recursive reference to #${target.pointer} is unsupported`);
    }
    return this.schema(target.node, target.pointer);
  }
}

/** Compiles the schema at `pointer` once, enforcing the expansion budgets. */
export function compileAt<T>(node: JsonValue, pointer: string, context: CompileContext<T>): Compiled<T> {
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

function compileNode<T>(node: JsonValue, pointer: string, scope: NodeScope<T>): Compiled<T> {
  const { builder, dialect } = scope.context;
  if (typeof node === "boolean") {
    if (!dialect.booleanSchemas) throw malformedSchema(pointer, `boolean schemas do not exist in ${dialect.name}`);
    return { value: builder.boolean(node), size: 1, depth: 1 };
  }
  if (!isJsonObject(node)) throw malformedSchema(pointer, "a schema must be an object or a boolean");
  const ref = readString(node, "$ref", pointer);
  if (ref !== undefined && dialect.refSiblingsIgnored) {
    // Draft 4/7 and OpenAPI 3.0: "$ref" replaces the whole schema; siblings are ignored.
    return measure(scope.ref(ref, childPointer(pointer, "$ref")), scope, 0);
  }
  assertKeywordsSupported(node, pointer, dialect);
  readSchemaMap(node, "$defs", pointer);
  readSchemaMap(node, "definitions", pointer);
  return measure(builder.node(node, pointer, scope, ref), scope, 1);
}

function measure<T>(value: T, scope: NodeScope<T>, ownDepth: number): Compiled<T> {
  let size = 1;
  let depth = 0;
  for (const child of scope.children) {
    size += child.size;
    depth = Math.max(depth, child.depth);
  }
  return { value, size, depth: depth + ownDepth };
}
