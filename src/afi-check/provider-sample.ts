import type { AfiClient, Reply } from "./afi-client.js";

/** An Entry as the walk keeps it: the fields scenarios pick samples by. */
export interface SampleEntry {
  readonly path: string;
  readonly type: string;
  readonly size: number;
  readonly target?: string;
  readonly content_type?: string;
}

/** One directory as the walk listed it. */
export interface SampleDirectory {
  readonly path: string;
  readonly children: readonly SampleEntry[];
  /** Every page of its listing as it came. */
  readonly replies: readonly Reply[];
}

/** A text file with a word in it: what the search scenarios look for. */
export interface SearchSample {
  readonly path: string;
  readonly lines: readonly string[];
  readonly word: string;
  /** The 1-based line where `word` first occurs. */
  readonly line: number;
}

/** What the kit found by walking the provider from `/` with `list`: its own paths, never assumed ones. */
export interface ProviderSample {
  readonly directories: readonly SampleDirectory[];
  readonly files: readonly SampleEntry[];
  readonly symlinks: readonly SampleEntry[];
  /** A text file holding a word, read whole; undefined when none was found or read is not declared. */
  readonly search?: SearchSample;
}

/** Bounds of the walk, so a huge or endless provider costs a fixed number of requests. */
const MAX_DIRECTORIES = 60;
const MAX_PAGES_PER_DIRECTORY = 20;
const MAX_ENTRIES = 3_000;
/** Files the search sample is chosen from, and the largest read for it. */
const SEARCH_CANDIDATES = 6;
const MAX_SEARCH_FILE = 256 * 1024;

/** True for paths under `/.afi/`, AFI's metadata, which are not content to sample. */
function isMetadata(path: string): boolean {
  return path === "/.afi" || path.startsWith("/.afi/");
}

/**
 * Walks the provider breadth-first from `/` with `list` (following
 * `next_cursor`), within the bounds above, then reads a few small files for
 * the search sample when `read` is declared.
 */
export async function sampleProvider(client: AfiClient, canRead: boolean): Promise<ProviderSample> {
  const directories: SampleDirectory[] = [];
  const files: SampleEntry[] = [];
  const symlinks: SampleEntry[] = [];
  const queue = ["/"];
  let seen = 0;
  while (queue.length > 0 && directories.length < MAX_DIRECTORIES && seen < MAX_ENTRIES) {
    const path = queue.shift() as string;
    const listed = await listAll(client, path);
    if (listed === undefined) continue;
    directories.push(listed);
    for (const child of listed.children) {
      seen += 1;
      if (isMetadata(child.path)) continue;
      if (child.type === "directory") queue.push(child.path);
      else if (child.type === "symlink") symlinks.push(child);
      else if (child.type === "file") files.push(child);
    }
  }
  const search = canRead ? await searchSample(client, files) : undefined;
  return { directories, files, symlinks, ...(search === undefined ? {} : { search }) };
}

async function listAll(client: AfiClient, path: string): Promise<SampleDirectory | undefined> {
  const children: SampleEntry[] = [];
  const replies: Reply[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES_PER_DIRECTORY; page += 1) {
    const reply = await client.list(path, cursor === undefined ? {} : { cursor });
    replies.push(reply);
    if (reply.kind !== "ok") return page === 0 ? undefined : { path, children, replies };
    const value = reply.value as { entries?: unknown; next_cursor?: unknown };
    if (!Array.isArray(value.entries)) break;
    children.push(...value.entries.filter(isSampleEntry));
    cursor = typeof value.next_cursor === "string" ? value.next_cursor : undefined;
    if (cursor === undefined) break;
  }
  return { path, children, replies };
}

function isSampleEntry(value: unknown): value is SampleEntry {
  const entry = value as Partial<SampleEntry> | null;
  return typeof entry?.path === "string" && typeof entry.type === "string" && typeof entry.size === "number";
}

/** The first small UTF-8 file with a word of five or more letters; the word is its longest one, the rarest guess. */
async function searchSample(client: AfiClient, files: readonly SampleEntry[]): Promise<SearchSample | undefined> {
  // Files below the root first, so that a subtree can scope the search to them.
  const small = files.filter((file) => file.size > 0 && file.size <= MAX_SEARCH_FILE);
  const nested = (file: SampleEntry): number => (file.path.lastIndexOf("/") > 0 ? 0 : 1);
  const candidates = small.sort((a, b) => nested(a) - nested(b)).slice(0, SEARCH_CANDIDATES);
  for (const file of candidates) {
    const reply = await client.read(file.path);
    if (reply.kind !== "ok") continue;
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(reply.value.bytes);
    } catch {
      continue;
    }
    const lines = splitLines(text);
    const words = [...text.matchAll(/[A-Za-z][A-Za-z0-9_]{4,31}/g)].map((match) => match[0]);
    const word = words.reduce((longest, next) => (next.length > longest.length ? next : longest), "");
    if (word === "") continue;
    const line = lines.findIndex((candidate) => candidate.includes(word)) + 1;
    return { path: file.path, lines, word, line };
  }
  return undefined;
}

/** AFI's line split (AFI schemas/match, "line"): on `\n`, with `\r\n` one ending; a final newline adds no line. */
export function splitLines(text: string): string[] {
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
