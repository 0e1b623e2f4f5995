import { ForageError } from "../../forage-error.js";
import { formatPointer, refTokens, resolveTokens } from "../../json-schema/json-pointer.js";
import { isExtensionKey } from "../extension-keys.js";
import { MAX_EXPANDED_DEPTH, MAX_EXPANDED_NODES } from "../limits.js";
import type { OpenApiVersion } from "../types.js";

/** What one subtree costs once every `$ref` occurrence is inlined, and why it cannot be exposed, if it cannot. */
export interface RefMeasure {
  readonly size: number;
  readonly height: number;
  /** The first problem found: recursion, an anchor reference, or constraint keywords beside a 3.1 `$ref`. */
  readonly problem?: string;
}

const LEAF: RefMeasure = { size: 1, height: 0 };

// Keywords beside a 3.1 `$ref` that never constrain: merging them is faithful.
// Anything else beside a `$ref` is combined with allOf semantics in 3.1, which
// the resolver's key merge would not preserve (a sibling could override a bound).
const ANNOTATION_SIBLINGS = new Set([
  "summary",
  "description",
  "title",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "default",
  "example",
  "examples",
  "externalDocs",
  "xml",
  "discriminator",
]);

/**
 * Measures the raw spec with every `$ref` counted at each occurrence, before
 * any dereferencing or decoding. Target sizes are memoized, so a spec whose
 * references fan out to millions of nodes is measured (and refused) in time
 * linear in its raw size. Recursion is found here too: a reference reached
 * again while its own target is being measured is a cycle. Extensions (`x-*`)
 * are documentation: neither counted nor followed.
 */
export class RefBudget {
  readonly #memo = new Map<string, RefMeasure>();
  readonly #active = new Set<string>();

  readonly #root: unknown;
  readonly #version: OpenApiVersion;

  constructor(root: unknown, version: OpenApiVersion) {
    this.#root = root;
    this.#version = version;
  }

  /**
   * Refuses external references, references that resolve to nothing, and
   * expansion beyond the node and depth budgets, anywhere in the spec.
   */
  assertWithinBudget(): RefMeasure {
    const measure = this.#measure(this.#root, 1);
    if (measure.size > MAX_EXPANDED_NODES) {
      throw new ForageError(
        "too_large",
        `The spec's references expand to about ${formatCount(measure.size)} nodes; the budget is ${MAX_EXPANDED_NODES}`,
        { limit: MAX_EXPANDED_NODES, expanded: measure.size },
      );
    }
    return measure;
  }

  /** How many nodes the subtree `node` (e.g. one operation) expands to, every `$ref` occurrence counted as a copy. */
  expandedSize(node: unknown): number {
    return this.#measure(node, 1).size;
  }

  /** Why the subtree `node` (e.g. one operation) cannot be exposed, or undefined when its references are fine. */
  problemIn(node: unknown): string | undefined {
    return this.#measure(node, 1).problem;
  }

  /** `key` is where `node` sits in its container: it tells an extension from a name (src/openapi/extension-keys.ts). */
  #measure(node: unknown, depth: number, key?: string | number): RefMeasure {
    if (depth > MAX_EXPANDED_DEPTH) throw tooDeep();
    if (typeof node !== "object" || node === null) return LEAF;
    const ref: unknown = (node as Record<string, unknown>).$ref;
    if (typeof ref === "string" && !Array.isArray(node))
      return this.#measureRef(node as Record<string, unknown>, ref, depth);
    let size = 1;
    let height = 0;
    let problem: string | undefined;
    for (const [member, child] of Object.entries(node)) {
      if (isExtensionKey(member, key)) continue;
      const measured = this.#measure(child, depth + 1, Array.isArray(node) ? Number(member) : member);
      size += measured.size;
      height = Math.max(height, measured.height + 1);
      problem ??= measured.problem;
    }
    return problem === undefined ? { size, height } : { size, height, problem };
  }

  #measureRef(node: Record<string, unknown>, ref: string, depth: number): RefMeasure {
    if (!ref.startsWith("#")) {
      throw new ForageError(
        "unsupported",
        `External reference ${JSON.stringify(ref)} is refused; intake resolves only local "#/..." references`,
        {
          ref,
        },
      );
    }
    const tokens = refTokens(ref);
    if (tokens === undefined) {
      return {
        ...LEAF,
        problem: `$ref ${JSON.stringify(ref)} is not a JSON pointer; use a "#/..." reference instead of an anchor`,
      };
    }
    const target = this.#measureTarget(formatPointer(tokens), tokens, ref, depth);
    const problem = this.#siblingProblem(node, ref) ?? target.problem;
    return problem === undefined ? { size: target.size, height: target.height } : { ...target, problem };
  }

  #measureTarget(key: string, tokens: readonly string[], ref: string, depth: number): RefMeasure {
    if (this.#active.has(key)) {
      return {
        ...LEAF,
        problem: `the schema at ${JSON.stringify(ref)} refers back to itself; recursive schemas are unsupported`,
      };
    }
    const known = this.#memo.get(key);
    if (known !== undefined) {
      if (depth + known.height > MAX_EXPANDED_DEPTH) throw tooDeep();
      return known;
    }
    const value = resolveTokens(this.#root, tokens);
    if (value === undefined) {
      throw new ForageError("invalid_spec", `$ref ${JSON.stringify(ref)} does not resolve to anything in the spec`, {
        ref,
      });
    }
    this.#active.add(key);
    try {
      const measured = this.#measure(value, depth, tokens.at(-1));
      this.#memo.set(key, measured);
      return measured;
    } finally {
      this.#active.delete(key);
    }
  }

  #siblingProblem(node: Record<string, unknown>, ref: string): string | undefined {
    // OpenAPI 3.0 ignores every sibling of $ref; they are stripped before resolution.
    if (this.#version === "3.0") return undefined;
    const constraint = Object.keys(node).find(
      (key) => key !== "$ref" && !ANNOTATION_SIBLINGS.has(key) && !key.startsWith("x-"),
    );
    if (constraint === undefined) return undefined;
    return `the keyword "${constraint}" beside $ref ${JSON.stringify(ref)} is unsupported; move the $ref and the keyword into an allOf`;
  }
}

function tooDeep(): ForageError {
  return new ForageError(
    "too_large",
    `The spec's references nest deeper than ${MAX_EXPANDED_DEPTH} levels once inlined`,
    {
      limit: MAX_EXPANDED_DEPTH,
    },
  );
}

function formatCount(count: number): string {
  return count >= 1e15 ? count.toExponential(2) : String(Math.round(count));
}
