/**
 * How one mount shows a tree's nodes to the kernel: modes, sizes and
 * attribute timeouts (docs/native.md, "Kernel caching").
 */
import type { TreeNodeInfo } from "../tree/virtual-tree.js";

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

/** Every directory's mode: read and search for all, never write. */
export const DIRECTORY_MODE = S_IFDIR | 0o555;
/** A control file's mode while it is served as one (it takes writes). */
export const CONTROL_MODE = S_IFREG | 0o666;

/** The mode bits of a node; control files are read-only (0444) when `controlFiles` is false. */
export function modeOf(info: TreeNodeInfo, controlFiles = true): number {
  if (info.kind === "directory") return DIRECTORY_MODE;
  if (info.kind === "symlink") return S_IFLNK | 0o777;
  return info.writable && controlFiles ? CONTROL_MODE : S_IFREG | 0o444;
}

/** Directories report 0 (AFI); a symlink's size is its target's length. */
export function sizeOf(info: TreeNodeInfo): number {
  if (info.kind === "directory") return 0;
  if (info.kind === "symlink" && info.target !== undefined) return Buffer.byteLength(info.target);
  return info.size;
}

/** The attribute rules of one mount: whether control files are served as such, and the timeout of the rest. */
export class Attributes {
  readonly #controlFiles: boolean;
  readonly #attrTimeout: number;

  constructor(controlFiles: boolean, attrTimeout: number) {
    this.#controlFiles = controlFiles;
    this.#attrTimeout = attrTimeout;
  }

  /** True for a control file served with a session per open (not shown read-only). */
  isControl(info: TreeNodeInfo): boolean {
    return info.writable === true && this.#controlFiles;
  }

  /** The mode this mount reports for a node. */
  mode(info: TreeNodeInfo): number {
    return modeOf(info, this.#controlFiles);
  }

  /** The attribute timeout of a node: 0 for a control file, whose size changes per open. */
  timeout(info: TreeNodeInfo): number {
    return this.isControl(info) ? 0 : this.#attrTimeout;
  }
}
