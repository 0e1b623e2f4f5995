import type { InodeNode, InodeTable } from "../../src/fuse/inode-table.js";
import {
  type NodeTableSettings,
  type NodeTableSpec,
  numberNodeTable,
  walkNodeTable,
} from "../../src/fuse/node-table.js";
import { runToEnd } from "../../src/slices.js";
import type { VirtualTree } from "../../src/tree/virtual-tree.js";

/**
 * A tree's whole node table at once, every file rendered and kept, numbered against `inodes`
 * (which it leaves as it is): what the addon is given, for tests that read it without an addon.
 */
export function nodeTableSpec(
  tree: VirtualTree,
  inodes: InodeTable,
  settings: NodeTableSettings,
): { readonly spec: NodeTableSpec; readonly nodes: readonly InodeNode[] } {
  const walked = runToEnd(walkNodeTable(tree, settings));
  walked.contents.renderUpTo(walked.paths.length);
  const { numbers, nodes } = runToEnd(numberNodeTable(walked, inodes));
  return { spec: { ...walked.spec, ...numbers }, nodes };
}
