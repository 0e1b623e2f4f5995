import { extname } from "node:path";
import { readSourceFile, statSource } from "./source-file.js";
import { DATA_EXTENSIONS, type DetectedSource, MODULE_EXTENSIONS, unrecognizedSource } from "./source-kinds.js";
import type { SourceLocation } from "./source-spec.js";

/**
 * What a source is: the one place that decides. A path is stat-ed (missing, too large: refused
 * before reading), a folder is a folder, a module is known by its extension, and a data file is
 * parsed once and known by its top-level keys (detectDataFile).
 */
export async function detectSource(location: SourceLocation): Promise<DetectedSource> {
  if (location.kind !== "path") return { kind: "mcp-server", location };
  const { path } = location;
  const stats = statSource(path);
  if (stats.isDirectory()) return { kind: "folder", path };
  const extension = extname(path).toLowerCase();
  if (MODULE_EXTENSIONS.includes(extension)) return { kind: "module", path, text: readSourceFile(path, stats) };
  if (!DATA_EXTENSIONS.includes(extension))
    throw unrecognizedSource(path, "its name does not end in .js/.mjs/.json/.yaml", true);
  const text = readSourceFile(path, stats);
  // The YAML parser loads only for data files, so mounting a module never pays for it.
  return (await import("./detect-data-file.js")).detectDataFile(path, text);
}
