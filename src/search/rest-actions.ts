import { stemOf } from "./abbreviations.js";

/**
 * What an HTTP operation does (docs/search.md, "HTTP methods answer verbs"):
 * POST creates, DELETE deletes, PUT and PATCH update, GET lists a collection
 * or gets one item (a path ending in a parameter).
 */
export type Action = "create" | "delete" | "update" | "list" | "get";

/** An operation's action, the last literal segment of its path (the thing acted on: "cards" in POST /cards), and how many segments the path has. */
export interface HttpAction {
  readonly action: Action;
  readonly object: string;
  readonly segments: number;
}

const METHODS: Readonly<Record<string, Action | "read">> = {
  GET: "read",
  POST: "create",
  DELETE: "delete",
  PUT: "update",
  PATCH: "update",
};

/** The action of the first capability note naming an HTTP method and path, if any. */
export function httpActionOf(capabilities: readonly string[]): HttpAction | undefined {
  for (const note of capabilities) {
    const found = noteAction(note);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A capability note ending in an HTTP method, a space and a path ("writes over
 * HTTP: POST /cards"). Any source may write one; the index reads only this
 * shape, not who wrote it. Read by hand from the end rather than by a regular
 * expression: every operation's notes pass through here when a catalog's index
 * is built.
 */
function noteAction(note: string): HttpAction | undefined {
  let end = note.length;
  while (end > 0 && note.charCodeAt(end - 1) <= SPACE) end -= 1;
  const pathStart = note.lastIndexOf(" ", end - 1) + 1;
  if (pathStart === 0 || note.charCodeAt(pathStart) !== SLASH) return undefined;
  const methodStart = Math.max(note.lastIndexOf(" ", pathStart - 2), note.lastIndexOf(":", pathStart - 2)) + 1;
  const method = METHODS[note.slice(methodStart, pathStart - 1)];
  if (method === undefined) return undefined;
  const path = note.slice(pathStart, end);
  const query = path.search(/[?#]/);
  const segments = (query === -1 ? path : path.slice(0, query)).split("/").filter((segment) => segment !== "");
  const last = segments.at(-1);
  const object = segments.findLast((segment) => !isParameter(segment)) ?? "";
  const action = method !== "read" ? method : last !== undefined && isParameter(last) ? "get" : "list";
  return { action, object, segments: segments.length };
}

const SPACE = 0x20;
const SLASH = 0x2f;

/** A path parameter, in OpenAPI's `{id}` or Express's `:id` spelling. */
function isParameter(segment: string): boolean {
  return segment.startsWith("{") || segment.startsWith(":");
}

/** The words of a query that ask for each action, in any English form ("created", "deleting", "lists"). */
const VERBS: Readonly<Record<Action, readonly string[]>> = {
  create: ["create", "add", "new", "post", "make"],
  delete: ["remove", "delete", "destroy"],
  update: ["change", "edit", "update", "rename", "modify"],
  list: ["list", "all"],
  get: ["get", "show", "read", "fetch", "retrieve"],
};
/** Matched as written, not by stem: "settings" stems to "set" but asks for no change. */
const EXACT_VERBS: ReadonlyMap<string, Action> = new Map([
  ["set", "update"],
  ["sets", "update"],
]);
const VERB_STEMS: ReadonlyMap<string, Action> = new Map(
  Object.entries(VERBS).flatMap(([action, verbs]) => verbs.map((verb) => [stemOf(verb), action as Action] as const)),
);

/** The action a query word asks for, given the word and its index term. */
export function queryActionOf(word: string, term: string): Action | undefined {
  return EXACT_VERBS.get(word) ?? VERB_STEMS.get(term);
}

/**
 * Index terms no text can produce (the splitter never yields a control
 * character): one per action, and one per action and thing acted on, so
 * "create a card" meets POST /cards more than POST /cards/{id}/labels.
 */
export function actionTerm(action: Action): string {
  return `${EVIDENCE}${action}`;
}

export function actionObjectTerm(action: Action, objectTerm: string): string {
  return `${EVIDENCE}${action}${EVIDENCE}${objectTerm}`;
}

const EVIDENCE = "\u0001";

/** Whether a term is evidence of an action rather than a word: its weight does not shrink in a long document. */
export function isActionTerm(term: string): boolean {
  return term.startsWith(EVIDENCE);
}
