import type { TreeEntry, TreeNodeInfo } from "./virtual-tree.js";

/**
 * A file's text is made on demand and not kept: the kernel's page cache holds
 * what was read, and most texts are strings the catalog already prepared.
 * Only the byte size is remembered, once a read or a stat needed it. Listings
 * report it lazily, so that a walk that reads every file (the mount's node
 * table) renders each one once, not once for its size and again for its bytes.
 */
export interface FileNode {
  readonly kind: "file";
  text(): string;
  size(): number;
  bytes(): Uint8Array;
}

/** A directory; `namespace` is the dotted namespace it stands for, if it is a catalog directory. */
export type DirectoryNode = {
  readonly kind: "directory";
  readonly namespace: string | undefined;
  readonly children: string[];
  readonly unlisted?: boolean;
};

/** Anything a path of the catalog tree can name. */
export type TreeNode =
  | FileNode
  | DirectoryNode
  | { readonly kind: "symlink"; readonly target: string }
  | { readonly kind: "control" };

const encoder = new TextEncoder();

/**
 * One object per file and no closure: the function that renders a kind of file is shared by
 * every file of that kind, each holding only its subject (9 MB of closures at 10,000 operations).
 */
class RenderedFile<S> implements FileNode {
  readonly kind = "file";
  readonly #render: (subject: S) => string;
  readonly #subject: S;
  #size: number | undefined;

  constructor(render: (subject: S) => string, subject: S) {
    this.#render = render;
    this.#subject = subject;
  }

  text(): string {
    return this.#render(this.#subject);
  }

  size(): number {
    this.#size ??= Buffer.byteLength(this.text());
    return this.#size;
  }

  bytes(): Uint8Array {
    const bytes = encoder.encode(this.text());
    this.#size = bytes.length;
    return bytes;
  }
}

/** A file node whose text `render(subject)` makes on every read; one `render` serves many files. */
export function renderedFile<S>(render: (subject: S) => string, subject: S): FileNode {
  return new RenderedFile(render, subject);
}

const callText = (text: () => string): string => text();

/** A file node whose text is made by `text` on every read. */
export function fileNode(text: () => string): FileNode {
  return new RenderedFile(callText, text);
}

/** What stat reports of a node. */
export function nodeInfo(node: TreeNode): TreeNodeInfo {
  switch (node.kind) {
    case "directory":
      return node.unlisted ? { kind: "directory", size: 0, unlisted: true } : { kind: "directory", size: 0 };
    case "file":
      return { kind: "file", size: node.size() };
    case "symlink":
      return { kind: "symlink", size: Buffer.byteLength(node.target), target: node.target };
    case "control":
      return { kind: "file", size: 0, writable: true };
  }
}

/** A listing entry; a file's size is computed when first asked for. */
export function listingEntry(name: string, node: TreeNode): TreeEntry {
  if (node.kind !== "file") return { name, ...nodeInfo(node) };
  return {
    name,
    kind: "file",
    get size() {
      return node.size();
    },
  };
}
