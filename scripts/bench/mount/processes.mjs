// Timed shell commands, process exits and daemon memory.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { pinned } from "./config.mjs";

/** Runs a shell command with cwd; resolves to { ms, stdout }. Any stderr output is a failure. */
export function runTimed(command, cwd) {
  return new Promise((resolvePromise, reject) => {
    let stdout = "";
    let stderr = "";
    let exitAt = 0;
    const start = performance.now();
    const child = spawn(...pinned("sh", ["-c", command]), { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", () => (exitAt = performance.now()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 || stderr !== "")
        reject(new Error(`\`${command}\` in ${cwd} failed (exit ${code}): ${stderr.slice(0, 500)}`));
      else resolvePromise({ ms: exitAt - start, stdout: stdout.trim() });
    });
  });
}

/** Resolves true once child has exited, false after ms. */
export function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** VmRSS and VmHWM of a process, in kB. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
}
