// One way for tests to run `forage serve` over HTTP as a real process: start it, learn its URL from
// the line it prints, stop it with SIGTERM (docs/cli.md, "Serve").
import { type ChildProcess, spawn } from "node:child_process";
import { CLI } from "./mount-daemon.js";

/** A running `forage serve` and the URL it said it serves at. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
}

/**
 * Starts `forage serve <args>` (which must listen on HTTP: `--http`, or `--mcp --http`) and
 * resolves with the URL of its "over … at URL" line; rejects with its output if it exits first.
 */
export async function startServe(args: readonly string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /^forage: serving .* at (http:\/\/\S+)$/m.exec(output);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`forage serve exited with ${code}: ${output}`)));
  });
  return { url, child };
}

/** Stops a `forage serve` with SIGTERM and waits for it to exit; nothing for one already gone. */
export async function stopServe(served: ServeProcess | undefined): Promise<void> {
  if (served === undefined || served.child.exitCode !== null) return;
  const exited = new Promise((resolve) => served.child.once("exit", resolve));
  served.child.kill("SIGTERM");
  await exited;
}
