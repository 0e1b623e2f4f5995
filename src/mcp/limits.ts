/**
 * MCP intake bounds. Each is checked before schema compilation, so a hostile
 * tool list or server costs time linear in the bytes it may send.
 */

/** Largest tools/list document (a file, or all pages a server lists together), in UTF-8 bytes. */
export const MAX_TOOLS_LIST_BYTES = 2 * 1024 * 1024;

/** Most tools one source may list, supported or not. */
export const MAX_TOOLS = 500;

/** Longest path segment a tool name maps to; longer ones are cut before being made unique. */
export const MAX_TOOL_SEGMENT_LENGTH = 64;

/** Longest server instructions text kept, in UTF-16 code units. */
export const MAX_INSTRUCTIONS_LENGTH = 4_096;

/**
 * How long a live server may take to start, answer initialize and list every page: room for a
 * cold `npx -y` (11-16 s measured for server-everything with an empty npm cache; docs/sources.md).
 */
export const DEFAULT_LIST_DEADLINE_MS = 60_000;

/** Most tools/list pages followed through nextCursor; a server that pages forever is refused. */
export const MAX_LIST_PAGES = 100;
