import { resolve } from "node:path";
import type { OpenApiSelect } from "../openapi/index.js";

/** What a source argument starts with to name a live MCP server: a command line, or an http(s) URL. */
export const MCP_PREFIX = "mcp:";

/** Where a source is, as the user named it: a file or folder, a server's command line (as written), a remote server's URL. */
export type SourceLocation =
  | { readonly kind: "path"; readonly path: string }
  | { readonly kind: "mcp-command"; readonly commandLine: string }
  | { readonly kind: "mcp-url"; readonly url: string };

/** One source as given: `[NAME=]file`, `[NAME=]folder`, `[NAME=]mcp:<command line>` or `[NAME=]mcp:<http(s) URL>`. */
export interface SourceSpec {
  readonly location: SourceLocation;
  readonly namespace: string | undefined;
  /** `--select`: what to keep of an OpenAPI spec (docs/intake.md, "Selecting part of a spec"). */
  readonly select?: OpenApiSelect;
}

/** Parses `[namespace=]source`; a path is made absolute, an `mcp:` command line or URL is kept as written. */
export function parseSourceSpec(argument: string): SourceSpec {
  const match = /^([A-Za-z_][A-Za-z0-9_.]*)=(.+)$/.exec(argument);
  const written = match === null ? argument : (match[2] as string);
  return { location: sourceLocation(written), namespace: match?.[1] };
}

function sourceLocation(written: string): SourceLocation {
  if (!written.startsWith(MCP_PREFIX)) return { kind: "path", path: resolve(written) };
  const rest = written.slice(MCP_PREFIX.length);
  return /^https?:\/\//i.test(rest) ? { kind: "mcp-url", url: rest } : { kind: "mcp-command", commandLine: rest };
}

/** How messages name a source: its path, or `mcp:` and what followed it. */
export function sourceLabel(location: SourceLocation): string {
  switch (location.kind) {
    case "path":
      return location.path;
    case "mcp-command":
      return `${MCP_PREFIX}${location.commandLine}`;
    case "mcp-url":
      return `${MCP_PREFIX}${location.url}`;
  }
}

/** The files and folders among the sources: what --watch watches. */
export function sourcePaths(sources: readonly SourceSpec[]): string[] {
  return sources.flatMap(({ location }) => (location.kind === "path" ? [location.path] : []));
}
