/** Where a command writes: injectable so commands stay testable without a terminal. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process's streams whose reader went away; nothing more is written to them. */
const gone = new WeakSet<NodeJS.WriteStream>();

/**
 * A closed output is no crash (docs/cli.md, "Output to a closed pipe"): `forage … | head -1` closes
 * stdout after one line, and the write that follows fails with EPIPE as an "error" event, which,
 * unheard, would kill the process (and a mount daemon with it). The command's work and exit code
 * stay as they were; only the rest of its output is dropped.
 */
function keepQuietWhenClosed(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  stream.on("error", () => gone.add(stream));
  return stream;
}

const stdout = keepQuietWhenClosed(process.stdout);
const stderr = keepQuietWhenClosed(process.stderr);

/** Writes `text` unless the stream's reader has gone. */
function write(stream: NodeJS.WriteStream, text: string): void {
  if (!gone.has(stream)) stream.write(text);
}

/** The process's own streams. */
export const processIo: CommandIo = {
  stdout: (text) => write(stdout, text),
  stderr: (text) => write(stderr, text),
};
