import { posix } from "node:path";
import { errorSchema, schemaProblem } from "./afi-schemas.js";
import { type CheckContext, errorCode, expectCode, fail, okValue, type Scenario, type Verdict } from "./scenario.js";

const NO_HIDDEN: Verdict = { skip: "no --hidden path given: the kit cannot know what the token may not see" };

/** Most --hidden paths checked, so the option cannot make the run unbounded. */
const MAX_HIDDEN = 10;

function hiddenPaths(context: CheckContext): readonly string[] {
  return context.hidden.slice(0, MAX_HIDDEN);
}

/** Access control (AFI basic/access-control): tokens and the cloaking rule. */
export const ACCESS_SCENARIOS: readonly Scenario[] = [
  {
    id: "access-01",
    group: "Access control",
    title: "without a token, an auth-required provider answers unauthorized",
    level: 0,
    only: { transports: ["http"], because: "only HTTP carries a token per request" },
    run: async ({ manifest, anonymous, sample }) => {
      if (!manifest.auth.required) return { skip: "not declared: auth.required is false" };
      if (anonymous === undefined) return { skip: "no --token given to compare with" };
      const path = sample.files[0]?.path ?? "/";
      expectCode(await anonymous.stat(path), "unauthorized");
      return "pass";
    },
  },
  {
    id: "access-02",
    group: "Access control",
    title: "a path outside the token's view is not_found, never unauthorized",
    level: 0,
    run: async (context) => {
      if (context.hidden.length === 0) return NO_HIDDEN;
      for (const path of hiddenPaths(context)) {
        expectCode(await context.client.stat(path), "not_found");
        if (context.manifest.capabilities.includes("read")) expectCode(await context.client.read(path), "not_found");
      }
      return "pass";
    },
  },
  {
    id: "access-03",
    group: "Access control",
    title: "entries outside the token's view are omitted from list",
    level: 0,
    run: async (context) => {
      if (context.hidden.length === 0) return NO_HIDDEN;
      for (const path of hiddenPaths(context)) {
        const parent = posix.dirname(path);
        const reply = await context.client.list(parent);
        if (reply.kind === "error" && errorCode(reply) === "not_found") continue;
        const { entries } = okValue(reply, `the children of ${parent}`) as { entries?: { path?: unknown }[] };
        if ((entries ?? []).some((entry) => entry.path === path)) fail(`${parent} lists ${path}`, reply);
      }
      return "pass";
    },
  },
  {
    id: "access-04",
    group: "Access control",
    title: "matches outside the token's view are omitted from search",
    level: 2,
    run: async (context) => {
      if (context.hidden.length === 0) return NO_HIDDEN;
      for (const path of hiddenPaths(context)) {
        expectCode(await context.client.search("a", { path }), "not_found");
        const parent = posix.dirname(path);
        const reply = await context.client.search(posix.basename(path).slice(0, 1) || "a", { path: parent });
        if (reply.kind === "error" && errorCode(reply) === "not_found") continue;
        const { matches } = okValue(reply, `matches under ${parent}`) as { matches?: { path?: unknown }[] };
        const leak = (matches ?? []).find(
          (match) => typeof match.path === "string" && (match.path === path || match.path.startsWith(`${path}/`)),
        );
        if (leak !== undefined) fail(`a match in ${String(leak.path)}, outside the view`, reply);
      }
      return "pass";
    },
  },
];

/** Errors (AFI basic/errors): every error answer of the run, checked once it is over. */
export const ERROR_SCENARIOS: readonly Scenario[] = [
  {
    id: "errors-01",
    group: "Errors",
    title: "every error is the structured Error, signalled as the transport maps it",
    level: 0,
    run: async ({ errors }) => {
      if (errors.length === 0) return { skip: "no error answer came during the run" };
      for (const reply of errors) {
        if (reply.kind !== "error") continue;
        const problem = schemaProblem(errorSchema, reply.error);
        if (problem !== undefined) fail(`an error that is not the structured Error: ${problem}`, reply);
        if (reply.signal !== undefined) fail(reply.signal, reply);
      }
      return "pass";
    },
  },
  {
    id: "errors-02",
    group: "Errors",
    title: "rate_limited errors carry retry_after",
    level: 0,
    run: async ({ errors }) => {
      const limited = errors.filter((reply) => errorCode(reply) === "rate_limited");
      if (limited.length === 0) return { skip: "no rate_limited answer came during the run" };
      for (const reply of limited) {
        const retry = reply.kind === "error" ? (reply.error as { retry_after?: unknown }).retry_after : undefined;
        if (typeof retry !== "number" || retry < 0) fail("a rate_limited error without retry_after", reply);
        if (reply.kind === "error" && reply.signal !== undefined) fail(reply.signal, reply);
      }
      return "pass";
    },
  },
];
