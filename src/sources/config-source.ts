import { basename } from "node:path";
import { sha256Hex } from "../catalog/canonical-json.js";
import type { SourceInfo } from "../tree/source-info.js";
import { identifier, type LoadedSource, nestedSource } from "./loaded-source.js";
import type { ConfiguredServer, McpConfigFlavor } from "./mcp-config.js";
import { type ListContext, listedSource, listFailure, listLiveServer } from "./mcp-server-source.js";

/**
 * An MCP client config as a source: each server under its own namespace, its key spelled as an
 * identifier, itself under the config's NAME= when given. The servers are listed side by side; one
 * that fails (does not start, times out, speaks garbage, cannot be configured) is named on stderr
 * and in the mount, as a namespace whose @source.txt says what failed, and the rest mount.
 * A disabled server is skipped, and said so.
 */
export async function mcpConfigSource(
  path: string,
  flavor: McpConfigFlavor,
  servers: readonly ConfiguredServer[],
  namespace: string | undefined,
  context: ListContext,
): Promise<LoadedSource> {
  const stems = uniqueStems(servers.map(({ key }) => key));
  const parts = await Promise.all(
    servers.map(async (server, index): Promise<{ stem: string; source: LoadedSource } | undefined> => {
      const stem = stems[index] as string;
      const origin = `${path} (${flavor}.${server.key})`;
      const label = `${server.key} (${basename(path)})`;
      const failed = (reason: string) => {
        context.note(`MCP server ${label} failed, the others mount: ${reason}`);
        return { stem, source: failedSource(stem, origin, reason) };
      };
      if (server.state === "disabled") {
        context.note(`${path}: MCP server ${server.key} is disabled there; skipped`);
        return undefined;
      }
      if (server.state === "unusable") return failed(server.problem);
      try {
        return { stem, source: listedSource(await listLiveServer(server.target, label, context), stem, origin) };
      } catch (error) {
        return failed(listFailure(error));
      }
    }),
  );
  return nestedSource(
    parts.flatMap((part) => (part === undefined ? [] : [part])),
    namespace,
  );
}

/** A server that failed, as the mount shows it: its namespace, no operations, and why in its kind. */
function failedSource(namespace: string, origin: string, reason: string): LoadedSource {
  const info: SourceInfo = {
    namespace,
    kind: `MCP server that failed to list its tools: ${reason}`,
    origin,
    sections: [],
    declared: 0,
    unsupported: [],
  };
  return { content: [], digest: sha256Hex(`failed\u0000${origin}\u0000${reason}`), namespace, infos: [info] };
}

/** The keys as namespace segments; two keys spelled alike get `_2`, `_3`… in the order written. */
function uniqueStems(keys: readonly string[]): string[] {
  const taken = new Set<string>();
  return keys.map((key) => {
    const stem = identifier(key);
    let unique = stem;
    for (let suffix = 2; taken.has(unique); suffix += 1) unique = `${stem}_${suffix}`;
    taken.add(unique);
    return unique;
  });
}
