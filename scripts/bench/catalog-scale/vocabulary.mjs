// Word pools for synthetic operations: varied enough that descriptions differ and search has real work.

/** Top-level namespaces, each with its own resources, like the products of one host. */
export const NAMESPACES = {
  billing: ["invoices", "subscriptions", "coupons", "payouts", "refunds", "taxRates", "creditNotes", "priceBooks"],
  crm: ["contacts", "companies", "deals", "pipelines", "notes", "tasks", "leadScores", "territories"],
  storage: ["buckets", "objects", "volumes", "snapshots", "lifecyclePolicies", "accessKeys", "replicas"],
  compute: ["instances", "images", "clusters", "nodePools", "autoscalers", "sshKeys", "placementGroups"],
  mail: ["messages", "drafts", "threads", "labels", "filters", "mailboxes", "signatures", "autoReplies"],
  calendar: ["events", "calendars", "attendees", "rooms", "reminders", "availability", "bookingPages"],
  analytics: ["reports", "dashboards", "funnels", "cohorts", "segments", "metrics", "exports"],
  identity: ["users", "groups", "roles", "sessions", "apiTokens", "mfaDevices", "auditLogs"],
  media: ["videos", "images", "playlists", "captions", "thumbnails", "transcodes", "albums"],
  shipping: ["shipments", "labels", "carriers", "rates", "pickups", "returns", "customsForms"],
  inventory: ["products", "warehouses", "stockLevels", "suppliers", "purchaseOrders", "barcodes"],
  support: ["tickets", "macros", "slaPolicies", "satisfactionSurveys", "articles", "agents"],
  devops: ["pipelines", "deployments", "releases", "incidents", "alerts", "runbooks", "secrets"],
  maps: ["places", "routes", "geofences", "tiles", "elevation", "timezones", "trafficReports"],
  weather: ["forecasts", "observations", "radar", "airQuality", "warnings", "climateNormals"],
  chat: ["channels", "conversations", "reactions", "webhooks", "bots", "pins", "huddles"],
  docs: ["documents", "folders", "comments", "revisions", "templates", "permissions", "spreadsheets"],
  hr: ["employees", "payroll", "timeOff", "positions", "candidates", "interviews", "reviews"],
  search: ["indexes", "synonyms", "queries", "crawlers", "rankingRules", "suggestions"],
  iot: ["devices", "sensors", "firmware", "telemetry", "commands", "gateways", "shadows"],
};

/** Operation verbs, with the phrase a description opens with. */
export const VERBS = [
  ["list", "List"], ["get", "Fetch"], ["create", "Create"], ["update", "Update"], ["delete", "Delete"],
  ["search", "Search"], ["archive", "Archive"], ["restore", "Restore"], ["export", "Export"], ["import", "Import"],
  ["approve", "Approve"], ["cancel", "Cancel"], ["duplicate", "Duplicate"], ["merge", "Merge"], ["schedule", "Schedule"],
  ["validate", "Validate"], ["summarize", "Summarize"], ["sync", "Synchronize"], ["transfer", "Transfer"], ["tag", "Tag"],
  ["count", "Count"], ["preview", "Preview"], ["publish", "Publish"], ["lock", "Lock"], ["rotate", "Rotate"],
];

/** Leaf qualifiers that make paths like `listArchived` or `exportAsCsv`. */
export const QUALIFIERS = ["", "", "", "Batch", "Archived", "Recent", "ById", "AsCsv", "ForOwner", "Async", "Draft", "Bulk", "Shared", "Pending"];

export const ADJECTIVES = [
  "active", "archived", "recent", "shared", "pending", "failed", "overdue", "private", "public", "regional",
  "encrypted", "verified", "flagged", "duplicate", "expired", "scheduled", "primary", "external", "internal", "large",
];

/** Trailing clauses that give descriptions varied vocabulary. */
export const CLAUSES = [
  "across every region", "for the signed-in account", "with optional filters by date range", "including soft-deleted items",
  "and notify the owner by email", "without touching billing", "in pages of at most one hundred", "sorted by last modification",
  "that match a free-text query", "for compliance audits", "before the retention window ends", "using the tenant's default currency",
  "with idempotency protection", "in the background and return a job id", "for a single workspace", "as a CSV or JSON file",
  "grouped by owner and status", "with webhook delivery on completion", "for mobile and desktop clients", "within rate limits",
  "respecting access policies", "for the current billing period", "near a geographic coordinate", "in the caller's time zone",
];

export const NOTES = [
  "Changes are audited.", "Results may lag by up to a minute.", "Requires the admin role.", "Counts against the monthly quota.",
  "Large requests are processed asynchronously.", "Use the list operation first to find identifiers.", "Deleted items stay recoverable for 30 days.",
  "Times are in UTC unless a time zone is given.", "Send an idempotency key to retry safely.", "Not available on the free plan.",
];

export const CAPABILITIES = [
  "reads customer data", "writes customer data", "spends money", "sends email", "irreversible", "reads the network",
  "calls a third-party service", "changes permissions", "reads personal information", "starts background jobs",
];

/** Field names by kind, so schemas mix strings, numbers, enums, arrays and nested objects. */
export const FIELDS = {
  string: ["name", "title", "query", "ownerId", "email", "externalId", "notes", "locale", "region", "slug", "reason", "cursor", "color", "url"],
  number: ["limit", "offset", "amount", "quantity", "priority", "latitude", "longitude", "radiusMeters", "timeoutSeconds", "version", "score"],
  enum: ["status", "sortBy", "format", "visibility", "kind", "plan", "channel", "unit"],
  boolean: ["dryRun", "includeDeleted", "notify", "force", "recursive", "verbose"],
  array: ["tags", "ids", "recipients", "fields", "scopes", "labels"],
  object: ["filter", "address", "window", "pagination", "metadata", "schedule", "money"],
};

export const ENUM_VALUES = [
  "draft", "active", "paused", "archived", "deleted", "asc", "desc", "json", "csv", "pdf", "xml", "public", "private",
  "internal", "free", "pro", "enterprise", "email", "sms", "push", "meters", "miles", "low", "medium", "high",
];
