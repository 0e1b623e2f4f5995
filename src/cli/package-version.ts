import { readFileSync } from "node:fs";

let cached: string | undefined;

/** This package's version, from its package.json (two levels above dist/cli and src/cli). */
export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
    .version;
  return cached;
}
