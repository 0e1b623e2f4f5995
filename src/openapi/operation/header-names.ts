/** RFC 9110 §5.6.2 token: the only legal header field name syntax. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Why a header is excluded from guest input. */
export type ReservedHeaderKind = "transport" | "forwarding" | "credential" | "method-override";

// The transport owns framing, routing and content negotiation of the request it builds.
const TRANSPORT = [
  "host",
  "content-length",
  "content-type",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "accept",
  "accept-encoding",
  "http2-settings",
];
// Forwarding headers let a caller lie about the client or the route.
const FORWARDING = [
  "forwarded",
  "via",
  "x-real-ip",
  "x-client-ip",
  "client-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "x-cluster-client-ip",
  "x-original-url",
  "x-rewrite-url",
  "x-original-host",
  "x-host",
  "x-forwarded",
];
// Credentials belong to the execution owner, never to guest input.
const CREDENTIAL = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "apikey",
  "x-auth-token",
  "x-access-token",
  "x-csrf-token",
  "x-xsrf-token",
  "x-amz-security-token",
];
// Method overrides would turn a declared read into a write.
const METHOD_OVERRIDE = ["x-http-method-override", "x-http-method", "x-method-override"];

const RESERVED: ReadonlyMap<string, ReservedHeaderKind> = new Map([
  ...TRANSPORT.map((name) => [name, "transport"] as const),
  ...FORWARDING.map((name) => [name, "forwarding"] as const),
  ...CREDENTIAL.map((name) => [name, "credential"] as const),
  ...METHOD_OVERRIDE.map((name) => [name, "method-override"] as const),
]);

/** True when `name` is an RFC 9110 token. */
export function isHeaderToken(name: string): boolean {
  return TOKEN.test(name);
}

/** The reason a header name can never be guest input, or undefined when it can be. Case-insensitive. */
export function reservedHeaderKind(name: string): ReservedHeaderKind | undefined {
  const lower = name.toLowerCase();
  if (lower.startsWith("x-forwarded-")) return "forwarding";
  if (lower.startsWith("proxy-")) return "transport";
  return RESERVED.get(lower);
}
