#!/usr/bin/env node
// The static baseline of scripts/bench/http/run.mjs: serve-handler (the engine of Vercel's `serve`)
// on Node's http, serving one directory on 127.0.0.1 with directory listings (JSON when asked with
// Accept: application/json). Prints "static at <url>" once listening; ends on SIGTERM.
//
//   node scripts/bench/http/static-server.mjs <directory> [port]
import { createServer } from "node:http";
import handler from "serve-handler";

const [directory, port = "0"] = process.argv.slice(2);
if (directory === undefined) throw new Error("usage: static-server.mjs <directory> [port]");
const server = createServer((request, response) => handler(request, response, { public: directory }));
server.listen(Number(port), "127.0.0.1", () => {
  process.stdout.write(`static at http://127.0.0.1:${server.address().port}/\n`);
});
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
