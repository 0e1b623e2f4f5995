#!/usr/bin/env node
/**
 * Builds the FUSE addon, native/build/Release/forage_fuse.node.
 *
 * This is the package's npm `install` script, so it must never fail an
 * install: without libfuse3's headers it prints what to install and exits 0,
 * and a failed build prints a clear line and exits 0 as well. The library
 * works without the addon; only `forage mount` needs it.
 *
 * Node built-ins only: bootstrap.mjs imports it before node_modules exist.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
export const nativeDir = join(packageRoot, "native");
export const addonPath = join(nativeDir, "build", "Release", "forage_fuse.node");
export const FUSE_PACKAGES_HINT = "apt-get install fuse3 libfuse3-dev";

/** True when pkg-config knows fuse3 (the -dev package is installed). */
export function hasLibfuse3Headers() {
  const result = spawnSync("pkg-config", ["--exists", "fuse3"], { stdio: "ignore" });
  return !result.error && result.status === 0;
}

/** How to run node-gyp: npm's own (npm_config_node_gyp), else the one in our node_modules. */
function nodeGypCommand() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return [process.execPath, fromNpm];
  try {
    const script = createRequire(join(packageRoot, "package.json")).resolve("node-gyp/bin/node-gyp.js");
    return [process.execPath, script];
  } catch {
    const bin = join(packageRoot, "node_modules", ".bin", "node-gyp");
    return existsSync(bin) ? [bin] : undefined;
  }
}

/**
 * Node's headers: npm passes npm_config_nodedir; run by hand, use the
 * headers installed next to this node binary when there are some, so that
 * node-gyp never has to download them.
 */
function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [];
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, "include", "node", "common.gypi")) ? [`--nodedir=${prefix}`] : [];
}

/** Builds the addon. Returns { ok, reason } and never throws. */
export function buildNativeAddon({ quiet = true } = {}) {
  if (!hasLibfuse3Headers()) {
    return { ok: false, reason: `libfuse3 headers not found; forage mount needs: ${FUSE_PACKAGES_HINT}` };
  }
  const nodeGyp = nodeGypCommand();
  if (!nodeGyp) return { ok: false, reason: "node-gyp not found (npm install first)" };
  const [command, ...prefixArgs] = nodeGyp;
  const args = [...prefixArgs, "rebuild", "--directory", nativeDir, ...nodedirArgs()];
  const result = spawnSync(command, args, { cwd: packageRoot, encoding: "utf8", stdio: quiet ? "pipe" : "inherit" });
  if (result.status === 0 && existsSync(addonPath)) return { ok: true };
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-5).join("\n");
  const reason = result.error ? result.error.message : `node-gyp exited with ${result.status}`;
  return { ok: false, reason: output ? `${reason}\n${output}` : reason };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ok, reason } = buildNativeAddon({ quiet: true });
  if (ok) console.log(`forage: built the FUSE addon (${addonPath})`);
  else console.log(`forage: FUSE addon not built, forage mount is unavailable: ${reason}`);
  process.exit(0);
}
