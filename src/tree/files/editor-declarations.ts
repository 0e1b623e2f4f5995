import { memberName } from "../../describe/env-declaration.js";
import { jsdocBlock } from "../../describe/jsdoc.js";
import { plural } from "../text/text-pages.js";

/** The root file that declares the whole `env` by composing the namespace files; `package.json` points at it. */
export const EDITOR_INDEX_FILE = "index.d.ts";
/** The root package manifest whose `types` lets a project import the mount. */
export const EDITOR_PACKAGE_FILE = "package.json";

/** A child of a namespace directory whose file declares part of `env`: an operation, or a namespace (its `@namespace.d.ts`). */
export interface DeclaredChild {
  readonly kind: "operation" | "namespace";
  /** The child's last path segment. */
  readonly segment: string;
  /** The relative import specifier of the child's declaration file, e.g. `./send.js` or `./drafts/@namespace.js`. */
  readonly specifier: string;
}

/** What a namespace's composed declaration says about the namespace itself. */
export interface ComposedNamespace {
  /** The dotted catalog path of the namespace; "" for the catalog root. */
  readonly namespace: string;
  /** Operations described below, nested ones included. */
  readonly operations: number;
  /** One line about the namespace's source, when it has one. */
  readonly sourceSummary?: string;
  readonly children: readonly DeclaredChild[];
}

/**
 * A namespace's declaration file, composed by import instead of restating: `env.<namespace>` is the
 * intersection of each child file's `env.<namespace>`. Every child file declares only its own member
 * there, so an operation's member (its signature and JSDoc) is defined once, in the operation's file,
 * and a namespace's member once, in its own `@namespace.d.ts`; this file defines only its own
 * namespace's member. The text grows with the number of children, not with their schemas.
 */
export function composedNamespaceDeclaration(facts: ComposedNamespace): string {
  const subject = facts.namespace === "" ? "the whole catalog" : `namespace ${facts.namespace}`;
  const imports = facts.children.map((child) => `import type * as ${importName(child)} from "${child.specifier}";\n`);
  const segments = facts.namespace === "" ? [] : facts.namespace.split(".");
  const parts = facts.children.map(
    (child) => `typeof ${importName(child)}.env${segments.map((segment) => `.${segment}`).join("")}`,
  );
  const doc = [
    `Namespace ${facts.namespace}: ${facts.operations} ${plural(facts.operations, "operation")}.`,
    ...(facts.sourceSummary === undefined ? [] : [facts.sourceSummary]),
  ];
  return `// Forage declarations of ${subject}, composed by import: each operation is declared in its own .d.ts.
// Declarations only: calling env is up to the host, which decides what may run.

${imports.join("")}
export declare const env: ${nested(segments, parts, doc, "")};
`;
}

/** `{ s1: { … sk: A & B } }` around the intersection, the JSDoc on the innermost member; the bare intersection at the root. */
function nested(segments: readonly string[], parts: readonly string[], doc: readonly string[], indent: string): string {
  const [first, ...rest] = segments;
  if (first === undefined) return parts.length === 0 ? "{}" : parts.join(`\n${indent}  & `);
  const inner = `${indent}  `;
  const comment = rest.length === 0 ? jsdocBlock(doc, inner) : "";
  return `{\n${comment}${inner}${memberName(first)}: ${nested(rest, parts, doc, inner)};\n${indent}}`;
}

/** The import binding of a child: segments have no `$`, so `op$x` and `ns$x` never collide, even for a path that is both. */
function importName(child: DeclaredChild): string {
  return `${child.kind === "operation" ? "op" : "ns"}$${child.segment}`;
}

/** The root `package.json`: its `types` is the index, so `import type { env } from "<mountpoint>"` resolves. */
export function mountPackageJson(facts: { revision: string; subtree: string | null }): string {
  const scope = facts.subtree === null ? "" : ` under namespace ${facts.subtree}`;
  const manifest = {
    name: "forage-env",
    private: true,
    description: `Forage catalog revision ${facts.revision}${scope}: TypeScript declarations of env (declarations only; Forage never runs an operation).`,
    type: "module",
    types: `./${EDITOR_INDEX_FILE}`,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
