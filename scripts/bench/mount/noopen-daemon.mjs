// The "forage, noOpen" variant of the mount benchmark (run.mjs): the same tree as
// `forage mount <source> <mountpoint>`, loaded by the CLI's own code, but mounted with
// mountTree(..., { noOpen: true }), the library-only mode in which the kernel opens files
// itself (docs/native.md, "The no-open trade-off"). The CLI has no flag for it.
//
//   node scripts/bench/mount/noopen-daemon.mjs <source.mjs> <mountpoint>
//
// It serves until SIGINT/SIGTERM, an unmount from outside, or stdin closing (so it cannot
// outlive a benchmark runner that died).
import { loadRevision } from "../../../dist/cli/catalog-tree-source.js";
import { parseMountArguments } from "../../../dist/cli/mount-arguments.js";
import { mountTree } from "../../../dist/fuse/index.js";

const args = parseMountArguments(process.argv.slice(2));
const revision = await loadRevision(args);
const handle = await mountTree(revision.tree, args.target, { noOpen: true, debug: args.debug });
process.stdout.write(`forage (noOpen): mounted ${revision.operationCount} operations at ${handle.mountpoint}\n`);
process.stdin.on("end", () => void handle.unmount());
process.stdin.on("error", () => void handle.unmount());
process.stdin.resume();
await handle.closed;
process.stdin.destroy();
