import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_SEARCH_REQUEST_BYTES } from "../tree/content-search/search-session.js";
import { MANIFEST_PATH } from "./afi-core.js";
import { AfiError, type AfiErrorCode, afiError, toAfiError } from "./afi-error.js";
import { followLinks } from "./follow-links.js";
import { RateLimit } from "./rate-limit.js";
import type { AfiCore } from "./types.js";

/** How `forage serve --http` listens. */
export interface AfiHttpOptions {
  readonly host: string;
  readonly port: number;
  /** Allowed browser origin, or `*`; no CORS headers without it. */
  readonly cors: string | undefined;
  /** Requests a second per client address; unlimited without it. */
  readonly ratePerSecond: number | undefined;
}

/**
 * The core a request's bearer token selects (`--tokens`): the token's view, or a
 * locked core for a missing (undefined) or unknown token.
 */
export type AfiViewSelector = (bearer: string | undefined) => AfiCore;

/** A listening server. */
export interface AfiHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** AFI's HTTP status of each error code (AFI basic/errors, "HTTP"). */
const STATUS: Readonly<Record<AfiErrorCode, number>> = {
  not_found: 404,
  invalid_path: 404,
  unauthorized: 401,
  unsupported: 405,
  rate_limited: 429,
  conflict: 409,
  internal: 500,
};

const ROUTES: Readonly<Record<string, string>> = {
  "/": "GET",
  [MANIFEST_PATH]: "GET",
  "/afi/stat": "GET",
  "/afi/list": "GET",
  "/afi/read": "GET",
  "/afi/search": "POST",
};

/** What `GET /` answers: what the server offers, for a person or a client that arrives at the root. */
const SERVER_INDEX = {
  provider: "forage",
  about: "Forage's catalog of operations as a read-only file tree, over AFI's HTTP/JSON binding",
  manifest: MANIFEST_PATH,
  start: "/afi/read?path=/README.md",
  endpoints: [
    { method: "GET", path: MANIFEST_PATH, answers: "the AFI manifest: profile, capabilities, search modes, limits" },
    { method: "GET", path: "/afi/stat?path=P", answers: "the Entry of path P" },
    { method: "GET", path: "/afi/list?path=P[&limit=N&cursor=C&glob=G]", answers: "a directory's Entries, paged" },
    {
      method: "GET",
      path: "/afi/read?path=P[&offset=N&length=N][&follow=1]",
      answers: "a file's bytes (a Range header works too); follow=1 reads a symlink's target, e.g. a ranked entry",
    },
    {
      method: "POST",
      path: "/afi/search",
      answers: 'lines matching {"query": "text" or {"regex": "..."}, "opts": {"path": "/", "limit": N}}',
    },
  ],
} as const;

/**
 * Listens on host:port with AFI's HTTP/JSON binding (docs/afi.md, "HTTP transport"):
 * one core for everyone, or a selector that picks each request's by its token.
 */
export async function listenHttp(afi: AfiCore | AfiViewSelector, options: AfiHttpOptions): Promise<AfiHttpServer> {
  const handle = createAfiHttpHandler(afi, options);
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendError(response, toAfiError(error)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The request handler: routes, CORS, the rate limit, and every failure as a JSON AFI Error. */
export function createAfiHttpHandler(
  served: AfiCore | AfiViewSelector,
  options: Pick<AfiHttpOptions, "cors" | "ratePerSecond">,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const limit = options.ratePerSecond === undefined ? undefined : new RateLimit(options.ratePerSecond);
  return async (request, response) => {
    if (options.cors !== undefined) corsHeaders(response, options.cors, request.headers.origin);
    // Prefixed, not resolved: a request target such as `//host/afi/stat` stays a path and matches no route.
    const url = new URL(`http://afi.invalid${request.url ?? "/"}`);
    const method = ROUTES[url.pathname];
    if (request.method === "OPTIONS" && options.cors !== undefined && method !== undefined) {
      response.writeHead(204, { "Access-Control-Max-Age": "600" }).end();
      return;
    }
    const wait = limit?.take(request.socket.remoteAddress ?? "");
    if (wait !== undefined && wait > 0) {
      response.setHeader("Retry-After", String(wait));
      const message = `more than ${options.ratePerSecond} requests a second from this address; retry later`;
      sendError(response, new AfiError({ code: "rate_limited", message, retry_after: wait }));
      return;
    }
    if (method === undefined) throw afiError("not_found", "no such endpoint", url.pathname);
    if (request.method !== method) {
      response.setHeader("Allow", method);
      throw afiError("unsupported", `${url.pathname} takes ${method}`);
    }
    // Only a server with tokens reads Authorization; one without answers everyone alike.
    const afi = typeof served === "function" ? served(bearerToken(request.headers.authorization)) : served;
    const query = url.searchParams;
    switch (url.pathname) {
      case "/":
        sendJson(response, SERVER_INDEX);
        break;
      case MANIFEST_PATH:
        sendJson(response, afi.manifest());
        break;
      case "/afi/stat":
        sendJson(response, afi.stat(query.get("path") ?? undefined));
        break;
      case "/afi/list":
        sendJson(
          response,
          afi.list(query.get("path") ?? undefined, {
            limit: integer(query, "limit"),
            cursor: query.get("cursor") ?? undefined,
            glob: query.get("glob") ?? undefined,
          }),
        );
        break;
      case "/afi/read":
        sendRead(afi, query, request.headers.range, response);
        break;
      default: {
        const body = await jsonBody(request);
        const opts = (body.opts ?? body) as { path?: string; limit?: number; cursor?: string };
        sendJson(response, await afi.search(body.query, { path: opts.path, limit: opts.limit, cursor: opts.cursor }));
      }
    }
  };
}

/**
 * The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 7235);
 * undefined without the header; "" for any other value, which no grant matches.
 */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? "";
}

function corsHeaders(response: ServerResponse, allowed: string, origin: string | undefined): void {
  response.setHeader("Vary", "Origin");
  if (allowed !== "*" && origin !== allowed) return;
  response.setHeader("Access-Control-Allow-Origin", allowed);
  response.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  response.setHeader("Access-Control-Allow-Headers", "Content-Type, Range, Authorization");
  response.setHeader("Access-Control-Expose-Headers", "Content-Range, Accept-Ranges, Retry-After, X-AFI-EOF");
}

/**
 * `read`: the bytes as the body, typed from content_type. A `Range` header
 * (one `bytes=` range) or `offset`/`length` asks for part: 206 with
 * Content-Range when the part is less than the file, 200 for the whole.
 */
function sendRead(afi: AfiCore, query: URLSearchParams, range: string | undefined, response: ServerResponse): void {
  const asked = query.get("path") ?? undefined;
  const path = query.get("follow") === "1" ? followLinks(afi, asked) : asked;
  const size = afi.stat(path).size;
  const part = range === undefined ? undefined : parseRange(range, size);
  if (part === "unsatisfiable") {
    response.setHeader("Content-Range", `bytes */${size}`);
    response.statusCode = 416;
    sendJsonBody(response, { code: "invalid_path", message: `the range is outside the file's ${size} bytes`, path });
    return;
  }
  const read = afi.read(path, part ?? { offset: integer(query, "offset"), length: integer(query, "length") });
  const partial = read.offset > 0 || !read.eof;
  response.setHeader("Accept-Ranges", "bytes");
  response.setHeader("Content-Type", read.content_type);
  response.setHeader("X-AFI-EOF", String(read.eof));
  if (partial && read.bytes.length > 0) {
    response.statusCode = 206;
    response.setHeader("Content-Range", `bytes ${read.offset}-${read.offset + read.bytes.length - 1}/${read.size}`);
  } else if (partial) response.setHeader("Content-Range", `bytes */${read.size}`);
  response.end(read.bytes);
}

/** One `bytes=` range as offset and length; anything else (several ranges, other units) is ignored, as HTTP allows. */
function parseRange(header: string, size: number): { offset: number; length?: number } | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null || (match[1] === "" && match[2] === "")) return undefined;
  const [first, last] = [
    match[1] === "" ? undefined : Number(match[1]),
    match[2] === "" ? undefined : Number(match[2]),
  ];
  if (first === undefined) {
    const suffix = Math.min(last as number, size);
    return suffix === 0 ? "unsatisfiable" : { offset: size - suffix, length: suffix };
  }
  if (first >= size || (last !== undefined && last < first)) return "unsatisfiable";
  return last === undefined ? { offset: first } : { offset: first, length: last - first + 1 };
}

function integer(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw afiError("invalid_path", `${name} must be a non-negative integer`);
  return Number(value);
}

/** The JSON body of a POST, at most as large as a search request may be. */
async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_SEARCH_REQUEST_BYTES)
      throw afiError("invalid_path", `a search request is at most ${MAX_SEARCH_REQUEST_BYTES} bytes`);
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw afiError("invalid_path", "the search request is not JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw afiError("invalid_path", 'the search request is an object: {"query": ..., "opts": {...}}');
  return body as Record<string, unknown>;
}

function sendJson(response: ServerResponse, value: unknown): void {
  response.statusCode = 200;
  sendJsonBody(response, value);
}

function sendJsonBody(response: ServerResponse, value: unknown): void {
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify(value));
}

function sendError(response: ServerResponse, error: AfiError): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.statusCode = STATUS[error.payload.code] ?? 500;
  // RFC 6750: a 401 names the scheme, and says when a token was sent but is not valid.
  if (error.payload.code === "unauthorized")
    response.setHeader(
      "WWW-Authenticate",
      error.payload["x-forage-reason"] === "invalid_token"
        ? 'Bearer realm="forage", error="invalid_token"'
        : 'Bearer realm="forage"',
    );
  sendJsonBody(response, error.payload);
}
