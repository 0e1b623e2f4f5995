import { Buffer } from "node:buffer";
import type { ReadValue, Reply } from "./afi-client.js";
import type { SampleEntry } from "./provider-sample.js";
import { type CheckContext, expectCode, fail, okValue, type Scenario } from "./scenario.js";
import { missingPath } from "./stat-list-scenarios.js";

/** Files read whole; larger ones may be capped per read by the provider, as AFI allows. */
const MAX_WHOLE_READ = 1024 * 1024;
const MAX_FILES = 5;

function smallFiles(context: CheckContext, least = 0): SampleEntry[] {
  return context.sample.files.filter((file) => file.size >= least && file.size <= MAX_WHOLE_READ).slice(0, MAX_FILES);
}

async function whole(context: CheckContext, file: SampleEntry): Promise<{ reply: Reply<ReadValue>; value: ReadValue }> {
  const reply = await context.client.read(file.path);
  return { reply, value: okValue(reply, `the bytes of ${file.path}`) };
}

/** The media type of a Content-Type, without parameters: HTTP may add `; charset=`. */
function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0]?.trim().toLowerCase();
}

/** read (AFI operations/read). */
export const READ_SCENARIOS: readonly Scenario[] = [
  {
    id: "read-01",
    group: "read",
    title: "a whole-file read is stat's size in bytes, with eof true",
    level: 1,
    run: async (context) => {
      const files = smallFiles(context);
      if (files.length === 0) return { skip: "the walk found no file of at most 1 MiB" };
      for (const file of files) {
        const { reply, value } = await whole(context, file);
        if (value.bytes.length !== file.size || !value.eof)
          fail(`${file.path}: ${value.bytes.length} bytes, eof ${value.eof}; its Entry says ${file.size} bytes`, reply);
      }
      return "pass";
    },
  },
  {
    id: "read-02",
    group: "read",
    title: "offset and length read exactly that slice, with eof false before the end",
    level: 1,
    run: async (context) => {
      const [file] = smallFiles(context, 3);
      if (file === undefined) return { skip: "the walk found no file of 3 bytes to 1 MiB" };
      const { value } = await whole(context, file);
      const reply = await context.client.read(file.path, { offset: 1, length: file.size - 2 });
      const slice = okValue(reply, "the slice");
      if (!Buffer.from(slice.bytes).equals(Buffer.from(value.bytes.subarray(1, file.size - 1))))
        fail(`bytes 1 to ${file.size - 2} of ${file.path} differ from the whole read's`, reply);
      if (slice.eof) fail("eof is true for a range that stops before the last byte", reply);
      return "pass";
    },
  },
  {
    id: "read-03",
    group: "read",
    title: "an offset past the end is empty bytes with eof true, not an error",
    level: 1,
    run: async (context) => {
      const [file] = smallFiles(context);
      if (file === undefined) return { skip: "the walk found no file of at most 1 MiB" };
      const reply = await context.client.read(file.path, { offset: file.size + 10 });
      const value = okValue(reply, "empty bytes");
      if (value.bytes.length !== 0 || !value.eof)
        fail(`${value.bytes.length} bytes, eof ${value.eof} past the end of ${file.path}`, reply);
      return "pass";
    },
  },
  {
    id: "read-04",
    group: "read",
    title: "read's content_type is stat's",
    level: 1,
    only: { transports: ["http", "mcp"], because: "FUSE has no content_type" },
    run: async (context) => {
      for (const file of smallFiles(context)) {
        const { reply, value } = await whole(context, file);
        if (mediaType(value.content_type) !== mediaType(file.content_type))
          fail(`${file.path}: read says ${value.content_type}, stat ${file.content_type}`, reply);
      }
      return "pass";
    },
  },
  {
    id: "read-05",
    group: "read",
    title: "reading a directory is invalid_path",
    level: 1,
    run: async ({ client, sample }) => {
      const directory =
        sample.directories.find((candidate) => candidate.path !== "/" && !candidate.path.includes("/.")) ??
        sample.directories[0];
      expectCode(await client.read(directory?.path ?? "/"), "invalid_path");
      return "pass";
    },
  },
  {
    id: "read-06",
    group: "read",
    title: "reading a symlink is invalid_path",
    level: 1,
    only: { transports: ["http", "mcp"], because: "over FUSE the kernel follows a symlink that is opened" },
    run: async ({ client, sample }) => {
      const [link] = sample.symlinks;
      if (link === undefined) return { skip: "the walk found no symlink" };
      expectCode(await client.read(link.path), "invalid_path");
      return "pass";
    },
  },
  {
    id: "read-07",
    group: "read",
    title: "length 0 is empty bytes, eof saying whether offset is the end",
    level: 1,
    only: { transports: ["mcp"], because: "the transport carries no eof of the provider's own" },
    run: async (context) => {
      const [file] = smallFiles(context, 1);
      if (file === undefined) return { skip: "the walk found no file of 1 byte to 1 MiB" };
      for (const [offset, eof] of [
        [0, false],
        [file.size, true],
      ] as const) {
        const reply = await context.client.read(file.path, { offset, length: 0 });
        const value = okValue(reply, "empty bytes");
        if (value.bytes.length !== 0 || value.eof !== eof)
          fail(`${value.bytes.length} bytes, eof ${value.eof} at offset ${offset} of ${file.size}`, reply);
      }
      return "pass";
    },
  },
  {
    id: "read-08",
    group: "read",
    title: "reading a path that does not exist is not_found",
    level: 1,
    run: async (context) => {
      expectCode(await context.client.read(missingPath(context)), "not_found");
      return "pass";
    },
  },
];
