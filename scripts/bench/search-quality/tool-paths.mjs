// Turns tool names into Forage operation paths, and keeps the way back.

/** Names a segment may not take (Object.prototype members and "then"), mirroring Forage's own rule. */
const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), "then"]);

/**
 * A valid path segment for a tool name: runs of characters outside
 * [A-Za-z0-9_] become "_", so camelCase and snake_case survive for Forage's
 * own word splitting ("PDF&URLTool" → "PDF_URLTool").
 */
function segmentOf(name) {
  let segment = name.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  if (segment === "") segment = "tool";
  if (/^[0-9]/.test(segment)) segment = `t_${segment}`;
  if (RESERVED.has(segment)) segment = `${segment}_tool`;
  return segment;
}

/**
 * Assigns each tool a unique path, `<server>.<name>` for a tool of a named server (as a mount of several
 * MCP servers names it) and `tools.<name>` otherwise; returns the paths by id and the ids by path.
 */
export function toolPaths(tools) {
  const pathById = new Map();
  const idByPath = new Map();
  for (const tool of tools) {
    const base = `${tool.server ? segmentOf(tool.server) : "tools"}.${segmentOf(tool.name)}`;
    let path = base;
    for (let suffix = 2; idByPath.has(path); suffix += 1) path = `${base}_${suffix}`;
    pathById.set(tool.id, path);
    idByPath.set(path, tool.id);
  }
  return { pathById, idByPath };
}
