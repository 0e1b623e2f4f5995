/**
 * A tree revision flattened into the node table the addon serves without JS
 * (native/node-table.c): every node the tree lists, with its inode number,
 * mode and bytes, each directory's children in one run in listing order.
 *
 * A revision is immutable, so the kernel's requests about it (lookup,
 * getattr, readdir, open, read, readlink) need no JS at all; only control
 * files and the names an unlisted directory makes on lookup (/.search) still
 * reach the handlers. The bytes are rendered once here, which is also what
 * the sizes in any listing cost.
 */

import type { Steps } from "../slices.js";
import { childPath } from "../tree/tree-path.js";
import type { TreeNodeInfo, TreeNodeKind, VirtualTree } from "../tree/virtual-tree.js";
import { type InodeNode, type InodeTable, ROOT_INO } from "./inode-table.js";

/** A table's inode numbers: what NativeBinding.serveNextTable takes. */
export interface NodeTableNumbers {
  readonly inos: Float64Array;
  readonly parents: Float64Array;
}

/** A table but its inode numbers: what NativeBinding.startNextTable and fillNextTable take. */
export interface NextTableSpec {
  readonly modes: Uint32Array;
  /** NODE_FORWARD and NODE_UNLISTED bits (NativeConstants). */
  readonly flags: Uint32Array;
  readonly firstChild: Uint32Array;
  readonly childCount: Uint32Array;
  readonly names: string[];
  /** A file's bytes or a symlink's target; undefined for directories and control files. */
  readonly contents: (Uint8Array | undefined)[];
  readonly entryTimeout: number;
  readonly attrTimeout: number;
  readonly negativeTimeout: number;
}

/** A whole table, numbered. */
export type NodeTableSpec = NextTableSpec & NodeTableNumbers;

/**
 * Most file bytes a table holds. A catalog within its bounds renders to far less (57 MB at
 * 10,000 operations); past this, the remaining files are left to the handlers, which render
 * them on read as the tree always could, so a huge catalog costs time, not unbounded memory.
 */
export const MAX_TABLE_CONTENT_BYTES = 1024 * 1024 * 1024;

export interface NodeTableSettings {
  readonly modeOf: (info: TreeNodeInfo) => number;
  /** Default MAX_TABLE_CONTENT_BYTES. */
  readonly maxContentBytes?: number;
  readonly forwardFlag: number;
  readonly unlistedFlag: number;
  readonly entryTimeout: number;
  readonly attrTimeout: number;
  readonly negativeTimeout: number;
}

/**
 * A table in the inode table's terms: each node's InodeNode (the live one, or a new one that is
 * not in the inode table yet) and the numbers the addon serves.
 */
export interface NumberedNodeTable {
  readonly numbers: NodeTableNumbers;
  /** In table order; the root first. Revision.install puts them in the inode table once the addon serves the table. */
  readonly nodes: readonly InodeNode[];
}

/**
 * A tree walked: the whole table but its inode numbers (numberNodeTable gives them) and its
 * files' bytes, which `contents` renders a run of nodes at a time, in table order, just before
 * the addon copies them, and lets go of once it did: a table's bytes are then never held twice,
 * in JS and in C (57 MB at 10,000 operations). Everything here depends on the tree only, so it
 * may be made between requests.
 */
export interface WalkedNodeTable {
  readonly paths: readonly string[];
  readonly parentIndex: readonly number[];
  readonly kinds: readonly TreeNodeKind[];
  readonly spec: NextTableSpec;
  readonly contents: TableContents;
}

const encoder = new TextEncoder();

/**
 * Walks `tree` breadth first, yielding after each directory so that a caller may serve requests
 * in between (src/slices.ts). It touches nothing but the tree; no file is rendered yet.
 */
export function* walkNodeTable(tree: VirtualTree, settings: NodeTableSettings): Generator<void, WalkedNodeTable> {
  const paths = ["/"];
  const names = [""];
  const parentIndex = [0];
  const infos: TreeNodeInfo[] = [tree.stat("/")];
  // Each node's fields as it is listed: made at the end they were one step of tens of
  // milliseconds at 10,000 operations, long enough to stall the requests served in between.
  const modes = [settings.modeOf(infos[0]!)];
  const flags = [0];
  const kinds: TreeNodeKind[] = [infos[0]!.kind];
  const firstChild: number[] = [];
  const childCount: number[] = [];
  for (let i = 0; i < paths.length; i++) {
    firstChild.push(paths.length);
    childCount.push(0);
    if (infos[i]!.kind !== "directory") continue;
    for (const entry of tree.list(paths[i]!)) {
      paths.push(childPath(paths[i]!, entry.name));
      names.push(entry.name);
      parentIndex.push(i);
      infos.push(entry);
      modes.push(settings.modeOf(entry));
      flags.push(entry.unlisted ? settings.unlistedFlag : 0);
      kinds.push(entry.kind);
    }
    childCount[i] = paths.length - firstChild[i]!;
    yield;
  }
  const spec = {
    modes: Uint32Array.from(modes),
    flags: Uint32Array.from(flags),
    firstChild: Uint32Array.from(firstChild),
    childCount: Uint32Array.from(childCount),
    names,
    contents: new Array<Uint8Array | undefined>(paths.length),
    entryTimeout: settings.entryTimeout,
    attrTimeout: settings.attrTimeout,
    negativeTimeout: settings.negativeTimeout,
  };
  const contents = new TableContents(tree, paths, infos, spec, settings);
  return { paths, parentIndex, kinds, spec, contents };
}

/**
 * The bytes of a walked table's files, rendered into its spec a run of nodes at a time, always
 * in table order, so that the room for bytes is spent first come, first served.
 */
export class TableContents {
  readonly #tree: VirtualTree;
  readonly #paths: readonly string[];
  readonly #infos: readonly TreeNodeInfo[];
  readonly #spec: NextTableSpec;
  readonly #forwardFlag: number;
  #room: number;
  #rendered = 0;

  constructor(
    tree: VirtualTree,
    paths: readonly string[],
    infos: readonly TreeNodeInfo[],
    spec: NextTableSpec,
    settings: NodeTableSettings,
  ) {
    this.#tree = tree;
    this.#paths = paths;
    this.#infos = infos;
    this.#spec = spec;
    this.#forwardFlag = settings.forwardFlag;
    this.#room = settings.maxContentBytes ?? MAX_TABLE_CONTENT_BYTES;
  }

  /** Renders the bytes (and the forward flag) of every node before `to` not rendered yet. */
  renderUpTo(to: number): void {
    const end = Math.min(to, this.#paths.length);
    for (let i = this.#rendered; i < end; i++) {
      const info = this.#infos[i]!;
      const content = contentOf(this.#tree, this.#paths[i]!, info, this.#room);
      if (content instanceof Uint8Array) this.#room -= content.length;
      this.#spec.contents[i] = content === LEFT_TO_HANDLERS ? undefined : content;
      if (info.writable === true || content === LEFT_TO_HANDLERS) this.#spec.flags[i]! |= this.#forwardFlag;
    }
    this.#rendered = Math.max(this.#rendered, end);
  }

  /** Lets go of the bytes of nodes [from, to), once the addon holds its copy. */
  release(from: number, to: number): void {
    this.#spec.contents.fill(undefined, from, Math.min(to, this.#rendered));
  }
}

/** Nodes numbered per step: a millisecond or two (2,048 took over 10 ms at 10,000 operations). */
const NUMBER_CHUNK_NODES = 256;

/**
 * Numbers a walked tree (a path that keeps its kind keeps its number), yielding every few
 * hundred nodes, without touching the inode table: until Revision.install, a table the addon refuses
 * changes nothing. Numbers depend on the inode table's live paths, which the handlers may change
 * between steps: whoever serves the numbers must check they are still those (InodeTable.watchPaths).
 */
export function* numberNodeTable(walked: WalkedNodeTable, inodes: InodeTable): Steps<NumberedNodeTable> {
  const { paths, parentIndex, kinds } = walked;
  const { names } = walked.spec;
  const nodes: InodeNode[] = [inodes.get(ROOT_INO)!];
  const inos = new Float64Array(paths.length);
  const parents = new Float64Array(paths.length);
  inos[0] = ROOT_INO;
  parents[0] = ROOT_INO;
  for (let i = 1; i < paths.length; i++) {
    const parent = inos[parentIndex[i]!]!;
    const node = inodes.planned(paths[i]!, names[i]!, parent, kinds[i]!);
    nodes.push(node);
    inos[i] = node.ino;
    parents[i] = parent;
    if (i % NUMBER_CHUNK_NODES === 0) yield;
  }
  return { numbers: { inos, parents }, nodes };
}

/**
 * A file the handlers serve instead of the table: its bytes failed to render (so only its
 * own reads fail, EIO, as before the table), or they did not fit the table's room.
 */
const LEFT_TO_HANDLERS = Symbol("left to the handlers");

function contentOf(
  tree: VirtualTree,
  path: string,
  info: TreeNodeInfo,
  room: number,
): Uint8Array | undefined | typeof LEFT_TO_HANDLERS {
  if (info.kind === "symlink") return encoder.encode(info.target ?? tree.readlink(path));
  if (info.kind !== "file" || info.writable) return undefined;
  try {
    // Not info.size first: a listing's size is lazy, and asking it would render the file once
    // for its size and again for its bytes.
    const bytes = tree.read(path);
    return bytes.length > room ? LEFT_TO_HANDLERS : bytes;
  } catch {
    return LEFT_TO_HANDLERS;
  }
}
