import { escapeToken, refTokens } from "../json-schema/json-pointer.js";
import type { JsonSchema, JsonValue } from "../json-value.js";

type SchemaObject = { readonly [keyword: string]: JsonValue };

/** The root schema's node in the reference graph; every other node is a definition's location. */
const ROOT = "#";

/**
 * A reference cycle that passes through no object property and no array items,
 * such as `$defs: { a: { anyOf: [{ $ref: "#/$defs/a" }, { type: "string" }] } }`,
 * as the locations along it, first and last the same (`["#/$defs/a", "#/$defs/a"]`),
 * or undefined when there is none.
 *
 * Such a schema is an infinitely recursive type with no structure: its alias
 * would be declared as `type A = A | string`, which TypeScript rejects as
 * circular. Recursion through `properties`, `items`, `prefixItems` or
 * `additionalProperties` is fine, because the alias then sits inside an object
 * or array type. The graph mirrors renderType: `$ref` replaces its siblings,
 * `const` and `enum` are literals, and `anyOf` (else `oneOf`) and `allOf` are
 * rendered in place; `"#"` names the root and `#/$defs/<name>` (or
 * `#/definitions/<name>`) a definition, as the aliases do.
 */
export function directReferenceCycle(
  schema: JsonSchema,
  definitions: Readonly<Record<string, JsonValue>>,
  container: string,
): string[] | undefined {
  // Nodes are keyed by their locations, which cannot collide: the root is "#", a definition "#/<container>/<name>".
  const location = (name: string): string => `#/${container}/${escapeToken(name)}`;
  const edges = new Map<string, string[]>([[ROOT, targets(schema, definitions, location)]]);
  for (const [name, definition] of Object.entries(definitions))
    edges.set(location(name), targets(definition, definitions, location));
  // Iterative depth-first search (a long chain of definitions must not overflow the stack);
  // a node met again while it is still on the path closes a cycle.
  const done = new Set<string>();
  for (const start of edges.keys()) {
    if (done.has(start)) continue;
    const path: string[] = [start];
    const onPath = new Set<string>(path);
    const next: number[] = [0];
    while (path.length > 0) {
      const top = path.length - 1;
      const node = path[top] as string;
      const out = edges.get(node) ?? [];
      const index = next[top] as number;
      if (index === out.length) {
        path.pop();
        next.pop();
        onPath.delete(node);
        done.add(node);
        continue;
      }
      next[top] = index + 1;
      const target = out[index] as string;
      if (onPath.has(target)) return [...path.slice(path.indexOf(target)), target];
      if (done.has(target)) continue;
      path.push(target);
      onPath.add(target);
      next.push(0);
    }
  }
  return undefined;
}

/** The graph nodes a schema names where its alias would be rendered directly, not inside an object or array. */
function targets(
  schema: JsonSchema | JsonValue | undefined,
  definitions: Readonly<Record<string, JsonValue>>,
  location: (name: string) => string,
): string[] {
  const refs: string[] = [];
  collectDirectRefs(schema, refs);
  const nodes: string[] = [];
  for (const ref of refs) {
    const node = refNode(ref, definitions, location);
    if (node !== undefined) nodes.push(node);
  }
  return nodes;
}

function collectDirectRefs(schema: JsonSchema | JsonValue | undefined, refs: string[]): void {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return;
  const object = schema as SchemaObject;
  if (typeof object.$ref === "string") {
    refs.push(object.$ref);
    return;
  }
  if ("const" in object || Array.isArray(object.enum)) return;
  const alternatives = object.anyOf ?? object.oneOf;
  if (Array.isArray(alternatives)) for (const inner of alternatives) collectDirectRefs(inner, refs);
  if (Array.isArray(object.allOf)) for (const inner of object.allOf) collectDirectRefs(inner, refs);
}

/** The node a `$ref` is rendered as (see renderRef), or undefined when it renders as `unknown`. */
function refNode(
  ref: string,
  definitions: Readonly<Record<string, JsonValue>>,
  location: (name: string) => string,
): string | undefined {
  if (ref === "#") return ROOT;
  const tokens = refTokens(ref);
  if (tokens?.length !== 2 || (tokens[0] !== "$defs" && tokens[0] !== "definitions")) return undefined;
  const name = tokens[1] as string;
  return Object.hasOwn(definitions, name) ? location(name) : undefined;
}
