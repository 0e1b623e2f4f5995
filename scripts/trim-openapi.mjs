// Trims an OpenAPI document to a few operations so a test can vendor a real spec small: it keeps the named
// operations, their path items' shared parameters, the components they reference (transitively), the tags
// they name, and the rest of the document's top level as it is; it adds `info.x-trimmed`, the notice a
// licence such as Apache 2.0 (§4) asks of a changed file. Output is minified JSON, as APIs.guru ships it.
//   node scripts/trim-openapi.mjs SPEC.json OUT.json "METHOD /path" ["METHOD /path" ...]
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const [source, out, ...wanted] = process.argv.slice(2);
if (source === undefined || out === undefined || wanted.length === 0) {
  console.error('usage: node scripts/trim-openapi.mjs SPEC.json OUT.json "METHOD /path" ["METHOD /path" ...]');
  process.exit(2);
}
const spec = JSON.parse(readFileSync(source, "utf8"));

/** The kept path items: each with its shared fields and only the wanted operations, in the source's order. */
function keptPaths() {
  const paths = {};
  for (const entry of wanted) {
    const [method, path] = entry.split(" ");
    const operation = spec.paths?.[path]?.[method.toLowerCase()];
    if (operation === undefined) throw new Error(`${basename(source)} has no operation ${entry}`);
    paths[path] ??= { parameters: spec.paths[path].parameters };
    paths[path][method.toLowerCase()] = operation;
  }
  const ordered = Object.keys(spec.paths).filter((path) => path in paths);
  return Object.fromEntries(ordered.map((path) => [path, JSON.parse(JSON.stringify(paths[path]))]));
}

/** Every local `$ref` reachable from `root`, following each referenced component in turn. */
function referenced(root) {
  const found = new Set();
  const visit = (value) => {
    if (typeof value !== "object" || value === null) return;
    const ref = value.$ref;
    if (typeof ref === "string" && ref.startsWith("#/") && !found.has(ref)) {
      found.add(ref);
      visit(
        ref
          .slice(2)
          .split("/")
          .reduce((node, key) => node?.[key.replaceAll("~1", "/").replaceAll("~0", "~")], spec),
      );
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(root);
  return found;
}

const paths = keptPaths();
const refs = referenced(paths);
const components = {};
for (const [kind, entries] of Object.entries(spec.components ?? {})) {
  const kept = Object.keys(entries).filter((name) => refs.has(`#/components/${kind}/${name}`));
  if (kept.length > 0) components[kind] = Object.fromEntries(kept.map((name) => [name, entries[name]]));
}
const tagNames = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => op?.tags ?? [])));
const notice =
  `Trimmed from ${basename(source)} by scripts/trim-openapi.mjs: only the operations ${wanted.join(", ")}, ` +
  "the components they reference and the tags they name are kept, unchanged; everything else was removed.";
const trimmed = {
  ...spec,
  info: { ...spec.info, "x-trimmed": notice },
  ...(spec.tags === undefined ? {} : { tags: spec.tags.filter(({ name }) => tagNames.has(name)) }),
  paths,
  components,
};
writeFileSync(out, JSON.stringify(trimmed));
console.log(
  `${out}: ${wanted.length} operations, ${refs.size} components, ${Buffer.byteLength(JSON.stringify(trimmed))} bytes`,
);
