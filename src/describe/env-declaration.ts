import { jsdocBlock, jsdocBlockLength } from "./jsdoc.js";
import type { OperationDeclaration } from "./operation-declaration.js";

/** One level of the nested `env` object: an optional callable and its children. */
interface EnvNode {
  call?: OperationDeclaration;
  readonly children: Map<string, EnvNode>;
}

/** Declares `env` as a nested object whose leaves call the given operations. */
export function declareEnv(operations: readonly OperationDeclaration[]): string {
  const root: EnvNode = { children: new Map() };
  for (const operation of operations) {
    let node = root;
    for (const segment of operation.path.split(".")) {
      let child = node.children.get(segment);
      if (child === undefined) node.children.set(segment, (child = { children: new Map() }));
      node = child;
    }
    node.call = operation;
  }
  return `export declare const env: ${renderChildren(root, "")};\n`;
}

/**
 * The length of declareEnv([operation]), worked out without rendering it: catalog creation
 * checks every operation's description against its bound, and this runs once per operation.
 * One operation's `env` is a chain of nested objects, one per segment, ending in its member.
 */
export function envDeclarationLength(operation: OperationDeclaration): number {
  const segments = operation.path.split(".");
  const leaf = segments.length; // the member's level; level k is indented 2k
  const last = segments[leaf - 1] as string;
  let length =
    "export declare const env: ".length +
    ";\n".length +
    jsdocBlockLength(operation.docLines, 2 * leaf) +
    2 * leaf +
    memberName(last).length +
    callSignatureLength(operation) +
    ";\n".length;
  // Each object level k < leaf opens with "{\n" and closes with its indent and "}"; each
  // level from 1 to leaf - 1 is a member `name: {...};\n` at its own indent.
  for (let level = 0; level < leaf; level += 1) length += 2 + 2 * level + 1;
  for (let level = 1; level < leaf; level += 1)
    length += 2 * level + memberName(segments[level - 1] as string).length + ": ".length + ";\n".length;
  return length;
}

function renderChildren(node: EnvNode, indent: string): string {
  const inner = `${indent}  `;
  let body = "";
  // A path that is also a namespace ("a.b" and "a.b.c") becomes a callable object with members.
  if (node.call !== undefined && node.children.size > 0)
    body += `${jsdocBlock(node.call.docLines, inner)}${inner}${callSignature(node.call)};\n`;
  for (const [name, child] of node.children) {
    if (child.children.size === 0 && child.call !== undefined) {
      body += `${jsdocBlock(child.call.docLines, inner)}${inner}${memberName(name)}${callSignature(child.call)};\n`;
    } else {
      body += `${inner}${memberName(name)}: ${renderChildren(child, inner)};\n`;
    }
  }
  return `{\n${body}${indent}}`;
}

/**
 * A path segment as a member name of a type literal. Segments are identifiers,
 * but `new(...)` there declares a construct signature rather than a method
 * named "new", so that one name is quoted (`"new"(...)`); `env.ns.new(...)`
 * still calls it. Every other keyword, contextual or reserved, followed by
 * `(` or `:` is an ordinary member name.
 */
export function memberName(segment: string): string {
  return segment === "new" ? '"new"' : segment;
}

function callSignature(operation: OperationDeclaration): string {
  return `(input: ${operation.inputAlias}): Promise<${operation.outputAlias}>`;
}

function callSignatureLength(operation: OperationDeclaration): number {
  return "(input: ): Promise<>".length + operation.inputAlias.length + operation.outputAlias.length;
}
