import type { Forage } from "../catalog/types.js";
import { afiError } from "./afi-error.js";
import type { AfiCore } from "./types.js";

/** Why a caller holds no view: it sent no token, or one the tokens file does not grant. */
export type LockReason = "missing_token" | "invalid_token";

const MESSAGES: Readonly<Record<LockReason, string>> = {
  missing_token: "this provider requires a bearer token (the manifest's auth.required) and none was given",
  invalid_token: "the bearer token is not one this provider grants",
};

/**
 * The manifest anyone may read when tokens are required: the AFI fields, which are
 * the same for every token's view, without the `x-forage-*` facts of one view (its
 * operation count, stamp, revision, sources), which are for its token's holder.
 */
export function publicManifest(manifest: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(manifest).filter(([key]) => !key.startsWith("x-forage-")));
}

/** The AFI core of a caller without a valid token: the public manifest, and `unauthorized` for everything else. */
export function lockedAfiCore(manifest: Readonly<Record<string, unknown>>, reason: LockReason): AfiCore {
  const refuse = (path?: unknown): never => {
    throw unauthorized(reason, typeof path === "string" ? path : undefined);
  };
  return {
    manifest: () => manifest,
    stat: refuse,
    list: refuse,
    read: refuse,
    search: async () => refuse(),
  };
}

/** Forage's discovery for a caller without a valid token: every call is AFI's `unauthorized`. */
export function lockedForage(reason: LockReason): Forage {
  const refuse = (): never => {
    throw unauthorized(reason);
  };
  return { list: refuse, search: refuse, describe: refuse };
}

function unauthorized(reason: LockReason, path?: string) {
  return afiError("unauthorized", MESSAGES[reason], path, { "x-forage-reason": reason });
}
