import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

/**
 * The yaml library, loaded when first asked for rather than when a module that may need it is:
 * most sources are JSON, and loading yaml was about 35 ms of every mount's start. It is the
 * module an `import` of "yaml" gives (the package is CommonJS, so both load the one copy).
 */
export function yaml(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return loaded;
}
