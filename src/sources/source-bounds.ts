/**
 * The sources layer's own bounds (docs/sources.md, "Bounds of the sources layer"). They are
 * checked before a file is read; each kind's reader then applies its own, tighter bounds
 * (OpenAPI intake and MCP intake 2 MiB, a catalog file 2 MiB).
 */

import { MAX_SPLIT_BYTES } from "../openapi/split/split-limits.js";

/**
 * Largest source file read at all, in bytes (stat before read): the largest spec the splitter takes
 * (docs/intake.md, "Splitting a large spec"), room for the largest real specs.
 */
export const MAX_SOURCE_FILE_BYTES = MAX_SPLIT_BYTES;

/** Largest YAML source parsed, in bytes: YAML costs many times JSON's time and memory per byte. */
export const MAX_YAML_SOURCE_BYTES = 16 * 1_024 * 1_024;

/** Most servers one MCP client config file may declare. */
export const MAX_CONFIG_SERVERS = 100;
