/**
 * The three kinds of open file of a mount (docs/native.md, "The control file"
 * and "Which operations reach JS"):
 *
 * - a file opened through JS (fh > 0): it keeps the bytes it opened, shared
 *   by every open of the same inode in this revision, until its last release;
 * - a control file's handle (fh > 0): one ControlSession per open;
 * - a plain file the addon opened itself (fh 0): no open or release reaches
 *   JS, so its bytes are taken from the tree once and let go once the end of
 *   the file was served; the kernel's page cache keeps them from then on.
 */
import type { ControlSession } from "../tree/virtual-tree.js";

interface Content {
  readonly bytes: Uint8Array;
  opens: number;
}

/** What a JS file handle (fh > 0) names. */
export type OpenFile =
  | { readonly kind: "file"; readonly ino: number; readonly content: Content }
  | { readonly kind: "control"; readonly ino: number; readonly session: ControlSession };

export class OpenFiles {
  readonly #handles = new Map<number, OpenFile>();
  /** The bytes of files opened through JS, by inode, shared by their opens. */
  readonly #contents = new Map<number, Content>();
  /** Bytes of files being read without a JS handle (fh 0), until their end is served. */
  readonly #reading = new Map<number, Uint8Array>();
  #nextFh = 1;

  /** The open file a handle names; undefined for fh 0 and for handles already released. */
  get(fh: number): OpenFile | undefined {
    return fh ? this.#handles.get(fh) : undefined;
  }

  /** The control session of a handle, if it is a control file's. */
  controlSession(fh: number): ControlSession | undefined {
    const open = this.get(fh);
    return open?.kind === "control" ? open.session : undefined;
  }

  /** A new handle on a file's bytes; `read` renders them when no open of this revision holds them yet. */
  openFile(ino: number, read: () => Uint8Array): number {
    let content = this.#contents.get(ino);
    if (!content) {
      content = { bytes: read(), opens: 0 };
      this.#contents.set(ino, content);
    }
    content.opens++;
    return this.#add({ kind: "file", ino, content });
  }

  /** A new handle on a control session. */
  openControl(ino: number, session: ControlSession): number {
    return this.#add({ kind: "control", ino, session });
  }

  /** Releases a handle: ends its control session, or lets go of its bytes once no open holds them. */
  close(fh: number): void {
    const open = this.#handles.get(fh);
    this.#handles.delete(fh);
    if (open?.kind === "control") open.session.close();
    if (open?.kind !== "file") return;
    open.content.opens--;
    if (open.content.opens === 0 && this.#contents.get(open.ino) === open.content) this.#contents.delete(open.ino);
  }

  /** `size` bytes at `offset` of a file the addon opened (fh 0); `read` renders them when not held. */
  readPlain(ino: number, size: number, offset: number, read: () => Uint8Array): Uint8Array {
    const bytes = this.#reading.get(ino) ?? read();
    if (offset + size >= bytes.length) this.#reading.delete(ino);
    else this.#reading.set(ino, bytes);
    return bytes.subarray(offset, offset + size);
  }

  /** The kernel forgot an inode: no read without a handle will follow. */
  forget(ino: number): void {
    this.#reading.delete(ino);
  }

  /** A new revision is served: opens from now on take its bytes; open handles keep theirs. */
  newRevision(): void {
    this.#contents.clear();
    this.#reading.clear();
  }

  #add(open: OpenFile): number {
    const fh = this.#nextFh++;
    this.#handles.set(fh, open);
    return fh;
  }
}
