// docs/catalog.md, "Narrowed views" (a host that narrows a
// guest's bound operations filters the existing summaries before paging and leaks no unbound path)
// and docs/afi.md, "Cloaking".
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createCatalog, createForage } from "../src/index.js";
import { variedOperations } from "./fixtures/varied-catalog.js";
import { forageErrorOf, listAll } from "./helpers/forage-assertions.js";

const catalog = createCatalog({ revision: "r", operations: variedOperations });
const bound = ["computers.local.files.read", "computers.local.files.list", "mail.messages.*", "weather.**"];
const guest = createForage(catalog, { bound });
const visible = variedOperations
  .map((operation) => operation.path)
  .filter(
    (path) =>
      path.startsWith("computers.local.files.read") ||
      path === "computers.local.files.list" ||
      path.startsWith("mail.messages.") ||
      path.startsWith("weather."),
  );
const hidden = variedOperations.map((operation) => operation.path).filter((path) => !visible.includes(path));

describe("host narrowing", () => {
  test("list pages only bound operations, with totals counting only them", () => {
    expect(listAll(guest, { limit: 3 }).map((summary) => summary.path)).toEqual([...visible].sort());
    expect(guest.list().total).toBe(visible.length);
    expect(guest.list({ namespace: "computers" }).total).toBe(2);
    expect(guest.list({ namespace: "computers.local.processes" })).toMatchObject({
      total: 0,
      results: [],
      nextCursor: null,
    });
  });

  test("summaries are the catalog's own", () => {
    const fromCatalog = listAll(catalog, { limit: 3 }).find((summary) => summary.path === "mail.messages.send");
    expect(listAll(guest, { limit: 3 }).find((summary) => summary.path === "mail.messages.send")).toEqual(fromCatalog);
  });

  test("search never returns an unbound path, not even as a peer", () => {
    for (const query of [
      "delete file",
      "kill process",
      "shell command",
      "send email",
      "weather",
      "open window checkout",
      "run",
    ]) {
      for (const result of guest.search(query, { limit: 50 }).results) {
        expect(visible).toContain(result.path);
        for (const peer of result.peers ?? []) expect(visible).toContain(peer);
      }
    }
    expect(guest.search("kill a process").results.map((result) => result.path)).not.toContain(
      "computers.local.processes.kill",
    );
    expect(catalog.search("kill a process").results[0]!.path).toBe("computers.local.processes.kill");
  });

  test("describing an unbound path gives not_found, exactly as an unknown path does", () => {
    const unknown = forageErrorOf(() => guest.describe("computers.local.files.nope"));
    for (const path of hidden) {
      const error = forageErrorOf(() => guest.describe(path));
      expect(error.code).toBe(unknown.code);
      expect(error.message).toBe(unknown.message.replace("computers.local.files.nope", path));
    }
    expect(forageErrorOf(() => guest.describe("apps")).code).toBe("not_found");
    expect(forageErrorOf(() => guest.describe("computers.local", { select: ["processes.kill"] })).code).toBe(
      "not_found",
    );
  });

  test("a namespace description declares only bound operations", () => {
    const description = guest.describe("computers");
    expect(description.kind).toBe("namespace");
    expect(description.typescript).toContain("files$read_Input");
    expect(description.typescript).not.toContain("files$write");
    expect(description.typescript).not.toContain("processes");
  });

  test("peers are filtered by the binding", () => {
    const twins = createCatalog({
      revision: "r",
      operations: ["a.one", "a.two", "b.three"].map((path) => ({
        path,
        input: z.object({ q: z.string() }),
        description: "Look up a word.",
      })),
    });
    expect(twins.search("word").results[0]!.peers).toEqual(["a.two", "b.three"]);
    expect(createForage(twins, { bound: ["a.one", "b.three"] }).search("word").results[0]!.peers).toEqual(["b.three"]);
  });

  test("ranking and stamps depend only on bound operations, never on unbound ones", () => {
    const mail = [
      { path: "mail.send", input: z.object({ to: z.string() }), description: "Send an email message." },
      { path: "mail.calendar_sync", input: z.object({}), description: "Sync the calendar." },
      { path: "mail.read", input: z.object({ id: z.string() }), description: "Read an email." },
    ];
    const hidden = Array.from({ length: 28 }, (_, index) => ({
      path: `admin.calibrate${index}`,
      input: z.object({}),
      description: `Calibrate the email send relay ${index}.`,
    }));
    const alone = createForage(createCatalog({ revision: "r", operations: mail }), { bound: ["mail.**"] });
    const crowded = createForage(createCatalog({ revision: "r", operations: [...mail, ...hidden] }), {
      bound: ["mail.**"],
    });
    for (const query of ["cal", "send email", "read", "sync calendar"]) {
      expect(crowded.search(query).results).toEqual(alone.search(query).results);
    }
    expect(crowded.list().catalogStamp).toBe(alone.list().catalogStamp);
    expect(crowded.describe("mail.send")).toEqual(alone.describe("mail.send"));
    expect(crowded.describe("mail")).toEqual(alone.describe("mail"));
    const changedHidden = createForage(createCatalog({ revision: "r", operations: [...mail, ...hidden.slice(1)] }), {
      bound: ["mail.**"],
    });
    expect(changedHidden.list().catalogStamp).toBe(crowded.list().catalogStamp);
  });

  test("a bad bound pattern is invalid_argument", () => {
    expect(forageErrorOf(() => createForage(catalog, { bound: ["a.**.b"] })).code).toBe("invalid_argument");
    expect(forageErrorOf(() => createForage(catalog, { bound: ["mail.send("] })).code).toBe("invalid_argument");
    expect(forageErrorOf(() => createForage(catalog, { bound: ["mail"] })).code).toBe("invalid_argument");
    expect(forageErrorOf(() => createForage(catalog, { bound: "mail.*" as unknown as string[] })).code).toBe(
      "invalid_argument",
    );
  });
});
