/** Types by file name ending; the tree holds text only, so anything else is plain text. */
const CONTENT_TYPES: readonly (readonly [string, string])[] = [
  [".ts", "application/typescript"],
  [".json", "application/json"],
  [".md", "text/markdown"],
  [".yaml", "application/yaml"],
  [".yml", "application/yaml"],
];

/** AFI's `content_type` of a node: `inode/directory` for directories, else by the file name's ending. */
export function contentType(path: string, kind: "directory" | "file" | "symlink"): string {
  if (kind === "directory") return "inode/directory";
  if (kind === "symlink") return "inode/symlink";
  return CONTENT_TYPES.find(([ending]) => path.endsWith(ending))?.[1] ?? "text/plain";
}
