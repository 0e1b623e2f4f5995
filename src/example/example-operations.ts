import { z } from "zod";
import type { OperationDefinition } from "../catalog/types.js";

/**
 * The built-in example catalog: a realistic host with several namespaces,
 * nesting three and four deep, bounded inputs, optional outputs and
 * capability notes. `forage mount --example` serves it.
 */

const absolutePath = z.string().min(1).max(4_096).describe("Absolute POSIX path on the local machine.");
const pageLimit = z.number().int().min(1).max(100).default(25).describe("Most items to return.");
const pageCursor = z.string().max(512).optional().describe("Cursor from a previous page.");
const isoDate = z.string().max(40).describe("RFC 3339 date-time.");
const money = z.object({
  amount: z.number().int().min(0).describe("Amount in minor units (cents)."),
  currency: z.enum(["USD", "EUR", "GBP", "JPY"]),
});

const files: OperationDefinition[] = [
  {
    path: "computers.local.files.read",
    description: "Read a text file and return its contents.",
    input: z.object({
      path: absolutePath,
      encoding: z.enum(["utf8", "base64"]).default("utf8"),
      maxBytes: z.number().int().min(1).max(1_048_576).optional(),
    }),
    output: z.object({ text: z.string(), truncated: z.boolean() }),
    capabilities: ["reads the local disk"],
    instructions: "Prefer computers.local.files.list first to find the exact path.",
  },
  {
    path: "computers.local.files.write",
    description: "Write text to a file, creating it when missing.",
    input: z.object({ path: absolutePath, text: z.string().max(1_048_576), append: z.boolean().default(false) }),
    output: z.object({ bytesWritten: z.number().int().min(0) }),
    capabilities: ["writes the local disk"],
  },
  {
    path: "computers.local.files.list",
    description: "List the entries of a directory, one page at a time.",
    input: z.object({
      directory: absolutePath,
      limit: pageLimit,
      cursor: pageCursor,
      includeHidden: z.boolean().default(false),
    }),
    output: z.object({
      entries: z
        .array(
          z.object({ name: z.string(), kind: z.enum(["file", "directory", "symlink"]), size: z.number().int().min(0) }),
        )
        .max(100),
      nextCursor: z.string().nullable(),
    }),
    capabilities: ["reads the local disk"],
  },
  {
    path: "computers.local.files.delete",
    description: "Delete a file. Directories are refused.",
    input: z.object({ path: absolutePath }),
    capabilities: ["writes the local disk", "irreversible"],
    instructions: "Ask the user to confirm before deleting.",
  },
  {
    path: "computers.local.files.search",
    description: "Find files whose names or contents contain a text.",
    input: z.object({
      root: absolutePath,
      text: z.string().min(1).max(256).describe("Text to look for."),
      inContents: z.boolean().default(false),
      limit: pageLimit,
    }),
    output: z.object({
      matches: z.array(z.object({ path: z.string(), line: z.number().int().min(1).optional() })).max(100),
    }),
    capabilities: ["reads the local disk"],
  },
  {
    path: "computers.local.processes.list",
    description: "List running processes with their CPU and memory use.",
    input: z.object({ sortBy: z.enum(["cpu", "memory", "pid"]).default("cpu"), limit: pageLimit }),
    output: z.object({
      processes: z.array(
        z.object({
          pid: z.number().int(),
          command: z.string(),
          cpuPercent: z.number().min(0),
          rssBytes: z.number().int().min(0),
        }),
      ),
    }),
    capabilities: ["reads process table"],
  },
  {
    path: "computers.local.processes.kill",
    description: "Send a signal to a process.",
    input: z.object({
      pid: z.number().int().min(1),
      signal: z.enum(["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP"]).default("SIGTERM"),
    }),
    capabilities: ["signals processes", "irreversible"],
    instructions: "Send SIGTERM first; use SIGKILL only when the process ignores it.",
  },
  {
    path: "computers.local.shell.run",
    description: "Run a shell command and capture its output.",
    input: z.object({
      command: z.string().min(1).max(8_192),
      cwd: absolutePath.optional(),
      timeoutSeconds: z.number().int().min(1).max(600).default(30),
      env: z.record(z.string(), z.string()).optional(),
    }),
    output: z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() }),
    capabilities: ["executes programs", "reads and writes the local disk"],
    instructions: "Explain the command to the user before running anything destructive.",
  },
  {
    path: "computers.remote.ssh.exec",
    description: "Run a command on a remote host over SSH.",
    input: z.object({
      host: z.string().min(1).max(253),
      user: z.string().max(32).optional(),
      command: z.string().min(1).max(8_192),
    }),
    output: z.object({ exitCode: z.number().int(), stdout: z.string() }),
    capabilities: ["executes programs remotely", "uses network"],
  },
];

const bazaar: OperationDefinition[] = [
  {
    path: "apps.bazaar.windows.open",
    description: "Open a product window in the Bazaar app.",
    input: z.object({ productId: z.string().min(1).max(64), focus: z.boolean().default(true) }),
    output: z.object({ windowId: z.string() }),
    capabilities: ["controls the Bazaar app window"],
  },
  {
    path: "apps.bazaar.windows.close",
    description: "Close a Bazaar window.",
    input: z.object({ windowId: z.string().min(1).max(64) }),
    capabilities: ["controls the Bazaar app window"],
  },
  {
    path: "apps.bazaar.catalog.search",
    description: "Search the Bazaar marketplace for products by keyword, with price filters.",
    input: z.object({
      query: z.string().min(1).max(200),
      minPrice: money.optional(),
      maxPrice: money.optional(),
      tags: z.array(z.string().max(32)).max(10).optional(),
      limit: pageLimit,
    }),
    output: z.object({ products: z.array(z.object({ id: z.string(), title: z.string(), price: money })) }),
    capabilities: ["reads the marketplace"],
  },
  {
    path: "apps.bazaar.cart.add",
    description: "Add a product to the shopping cart.",
    input: z.object({ productId: z.string().min(1).max(64), quantity: z.number().int().min(1).max(99).default(1) }),
    output: z.object({ cartSize: z.number().int().min(0) }),
    capabilities: ["changes the shopping cart"],
  },
  {
    path: "apps.bazaar.cart.checkout",
    description: "Buy everything in the cart with the saved payment method.",
    input: z.object({
      confirm: z.literal(true).describe("Must be true: the user confirmed the purchase."),
      shippingAddressId: z.string().max(64),
    }),
    output: z.object({ orderId: z.string(), total: money }),
    capabilities: ["spends money", "irreversible"],
    instructions: "Show the cart total to the user and get explicit confirmation first.",
  },
  {
    path: "apps.notes.pages.create",
    description: "Create a note page with a title and Markdown body.",
    input: z.object({
      title: z.string().min(1).max(200),
      body: z.string().max(100_000),
      folder: z.string().max(200).optional(),
    }),
    output: z.object({ pageId: z.string() }),
    capabilities: ["writes notes"],
  },
  {
    path: "apps.notes.pages.find",
    description: "Find note pages by words in their title or body.",
    input: z.object({ text: z.string().min(1).max(200), limit: pageLimit }),
    output: z.object({ pages: z.array(z.object({ pageId: z.string(), title: z.string() })) }),
    capabilities: ["reads notes"],
  },
];

const mail: OperationDefinition[] = [
  {
    path: "mail.messages.send",
    description: "Send an email message.",
    input: z.object({
      to: z.array(z.string().max(320)).min(1).max(50).describe("Recipient addresses."),
      cc: z.array(z.string().max(320)).max(50).optional(),
      subject: z.string().max(998),
      body: z.string().max(1_000_000),
      attachments: z
        .array(z.object({ filename: z.string().max(255), contentBase64: z.string() }))
        .max(10)
        .optional(),
    }),
    output: z.object({ messageId: z.string() }),
    capabilities: ["sends email on the user's behalf"],
    instructions: "Confirm recipients with the user before sending.",
  },
  {
    path: "mail.messages.search",
    description: "Search the mailbox for messages matching sender, subject words or a date range.",
    input: z.object({
      from: z.string().max(320).optional(),
      subjectContains: z.string().max(200).optional(),
      after: isoDate.optional(),
      before: isoDate.optional(),
      unreadOnly: z.boolean().default(false),
      limit: pageLimit,
    }),
    output: z.object({
      messages: z.array(z.object({ id: z.string(), from: z.string(), subject: z.string(), receivedAt: z.string() })),
    }),
    capabilities: ["reads email"],
  },
  {
    path: "mail.messages.read",
    description: "Read one email message with its body.",
    input: z.object({ messageId: z.string().min(1).max(256) }),
    output: z.object({ from: z.string(), to: z.array(z.string()), subject: z.string(), body: z.string() }),
    capabilities: ["reads email"],
  },
  {
    path: "mail.messages.archive",
    description: "Move messages out of the inbox into the archive.",
    input: z.object({ messageIds: z.array(z.string().max(256)).min(1).max(100) }),
    capabilities: ["changes the mailbox"],
  },
  {
    path: "mail.drafts.create",
    description: "Save an email draft without sending it.",
    input: z.object({
      to: z.array(z.string().max(320)).max(50),
      subject: z.string().max(998),
      body: z.string().max(1_000_000),
    }),
    output: z.object({ draftId: z.string() }),
    capabilities: ["changes the mailbox"],
  },
];

const calendar: OperationDefinition[] = [
  {
    path: "calendar.events.create",
    description: "Schedule a calendar event and invite attendees.",
    input: z.object({
      title: z.string().min(1).max(200),
      start: isoDate,
      end: isoDate,
      attendees: z.array(z.string().max(320)).max(100).default([]),
      location: z.string().max(500).optional(),
      reminderMinutes: z.number().int().min(0).max(40_320).optional(),
    }),
    output: z.object({ eventId: z.string() }),
    capabilities: ["changes the calendar", "sends invitations"],
  },
  {
    path: "calendar.events.list",
    description: "List calendar events between two dates.",
    input: z.object({ from: isoDate, to: isoDate, calendarId: z.string().max(128).optional(), limit: pageLimit }),
    output: z.object({
      events: z.array(z.object({ eventId: z.string(), title: z.string(), start: z.string(), end: z.string() })),
    }),
    capabilities: ["reads the calendar"],
  },
  {
    path: "calendar.events.cancel",
    description: "Cancel an event and notify its attendees.",
    input: z.object({ eventId: z.string().min(1).max(256), message: z.string().max(2_000).optional() }),
    capabilities: ["changes the calendar", "sends notifications"],
  },
  {
    path: "calendar.availability.find",
    description: "Find free time slots shared by several people for a meeting.",
    input: z.object({
      people: z.array(z.string().max(320)).min(1).max(20),
      durationMinutes: z.number().int().min(5).max(480),
      within: z.object({ from: isoDate, to: isoDate }),
    }),
    output: z.object({ slots: z.array(z.object({ start: z.string(), end: z.string() })).max(50) }),
    capabilities: ["reads the calendar"],
  },
];

const code: OperationDefinition[] = [
  {
    path: "github.repos.issues.create",
    description: "Open a new issue in a GitHub repository.",
    input: z.object({
      owner: z.string().min(1).max(39),
      repo: z.string().min(1).max(100),
      title: z.string().min(1).max(256),
      body: z.string().max(65_536).optional(),
      labels: z.array(z.string().max(50)).max(20).optional(),
    }),
    output: z.object({ number: z.number().int().min(1), url: z.string() }),
    capabilities: ["writes to GitHub", "uses network"],
  },
  {
    path: "github.repos.issues.list",
    description: "List issues of a repository, filtered by state and labels.",
    input: z.object({
      owner: z.string().min(1).max(39),
      repo: z.string().min(1).max(100),
      state: z.enum(["open", "closed", "all"]).default("open"),
      labels: z.array(z.string().max(50)).max(20).optional(),
      limit: pageLimit,
    }),
    output: z.object({
      issues: z.array(z.object({ number: z.number().int(), title: z.string(), state: z.enum(["open", "closed"]) })),
    }),
    capabilities: ["reads GitHub", "uses network"],
  },
  {
    path: "github.repos.issues.comment",
    description: "Comment on an issue or pull request.",
    input: z.object({
      owner: z.string().min(1).max(39),
      repo: z.string().min(1).max(100),
      number: z.number().int().min(1),
      body: z.string().min(1).max(65_536),
    }),
    capabilities: ["writes to GitHub", "uses network"],
  },
  {
    path: "github.repos.pulls.merge",
    description: "Merge a pull request.",
    input: z.object({
      owner: z.string().min(1).max(39),
      repo: z.string().min(1).max(100),
      number: z.number().int().min(1),
      method: z.enum(["merge", "squash", "rebase"]).default("merge"),
    }),
    output: z.object({ merged: z.boolean(), sha: z.string().optional() }),
    capabilities: ["writes to GitHub", "irreversible"],
    instructions: "Check that required reviews and checks passed before merging.",
  },
  {
    path: "github.repos.contents.get",
    description: "Get a file's contents from a repository at a branch or commit.",
    input: z.object({
      owner: z.string().min(1).max(39),
      repo: z.string().min(1).max(100),
      path: z.string().max(4_096),
      ref: z.string().max(256).optional(),
    }),
    output: z.object({ content: z.string(), sha: z.string() }),
    capabilities: ["reads GitHub", "uses network"],
  },
];

const services: OperationDefinition[] = [
  {
    path: "weather.forecast.daily",
    description: "Get the daily weather forecast for a place: temperatures, rain and wind.",
    input: z.object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      days: z.number().int().min(1).max(16).default(7),
      units: z.enum(["metric", "imperial"]).default("metric"),
    }),
    output: z.object({
      days: z
        .array(z.object({ date: z.string(), minTemp: z.number(), maxTemp: z.number(), rainMm: z.number().min(0) }))
        .max(16),
    }),
    capabilities: ["uses network"],
  },
  {
    path: "weather.forecast.hourly",
    description: "Get the hourly weather forecast for the next hours.",
    input: z.object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      hours: z.number().int().min(1).max(168).default(24),
    }),
    capabilities: ["uses network"],
  },
  {
    path: "weather.air_quality.current",
    description: "Current air quality index and pollutant levels near a place.",
    input: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }),
    output: z.object({ aqi: z.number().int().min(0).max(500), dominantPollutant: z.string().nullable() }),
    capabilities: ["uses network"],
  },
  {
    path: "maps.places.search",
    description: "Search for places, shops and addresses near a location.",
    input: z.object({
      text: z.string().min(1).max(200),
      near: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).optional(),
      radiusMeters: z.number().int().min(1).max(50_000).default(5_000),
    }),
    output: z.object({
      places: z.array(z.object({ placeId: z.string(), name: z.string(), address: z.string() })).max(50),
    }),
    capabilities: ["uses network"],
  },
  {
    path: "maps.routes.directions",
    description: "Get driving, walking or transit directions between two places.",
    input: z.object({
      fromPlaceId: z.string().max(256),
      toPlaceId: z.string().max(256),
      mode: z.enum(["driving", "walking", "transit", "cycling"]).default("driving"),
    }),
    output: z.object({
      distanceMeters: z.number().min(0),
      durationSeconds: z.number().min(0),
      steps: z.array(z.string()),
    }),
    capabilities: ["uses network"],
  },
  {
    path: "payments.invoices.create",
    description: "Create and send an invoice to a customer.",
    input: z.object({
      customerId: z.string().max(64),
      lines: z
        .array(
          z.object({
            description: z.string().max(500),
            unitPrice: money,
            quantity: z.number().int().min(1).max(10_000),
          }),
        )
        .min(1)
        .max(250),
      dueDays: z.number().int().min(0).max(365).default(30),
    }),
    output: z.object({ invoiceId: z.string(), total: money }),
    capabilities: ["charges customers", "sends email"],
    instructions: "Double-check amounts: invoices are sent immediately.",
  },
  {
    path: "payments.invoices.list",
    description: "List invoices by status.",
    input: z.object({
      status: z.enum(["draft", "open", "paid", "void"]).optional(),
      customerId: z.string().max(64).optional(),
      limit: pageLimit,
      cursor: pageCursor,
    }),
    output: z.object({
      invoices: z.array(z.object({ invoiceId: z.string(), status: z.string(), total: money })),
      nextCursor: z.string().nullable(),
    }),
    capabilities: ["reads billing data"],
  },
  {
    path: "payments.refunds.create",
    description: "Refund a payment, fully or in part.",
    input: z.object({
      paymentId: z.string().max(64),
      amount: money.optional().describe("Omit for a full refund."),
      reason: z.enum(["duplicate", "fraudulent", "requested_by_customer"]).optional(),
    }),
    output: z.object({ refundId: z.string(), status: z.enum(["pending", "succeeded", "failed"]) }),
    capabilities: ["moves money", "irreversible"],
    instructions: "Only refund when the user asked for it explicitly.",
  },
  {
    path: "translate.text.translate",
    description: "Translate text from one language to another.",
    input: z.object({
      text: z.string().min(1).max(50_000),
      targetLanguage: z.string().min(2).max(8).describe("BCP 47 language tag, e.g. fr or pt-BR."),
      sourceLanguage: z.string().min(2).max(8).optional(),
    }),
    output: z.object({ translated: z.string(), detectedSourceLanguage: z.string().optional() }),
    capabilities: ["uses network"],
  },
  {
    path: "translate.text.detect_language",
    description: "Detect the language of a text.",
    input: z.object({ text: z.string().min(1).max(5_000) }),
    output: z.object({ language: z.string(), confidence: z.number().min(0).max(1) }),
    capabilities: ["uses network"],
  },
];

/** Every operation of the example catalog. */
export const exampleOperations: readonly OperationDefinition[] = [
  ...files,
  ...bazaar,
  ...mail,
  ...calendar,
  ...code,
  ...services,
];
