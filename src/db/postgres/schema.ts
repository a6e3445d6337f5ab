// The PostgreSQL twin of src/db/sqlite/schema.ts (drizzle has no dialect-agnostic schema): same tables and
// column names, timestamps kept as ISO text so rows read back equal to SQLite's, plus the shared
// limits that SQLite's single process keeps in memory.
import { bigint, boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";

export const organizations = pgTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    plan: text("plan").notNull(),
    billingDay: integer("billing_day").notNull(),
    rulesetChannel: text("ruleset_channel").notNull().default("latest"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("organizations_name_unique").on(t.name)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    keyHash: text("key_hash").notNull(),
    label: text("label"),
    livemode: boolean("livemode").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash), index("api_keys_org").on(t.orgId)],
);

export const quotaWindows = pgTable(
  "quota_windows",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    mode: text("mode", { enum: ["live", "test"] }).notNull(),
    windowStart: text("window_start").notNull(),
    windowEnd: text("window_end").notNull(),
    quotaLimit: integer("quota_limit").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.mode, t.windowStart] })],
);

export const refundHours = pgTable(
  "refund_hours",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    hourStart: text("hour_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.hourStart] })],
);

export const driftChecks = pgTable(
  "drift_checks",
  {
    id: serial("id").primaryKey(),
    key: text("key").notNull(),
    version: text("version").notNull(),
    path: text("path").notNull(),
    checkedAt: text("checked_at").notNull(),
    source: text("source").notNull(),
    expectedSha256: text("expected_sha256").notNull(),
    actualSha256: text("actual_sha256"),
    outcome: text("outcome", { enum: ["match", "mismatch", "error"] }).notNull(),
    detail: text("detail"),
  },
  (t) => [index("drift_checks_path").on(t.path, t.checkedAt)],
);

export const pdfTemplates = pgTable(
  "pdf_templates",
  {
    ref: text("ref").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    definition: text("definition").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("pdf_templates_org").on(t.orgId)],
);

/**
 * One rolling per-minute counter shared by every instance: the millisecond times of the admitted
 * requests still in the window, oldest first.
 */
export const rateWindows = pgTable("rate_windows", {
  counter: text("counter").primaryKey(),
  hits: bigint("hits", { mode: "number" }).array().notNull(),
});

/** An abuse throttle in force on every instance, in milliseconds since the epoch. */
export const throttles = pgTable("throttles", {
  counter: text("counter").primaryKey(),
  startedAt: bigint("started_at", { mode: "number" }).notNull(),
  until: bigint("until", { mode: "number" }).notNull(),
});

/** Sender identifiers an organization may send from, registered by the operator (CLI). */
export const participants = pgTable(
  "participants",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    scheme: text("scheme").notNull(),
    identifier: text("identifier").notNull(),
    country: text("country"),
    confirmed: boolean("confirmed").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.scheme, t.identifier] })],
);

/** Outbound and inbound transmissions; every status change is a compare-and-set plus one event. */
export const transmissions = pgTable(
  "transmissions",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    livemode: boolean("livemode").notNull(),
    direction: text("direction", { enum: ["outbound", "inbound"] }).notNull(),
    network: text("network").notNull(),
    status: text("status").notNull(),
    senderScheme: text("sender_scheme").notNull(),
    senderId: text("sender_id").notNull(),
    counterpartyScheme: text("counterparty_scheme").notNull(),
    counterpartyId: text("counterparty_id").notNull(),
    format: text("format").notNull(),
    documentSha256: text("document_sha256").notNull(),
    document: text("document"),
    customizationId: text("customization_id"),
    processId: text("process_id"),
    documentTypeId: text("document_type_id"),
    invoiceNumber: text("invoice_number"),
    deadlineAt: text("deadline_at"),
    atRisk: boolean("at_risk").notNull(),
    verdict: text("verdict"),
    idempotencyKey: text("idempotency_key"),
    requestSha256: text("request_sha256"),
    headHash: text("head_hash").notNull(),
    headSeq: integer("head_seq").notNull(),
    /** Delivery scheduling: when the next attempt is due, and which instance holds it until when. */
    nextAttemptAt: text("next_attempt_at"),
    leaseOwner: text("lease_owner"),
    leaseUntil: text("lease_until"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Our reference for the provider, written before the first network call. */
    providerRef: text("provider_ref"),
    /** What the recipient lookup last answered (reachable, not_in_directory, not_served, doctype_not_published, lookup_failed). */
    recipientState: text("recipient_state"),
    /** Why a human must look at it, when escalated. */
    escalation: text("escalation"),
    billedAt: text("billed_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("transmissions_idempotency").on(t.orgId, t.livemode, t.idempotencyKey),
    index("transmissions_listing").on(t.orgId, t.createdAt, t.id),
    index("transmissions_document").on(t.orgId, t.documentSha256),
  ],
);

/** The hash-chained audit trail: one sequence and one predecessor per event of a transmission. */
export const transmissionEvents = pgTable(
  "transmission_events",
  {
    transmissionId: text("transmission_id")
      .notNull()
      .references(() => transmissions.id),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    at: text("at").notNull(),
    data: text("data").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.transmissionId, t.seq] }), uniqueIndex("transmission_events_prev").on(t.transmissionId, t.prevHash)],
);

/** Each delivery attempt: provider, outcome and when the next one is due. */
export const transmissionAttempts = pgTable(
  "transmission_attempts",
  {
    id: serial("id").primaryKey(),
    transmissionId: text("transmission_id")
      .notNull()
      .references(() => transmissions.id),
    n: integer("n").notNull(),
    provider: text("provider").notNull(),
    providerRef: text("provider_ref").notNull(),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    outcome: text("outcome"),
    detail: text("detail"),
    nextAttemptAt: text("next_attempt_at"),
  },
  (t) => [uniqueIndex("transmission_attempts_n").on(t.transmissionId, t.n)],
);

/** Legal proofs captured from the network, each kept with the SHA-256 of its bytes. */
export const transmissionReceipts = pgTable(
  "transmission_receipts",
  {
    id: serial("id").primaryKey(),
    transmissionId: text("transmission_id")
      .notNull()
      .references(() => transmissions.id),
    kind: text("kind").notNull(),
    networkCode: text("network_code").notNull(),
    at: text("at").notNull(),
    sha256: text("sha256").notNull(),
    proof: text("proof").notNull(),
  },
  (t) => [index("transmission_receipts_of").on(t.transmissionId)],
);

/**
 * Every transmission event a webhook may carry, written in the same transaction as the event
 * (an outbox): webhook deliveries fan out from here, so none is lost to a crash between the two.
 */
export const eventOutbox = pgTable(
  "event_outbox",
  {
    id: serial("id").primaryKey(),
    orgId: text("org_id").notNull(),
    livemode: boolean("livemode").notNull(),
    transmissionId: text("transmission_id").notNull(),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    at: text("at").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [uniqueIndex("event_outbox_event").on(t.transmissionId, t.seq), index("event_outbox_org").on(t.orgId, t.id)],
);

/** An organization's webhook subscriptions; secrets kept for Standard Webhooks signing (several during a rotation). */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    url: text("url").notNull(),
    /** JSON array of event types. */
    eventTypes: text("event_types").notNull(),
    /** JSON array of `{secret, retiresAt}` (whsec_ secrets, newest first; a rotated one signs until it retires). */
    secrets: text("secrets").notNull(),
    status: text("status").notNull(),
    disabledReason: text("disabled_reason"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** The last outbox id fanned out to this subscription. */
    outboxCursor: integer("outbox_cursor").notNull().default(0),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_subscriptions_org").on(t.orgId)],
);

/** One event to one subscription: pending, delivered, failed for good, or suppressed (test keys never receive webhooks). */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id),
    outboxId: integer("outbox_id").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at"),
    leaseUntil: text("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("webhook_deliveries_event").on(t.subscriptionId, t.outboxId), index("webhook_deliveries_due").on(t.status, t.nextAttemptAt)],
);

/** Providers that may call the inbound callback, each with its Standard Webhooks secrets. */
export const inboxProviders = pgTable(
  "inbox_providers",
  {
    id: text("id").primaryKey(),
    network: text("network").notNull(),
    /** JSON array of whsec_ secrets, newest first. */
    secrets: text("secrets").notNull(),
    createdAt: text("created_at").notNull(),
  },
);

/** The sandbox network's clock per organization: an operator or a test moves it forward to play deadlines, grace windows and retries in seconds. */
export const sandboxClocks = pgTable("sandbox_clocks", {
  orgId: text("org_id").primaryKey(),
  offsetMs: bigint("offset_ms", { mode: "number" }).notNull(),
});

/**
 * What the sandbox network received, keyed by our reference: its own record, apart from ours, so a
 * test can count deliveries (exactly once) and a retry after a crash can ask whether it already has one.
 */
export const sandboxReceived = pgTable("sandbox_received", {
  providerRef: text("provider_ref").primaryKey(),
  network: text("network").notNull(),
  transmissionId: text("transmission_id").notNull(),
  documentSha256: text("document_sha256").notNull(),
  receivedAt: text("received_at").notNull(),
  /** The scenario the recipient chose and how far it has played (JSON). */
  state: text("state").notNull(),
});

/** Dashboard sign-in (src/dashboard/): users per organization, sessions and one-time links, tokens kept only as hashes. */
export const dashboardUsers = pgTable(
  "dashboard_users",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("dashboard_users_email_unique").on(t.email)],
);

export const dashboardSessions = pgTable("dashboard_sessions", {
  tokenHash: text("token_hash").primaryKey(),
  orgId: text("org_id")
    .notNull()
    .references(() => organizations.id),
  userId: text("user_id").references(() => dashboardUsers.id),
  csrfToken: text("csrf_token").notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
});

export const signInLinks = pgTable("sign_in_links", {
  tokenHash: text("token_hash").primaryKey(),
  orgId: text("org_id")
    .notNull()
    .references(() => organizations.id),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
});
