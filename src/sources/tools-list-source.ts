import { isUtf8 } from "node:buffer";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../catalog/canonical-json.js";
import { compareCodeUnits } from "../catalog/operation-path.js";
import type { OperationDefinition } from "../catalog/types.js";
import { ForageError } from "../forage-error.js";
// Not the ../mcp/index.js barrel: it also exports the live-server client, which would load the MCP SDK
// (and, through it, ajv and zod-to-json-schema: ~150 modules) for every folder or saved tool list.
import { MAX_TOOLS_LIST_BYTES } from "../mcp/limits.js";
import { readToolsList } from "../mcp/tools-list-intake.js";
import type { McpToolsIntake } from "../mcp/types.js";
import type { SourceInfo, SourceSection } from "../tree/source-info.js";
import { detectDataFile } from "./detect-data-file.js";
import { defaultNamespace, type LoadedSource, nestedSource } from "./loaded-source.js";
import { SourceError } from "./source-error.js";
import { readSourceBytes } from "./source-file.js";

/** A saved tools/list result as a source: `result` is its parsed `{ tools: [...] }`, `text` what it was read from. */
export function toolsListFileSource(
  path: string,
  text: string,
  result: unknown,
  namespace = defaultNamespace(path),
): LoadedSource {
  const content = toolsListContent(path, Buffer.byteLength(text), result, namespace);
  return { ...content, digest: sha256Hex(text), namespace };
}

/** A tools/list file's operations and what the mount shows of it: a source but for its digest. */
function toolsListContent(
  path: string,
  bytes: number,
  result: unknown,
  namespace: string,
): Pick<LoadedSource, "content" | "infos"> {
  if (bytes > MAX_TOOLS_LIST_BYTES)
    throw new ForageError("too_large", `The tool list is ${bytes} bytes; the limit is ${MAX_TOOLS_LIST_BYTES}`, {
      limit: MAX_TOOLS_LIST_BYTES,
    });
  const { operations, info } = mcpSourceOf(readToolsList(result), namespace, "MCP tools/list file", path);
  return { content: operations, infos: [info] };
}

/** Each `*.json` file of a folder, under its own namespace (its stem), itself under the folder's NAME= when given. */
export function folderSource(folder: string, namespace: string | undefined): LoadedSource {
  const files = readdirSync(folder)
    .filter((name) => name.toLowerCase().endsWith(".json"))
    .sort(compareCodeUnits)
    .map((name) => join(folder, name));
  if (files.length === 0)
    throw new SourceError(folder, `source ${folder}: a folder source holds MCP tools/list files (*.json); found none`);
  const parts = files.map((file) => {
    const bytes = readSourceBytes(file);
    const text = bytes.toString("utf8");
    const detected = detectDataFile(file, text);
    if (detected.kind !== "tools-list-file")
      throw new SourceError(file, `source ${file}: expected an MCP tools/list result: { "tools": [...] }`);
    const stem = defaultNamespace(file);
    // Valid UTF-8 bytes are the text's own UTF-8: their length is its length in bytes and their digest
    // its digest, as every source's is, without encoding the text back (a third of hashing 58 MB of files).
    const utf8: string | Buffer = isUtf8(bytes) ? bytes : text;
    const content = toolsListContent(file, Buffer.byteLength(utf8), detected.result, stem);
    return { stem, source: { ...content, digest: sha256Hex(utf8), namespace: stem } };
  });
  return nestedSource(parts, namespace);
}

/** The operations of an MCP tool listing (one segment each, not yet under the namespace) and what the mount shows of it. */
export function mcpSourceOf(
  intake: McpToolsIntake,
  namespace: string,
  kind: string,
  origin: string,
): { operations: OperationDefinition[]; info: SourceInfo } {
  const operations = intake.operations.map(({ path, input, output, description, capabilities }) => ({
    path,
    input,
    ...(output === undefined ? {} : { output }),
    ...(description === undefined ? {} : { description }),
    capabilities,
  }));
  const { name, title, version, description, instructions } = intake.server;
  const sections: SourceSection[] = [];
  // The title is for people; the name, which the namespace defaults to, stays visible beside it.
  if (title !== undefined && name !== undefined) sections.push({ heading: "Server", lines: [`name: ${name}`] });
  if (instructions !== undefined) sections.push({ heading: "Instructions", lines: instructions.split("\n") });
  const shownTitle = title ?? name;
  return {
    operations,
    info: {
      namespace,
      kind,
      origin,
      ...(shownTitle === undefined ? {} : { title: shownTitle }),
      ...(version === undefined ? {} : { version }),
      ...(description === undefined ? {} : { description }),
      sections,
      declared: intake.declared,
      unsupported: intake.unsupported
        .filter(({ unvalidated }) => unvalidated === undefined)
        .map(({ toolName, summary, reason }) => ({
          name: toolName,
          ...(summary === undefined ? {} : { summary }),
          reason,
        })),
      // A tool only the compiler refused is shown from the server's own schemas, not validated (docs/mount.md).
      unvalidated: intake.unsupported.flatMap(({ toolName, summary, reason, unvalidated }) =>
        unvalidated === undefined
          ? []
          : [{ ...unvalidated, name: toolName, ...(summary === undefined ? {} : { summary }), reason }],
      ),
    },
  };
}
