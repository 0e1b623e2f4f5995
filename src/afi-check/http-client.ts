import {
  type AfiClient,
  evidenceJson,
  evidenceText,
  type ListOptions,
  type ReadOptions,
  type ReadValue,
  type Reply,
  type SearchOptions,
  TargetError,
} from "./afi-client.js";

/** AFI's HTTP status of each error code (AFI basic/errors, "HTTP"). */
const STATUS: Readonly<Record<string, number>> = {
  not_found: 404,
  invalid_path: 404,
  unauthorized: 401,
  unsupported: 405,
  rate_limited: 429,
  conflict: 409,
  internal: 500,
};

/** How the HTTP client talks to its provider. */
export interface HttpClientOptions {
  readonly timeoutMs: number;
  /** Sent as `Authorization: Bearer <token>` when given. */
  readonly token?: string;
}

/**
 * An AFI client over the HTTP/JSON binding (AFI transports/http) at `base`.
 * Throws a TargetError when `base` is not an http(s) URL.
 */
export function httpClient(base: string, options: HttpClientOptions): AfiClient {
  let root: URL;
  try {
    root = new URL(base.endsWith("/") ? base : `${base}/`);
  } catch {
    throw new TargetError(`${base} is not a URL`);
  }
  if (root.protocol !== "http:" && root.protocol !== "https:")
    throw new TargetError(`${base} is not an http: or https: URL`);
  const headers: Record<string, string> =
    options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  const url = (route: string, query: Record<string, string | number | undefined> = {}): URL => {
    const address = new URL(route.replace(/^\//, ""), root);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) address.searchParams.set(name, String(value));
    return address;
  };
  const json = (address: URL, init: RequestInit = {}, body = ""): Promise<Reply> =>
    exchange(address, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } }, body, options);
  return {
    transport: "http",
    target: root.toString(),
    features: { rawPaths: true, contentType: true, paging: true, providerEof: false },
    manifest: () => json(url("/.afi/manifest.json")),
    stat: (path) => json(url("/afi/stat", { path })),
    list: (path, opts: ListOptions = {}) => json(url("/afi/list", { path, ...opts })),
    read: (path, opts: ReadOptions = {}) => readRange(url("/afi/read", { path, ...opts }), opts, headers, options),
    search: (query, opts: SearchOptions = {}) => {
      const body = JSON.stringify({ query, opts });
      return json(
        url("/afi/search"),
        { method: "POST", body, headers: { "content-type": "application/json" } },
        ` ${evidenceText(body)}`,
      );
    },
    close: async () => undefined,
  };
}

interface Fetched {
  readonly response: Response;
  readonly body: Uint8Array;
  readonly sent: string;
}

/** One request within the timeout; a refused connection or a timeout is a broken reply. */
async function fetched(
  address: URL,
  init: RequestInit,
  bodyEvidence: string,
  options: HttpClientOptions,
): Promise<Fetched | Reply<never>> {
  const sent = `${init.method ?? "GET"} ${address.pathname}${address.search}${bodyEvidence}`;
  try {
    const response = await fetch(address, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    return { response, body: new Uint8Array(await response.arrayBuffer()), sent };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${options.timeoutMs} ms`
        : `the request failed: ${describeFetchFailure(error)}`;
    return { kind: "broken", reason, unreachable: true, sent, got: "(nothing)" };
  }
}

/** fetch hides the system error (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describeFetchFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code !== undefined) return cause.code;
  return error instanceof Error ? (cause?.message ?? error.message) : String(error);
}

async function exchange(
  address: URL,
  init: RequestInit,
  bodyEvidence: string,
  options: HttpClientOptions,
): Promise<Reply> {
  const answer = await fetched(address, init, bodyEvidence, options);
  if ("kind" in answer) return answer;
  const { response, body, sent } = answer;
  const text = new TextDecoder().decode(body);
  const got = `${response.status} ${evidenceText(text)}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (response.ok) return { kind: "broken", reason: "the body is not JSON", sent, got };
    return { kind: "error", error: text, signal: "the error body is not JSON", sent, got };
  }
  if (response.ok) return { kind: "ok", value, sent, got };
  return errorReply(response, value, sent, got);
}

/** An error answer, with what its status and headers get wrong against its code. */
function errorReply(response: Response, error: unknown, sent: string, got: string): Reply<never> {
  const code = (error as { code?: unknown } | null)?.code;
  const expected = typeof code === "string" ? STATUS[code] : undefined;
  const problems: string[] = [];
  if (expected !== undefined && expected !== response.status)
    problems.push(`status ${response.status}, not ${expected} for ${code}`);
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json"))
    problems.push(`Content-Type ${response.headers.get("content-type") ?? "(none)"}, not application/json`);
  if (code === "rate_limited") {
    const header = response.headers.get("retry-after");
    const retry = (error as { retry_after?: unknown }).retry_after;
    if (header === null || Number(header) !== retry)
      problems.push(`Retry-After ${header ?? "(none)"} does not match retry_after ${String(retry)}`);
  }
  return {
    kind: "error",
    error,
    ...(problems.length === 0 ? {} : { signal: problems.join("; ") }),
    sent,
    got,
  };
}

/**
 * `read`: the raw body, typed by Content-Type. The binding carries no `eof`:
 * it comes from `X-AFI-EOF` when the provider sends it, else from
 * Content-Range, else a 200 is the rest of the file. A range that came back
 * partial must be a 206 with Content-Range and Accept-Ranges.
 */
async function readRange(
  address: URL,
  range: ReadOptions,
  headers: Record<string, string>,
  options: HttpClientOptions,
): Promise<Reply<ReadValue>> {
  const answer = await fetched(address, { headers }, "", options);
  if ("kind" in answer) return answer;
  const { response, body, sent } = answer;
  const contentRange = response.headers.get("content-range");
  const got = `${response.status} ${body.length} bytes, Content-Type ${response.headers.get("content-type") ?? "(none)"}, Content-Range ${contentRange ?? "(none)"}`;
  if (!response.ok) {
    const text = new TextDecoder().decode(body);
    let error: unknown = text;
    try {
      error = JSON.parse(text);
    } catch {
      return {
        kind: "error",
        error,
        signal: "the error body is not JSON",
        sent,
        got: `${response.status} ${evidenceText(text)}`,
      };
    }
    return errorReply(response, error, sent, `${response.status} ${evidenceJson(error)}`);
  }
  const eof = readEof(response, contentRange, body.length);
  const asked = range.offset !== undefined || range.length !== undefined;
  if (asked && response.status === 206) {
    const problems = [
      contentRange === null || !/^bytes \d+-\d+\/\d+$/.test(contentRange) ? "no Content-Range: bytes a-b/size" : "",
      response.headers.get("accept-ranges") === "bytes" ? "" : "no Accept-Ranges: bytes",
    ].filter((problem) => problem !== "");
    if (problems.length > 0) return { kind: "broken", reason: `a 206 with ${problems.join(" and ")}`, sent, got };
  }
  const contentType = response.headers.get("content-type");
  return {
    kind: "ok",
    value: { bytes: body, ...(contentType === null ? {} : { content_type: contentType }), eof },
    sent,
    got,
  };
}

function readEof(response: Response, contentRange: string | null, length: number): boolean {
  const header = response.headers.get("x-afi-eof");
  if (header === "true" || header === "false") return header === "true";
  const span = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange ?? "");
  if (span !== null) return Number(span[2]) + 1 >= Number(span[3]);
  return response.status === 200 || length === 0;
}
