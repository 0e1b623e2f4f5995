/**
 * AFI error codes to errno (docs/afi.md, "Errors"), for the FUSE transport.
 */
import { constants } from "node:os";
import type { TreeErrorCode } from "../tree/virtual-tree.js";

export const errno = constants.errno;

const byCode: Readonly<Record<TreeErrorCode, number>> = {
  not_found: errno.ENOENT,
  invalid_path: errno.EINVAL,
  unsupported: errno.ENOSYS,
  read_only: errno.EROFS,
  internal: errno.EIO,
};

/** The AFI code of a TreeError. Duck-typed, so that a tree built against another copy of the module still maps. */
export function treeErrorCode(error: unknown): TreeErrorCode | undefined {
  if (!(error instanceof Error) || error.name !== "TreeError") return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code in byCode ? (code as TreeErrorCode) : undefined;
}

/** The errno for anything a tree throws; anything that is not a TreeError is EIO. */
export function errnoFor(error: unknown): number {
  const code = treeErrorCode(error);
  return code ? byCode[code] : errno.EIO;
}

/** True for failures that are a normal answer (a missing path), not a fault worth reporting. */
export function isExpectedTreeError(error: unknown): boolean {
  const code = treeErrorCode(error);
  return code !== undefined && code !== "internal";
}
