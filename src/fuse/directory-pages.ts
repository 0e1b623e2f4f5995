/**
 * The listings of directories the handlers serve, and the pages a readdir
 * sends from them (docs/native.md, "Which operations reach JS"). Offsets are
 * listing indexes: "." is 0, ".." is 1, then the children in tree.list order;
 * entry i says "resume at i + 1".
 */
import type { TreeNodeKind, VirtualTree } from "../tree/virtual-tree.js";
import { type Attributes, DIRECTORY_MODE, sizeOf } from "./attributes.js";
import type { InodeNode, InodeTable } from "./inode-table.js";

/** Smallest kernel dirent sizes: header + one 8-byte name slot (plus fuse_entry_out for readdirplus). */
const MIN_DIRENT = 32;
const MIN_DIRENTPLUS = 160;

interface Listing {
  readonly names: string[];
  readonly kinds: TreeNodeKind[];
  readonly modes: number[];
  readonly sizes: number[];
  readonly attrTimeouts: number[];
}

/** One page of entries, as NativeBinding.replyReaddir takes them. */
export interface DirectoryPage {
  readonly names: string[];
  readonly inos: number[];
  readonly modes: number[];
  readonly sizes: number[];
  readonly attrTimeouts: number[];
  /** The inode node of each entry; undefined for "." and "..", which count no lookup. */
  readonly nodes: (InodeNode | undefined)[];
}

export class DirectoryPages {
  readonly #attributes: Attributes;
  readonly #inodes: InodeTable;
  readonly #listings = new Map<number, Listing>();

  constructor(attributes: Attributes, inodes: InodeTable) {
    this.#attributes = attributes;
    this.#inodes = inodes;
  }

  /**
   * The entries from `offset` on that may fit in `size` bytes (the kernel packs as many as fit
   * and says how many it took), each resolved to its inode node.
   */
  page(tree: VirtualTree, dir: InodeNode, offset: number, size: number, plus: boolean): DirectoryPage {
    const listing = this.#listing(tree, dir);
    const end = Math.min(listing.names.length, offset + Math.floor(size / (plus ? MIN_DIRENTPLUS : MIN_DIRENT)) + 1);
    const nodes: (InodeNode | undefined)[] = [];
    const inos: number[] = [];
    for (let i = offset; i < end; i++) {
      const node = i < 2 ? undefined : this.#inodes.resolve(dir, listing.names[i]!, listing.kinds[i]!);
      nodes.push(node);
      inos.push(node ? node.ino : i === 0 ? dir.ino : dir.parent);
    }
    return {
      names: listing.names.slice(offset, end),
      inos,
      modes: listing.modes.slice(offset, end),
      sizes: listing.sizes.slice(offset, end),
      attrTimeouts: listing.attrTimeouts.slice(offset, end),
      nodes,
    };
  }

  /** The kernel forgot a directory: its listing goes. */
  forget(ino: number): void {
    this.#listings.delete(ino);
  }

  /** A new revision is served: every listing goes. */
  newRevision(): void {
    this.#listings.clear();
  }

  #listing(tree: VirtualTree, node: InodeNode): Listing {
    const cached = this.#listings.get(node.ino);
    if (cached) return cached;
    const listing: Listing = {
      names: [".", ".."],
      kinds: ["directory", "directory"],
      modes: [DIRECTORY_MODE, DIRECTORY_MODE],
      sizes: [0, 0],
      attrTimeouts: [0, 0],
    };
    for (const entry of tree.list(node.path)) {
      listing.names.push(entry.name);
      listing.kinds.push(entry.kind);
      listing.modes.push(this.#attributes.mode(entry));
      listing.sizes.push(sizeOf(entry));
      listing.attrTimeouts.push(this.#attributes.timeout(entry));
    }
    this.#listings.set(node.ino, listing);
    return listing;
  }
}
