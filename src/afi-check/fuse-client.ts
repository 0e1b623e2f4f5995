import { type FileHandle, lstat, open, readdir, readFile, readlink } from "node:fs/promises";
import { posix } from "node:path";
import {
  type AfiClient,
  evidenceJson,
  evidenceText,
  type ReadValue,
  type Reply,
  type SearchOptions,
  withTimeout,
} from "./afi-client.js";

/** AFI's errno of each code (AFI basic/errors, "FUSE"), read backwards. */
const CODES: Readonly<Record<string, string>> = {
  ENOENT: "not_found",
  EINVAL: "invalid_path",
  ENOSYS: "unsupported",
  EACCES: "unauthorized",
  EAGAIN: "rate_limited",
  EEXIST: "conflict",
  EIO: "internal",
  // The kernel's own refusals of a path of the wrong kind or length, before the provider is asked.
  ENOTDIR: "invalid_path",
  EISDIR: "invalid_path",
  ENAMETOOLONG: "invalid_path",
};

/** Most bytes one read or one search answer takes in, so a broken provider cannot fill memory. */
const MAX_BYTES = 16 * 1024 * 1024;
/** Most children of one directory the kit stats. */
const MAX_LIST = 10_000;

/** Where AFI's FUSE binding puts search (AFI transports/fuse, "Search over FUSE"). */
const CONTROL_FILE = "/.afi/search";

/**
 * An AFI client over a FUSE mount (AFI transports/fuse): node:fs calls on
 * `mountpoint`, errno read back as AFI's code, search through the control
 * file. The kernel resolves paths before the provider sees them, and FUSE has
 * no content_type, paging or glob: the features say so.
 */
export function fuseClient(mountpoint: string, options: { readonly timeoutMs: number }): AfiClient {
  const local = (path: string): string => `${mountpoint}${path === "/" ? "" : path}`;
  const bounded = <T>(sent: string, work: () => Promise<Reply<T>>): Promise<Reply<T>> =>
    withTimeout(
      work().catch((error: unknown) => errnoReply(error, sent)),
      options.timeoutMs,
      sent,
    );
  const entry = async (path: string) => {
    const info = await lstat(local(path));
    const type = info.isDirectory() ? "directory" : info.isSymbolicLink() ? "symlink" : "file";
    const target = type === "symlink" ? linkTarget(path, await readlink(local(path)), mountpoint) : undefined;
    return {
      path,
      type,
      size: type === "file" ? info.size : 0,
      mtime: info.mtime.toISOString(),
      ctime: info.ctime.toISOString(),
      ...(target === undefined ? {} : { target }),
    };
  };
  return {
    transport: "fuse",
    target: mountpoint,
    features: { rawPaths: false, contentType: false, paging: false, providerEof: false },
    manifest: () =>
      bounded("cat /.afi/manifest.json", async () => {
        const text = await readFile(local("/.afi/manifest.json"), "utf8");
        const sent = "cat /.afi/manifest.json";
        try {
          return { kind: "ok", value: JSON.parse(text), sent, got: evidenceText(text) };
        } catch {
          return { kind: "broken", reason: "the manifest is not JSON", sent, got: evidenceText(text) };
        }
      }),
    stat: (path) =>
      bounded(`lstat ${path}`, async () => {
        const value = await entry(path);
        return { kind: "ok", value, sent: `lstat ${path}`, got: evidenceJson(value) };
      }),
    list: (path) =>
      bounded(`readdir ${path}`, async () => {
        const names = (await readdir(local(path))).slice(0, MAX_LIST);
        const entries = await Promise.all(names.map((name) => entry(posix.join(path, name))));
        return { kind: "ok", value: { entries }, sent: `readdir ${path}`, got: `${entries.length} entries` };
      }),
    read: (path, range = {}) => {
      const sent = `read ${path} offset ${range.offset ?? 0} length ${range.length ?? "(rest)"}`;
      return bounded(sent, () => readRange(local(path), range, sent));
    },
    search: (query, opts: SearchOptions = {}) => {
      const request = JSON.stringify({ query, opts });
      const sent = `write ${CONTROL_FILE} ${evidenceText(request)}; read it back`;
      return bounded(sent, () => searchControl(local(CONTROL_FILE), request, sent));
    },
    close: async () => undefined,
  };
}

async function readRange(
  file: string,
  range: { offset?: number; length?: number },
  sent: string,
): Promise<Reply<ReadValue>> {
  const handle = await open(file, "r");
  try {
    const size = (await handle.stat()).size;
    const offset = range.offset ?? 0;
    const length = Math.min(range.length ?? Math.max(size - offset, 0), MAX_BYTES);
    const bytes = await readAt(handle, offset, length);
    // A kernel read has no eof: it is where the bytes end against the size lstat reports.
    const value = { bytes, eof: offset + bytes.length >= size };
    return { kind: "ok", value, sent, got: `${bytes.length} bytes of ${size}` };
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Uint8Array> {
  // At least one read(2) is made, even for no bytes: it is what refuses a directory (EISDIR).
  const buffer = Buffer.alloc(Math.max(length, 1));
  let filled = 0;
  while (filled < length || filled === 0) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, offset + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return new Uint8Array(buffer.subarray(0, Math.min(filled, length)));
}

/** One search through the control file: the request written, the NDJSON answer read through the same handle. */
async function searchControl(file: string, request: string, sent: string): Promise<Reply> {
  const handle = await open(file, "r+");
  try {
    await handle.write(request, 0);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > MAX_BYTES)
        return { kind: "broken", reason: `the answer is over ${MAX_BYTES} bytes`, sent, got: `${total} bytes` };
    }
    const text = Buffer.concat(chunks).toString("utf8");
    const got = evidenceText(text);
    if (!text.endsWith("\n\n") && text !== "\n")
      return { kind: "broken", reason: "the answer does not end with an empty line", sent, got };
    try {
      const lines = text.slice(0, -1).split("\n").slice(0, -1);
      return { kind: "ok", value: { matches: lines.map((line) => JSON.parse(line)) }, sent, got };
    } catch {
      return { kind: "broken", reason: "a line of the answer is not JSON", sent, got };
    }
  } finally {
    await handle.close();
  }
}

/** A failed system call as the AFI error its errno stands for; an errno outside the mapping is flagged. */
function errnoReply(error: unknown, sent: string): Reply<never> {
  const errno = (error as NodeJS.ErrnoException).code ?? "";
  const code = CODES[errno];
  const message = error instanceof Error ? error.message : String(error);
  const got = `${errno || "error"}: ${evidenceText(message)}`;
  if (!/^E[A-Z0-9]+$/.test(errno)) return { kind: "broken", reason: message, sent, got };
  return {
    kind: "error",
    error: { code: code ?? `errno ${errno}`, message },
    ...(code === undefined ? { signal: `errno ${errno} is none of AFI's FUSE errnos` } : {}),
    sent,
    got,
  };
}

/** A symlink's target as an absolute AFI path; an absolute target into the mount is taken relative to it. */
function linkTarget(link: string, target: string, mountpoint: string): string {
  if (target.startsWith(`${mountpoint}/`)) return target.slice(mountpoint.length);
  if (target.startsWith("/")) return target;
  return posix.resolve(posix.dirname(link), target);
}
