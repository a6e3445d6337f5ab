// What the domain asks of a database. Two adapters implement it: SQLite (bun:sqlite, the embedded
// default, one process) and PostgreSQL (several instances of the executable on one database). The
// domain rules (which window a request counts in, a plan's caps, a key's format) stay in
// src/accounts and the other domain folders; a repository only keeps rows and makes each change
// that must be exact one conditional statement or one transaction. test/db/storage.test.ts runs
// every behaviour below against both adapters.

export type Dialect = "sqlite" | "postgres";
export type KeyMode = "live" | "test";

export interface OrgRow {
  id: string;
  name: string;
  plan: string;
  billingDay: number;
  rulesetChannel: string;
  createdAt: string;
}

export interface KeyRow {
  id: string;
  orgId: string;
  keyHash: string;
  label: string | null;
  livemode: boolean;
  createdAt: string;
  revokedAt: string | null;
}

/** One counted quota window: the organization, key mode and the window's start name it. */
export interface WindowKey {
  orgId: string;
  mode: KeyMode;
  windowStart: string;
}

/** A window as it is opened when missing: the cap is frozen from the plan in force at that moment. */
export interface WindowOpening extends WindowKey {
  windowEnd: string;
  quotaLimit: number;
}

export interface WindowCount {
  quotaLimit: number;
  used: number;
}

export interface OrgRepository {
  /** False when the name is taken (names are unique). */
  insert(row: OrgRow): Promise<boolean>;
  byId(id: string): Promise<OrgRow | undefined>;
  byName(name: string): Promise<OrgRow | undefined>;
  list(): Promise<OrgRow[]>;
  /**
   * One transaction: the running live window is opened under the old plan's cap (so a downgrade
   * cannot shrink it), raised to `nextQuota` when that is more, and the plan changed.
   */
  changePlan(orgId: string, plan: string, running: WindowOpening, nextQuota: number): Promise<void>;
  setRulesetChannel(orgId: string, channel: string): Promise<void>;
}

export interface KeyRepository {
  insert(row: KeyRow): Promise<void>;
  byHash(hash: string): Promise<KeyRow | undefined>;
  listFor(orgId: string): Promise<KeyRow[]>;
  /** Revokes a key not revoked yet; says what it found otherwise. */
  revoke(keyId: string, at: string): Promise<"revoked" | "already" | "missing">;
}

export interface QuotaRepository {
  /**
   * Opens the window if missing, then takes one unit when one is left: a conditional update, so
   * concurrent requests from any number of processes can neither overspend nor lose a unit.
   */
  spend(window: WindowOpening): Promise<{ ok: boolean; count: WindowCount }>;
  /**
   * Gives a unit back to the window it was taken from. `hourlyCap` (computed failures) counts the
   * refund in the organization's clock hour `hourStart` first and refuses it past the cap; both in
   * one transaction. Returns whether the unit was returned.
   */
  refund(spent: WindowKey, hourlyCap: { hourStart: string; cap: number } | null): Promise<boolean>;
  read(window: WindowKey): Promise<WindowCount | undefined>;
}

/** A rolling window's answer: the whole allowance may be spent at once; each slot frees one window after it was taken. */
export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (0 when nothing is counted). */
  resetSeconds: number;
}

/** Rolling per-minute counters: an organization's burst, a client address's keyless allowance, the throttle's own counts. */
export interface RollingCounters {
  take(counter: string, limit: number, nowMs: number): Promise<WindowVerdict>;
}

export interface Throttle {
  startedAt: number;
  until: number;
}

/** The abuse throttles in force; the policy that enters and extends them is src/accounts/abuse-throttle.ts. */
export interface ThrottleRecords {
  /** The counter's throttle while it lasts. */
  active(counter: string, nowMs: number): Promise<Throttle | undefined>;
  /** Starts a throttle unless one is in force (then that one stands). */
  start(counter: string, nowMs: number, until: number): Promise<void>;
  /** Pushes the end out to `until`, never past `startedAt + maxMs`, never back; returns the throttle as it stands. */
  extend(counter: string, until: number, maxMs: number): Promise<Throttle | undefined>;
}

export interface TemplateRow {
  ref: string;
  orgId: string;
  name: string;
  definition: string;
  createdAt: string;
}

export interface TemplateRepository {
  /** False when the ref is taken. */
  insert(row: TemplateRow): Promise<boolean>;
  listFor(orgId: string): Promise<TemplateRow[]>;
  /** Another organization's ref is not found, exactly like a ref that never existed. */
  find(orgId: string, ref: string): Promise<TemplateRow | undefined>;
  delete(orgId: string, ref: string): Promise<boolean>;
}

export interface DriftRow {
  key: string;
  version: string;
  path: string;
  checkedAt: string;
  source: string;
  expectedSha256: string;
  actualSha256: string | null;
  outcome: "match" | "mismatch" | "error";
  detail: string | null;
}

export interface DriftRepository {
  insert(row: DriftRow): Promise<void>;
  /** Every check, newest first. */
  newestFirst(): Promise<DriftRow[]>;
  history(path: string): Promise<DriftRow[]>;
}

/** A sender identifier an organization may send from (Peppol participant id, SDI or KSeF id …). */
export interface ParticipantRow {
  orgId: string;
  /** Normalised as identifiers compare (src/transmission/identifiers.ts). */
  scheme: string;
  identifier: string;
  /** ISO 3166-1 alpha-2; the Peppol envelope's sender country. */
  country: string | null;
  confirmed: boolean;
  createdAt: string;
}

export interface ParticipantRepository {
  /** Registers or updates (country, confirmation) the identifier for the organization. */
  upsert(row: ParticipantRow): Promise<void>;
  find(orgId: string, scheme: string, identifier: string): Promise<ParticipantRow | undefined>;
  listFor(orgId: string): Promise<ParticipantRow[]>;
  remove(orgId: string, scheme: string, identifier: string): Promise<boolean>;
  /** The confirmed registrations of this identifier in any organization: who receives what a provider brings in. */
  receivers(scheme: string, identifier: string): Promise<ParticipantRow[]>;
}

/** A provider that may call the inbound callback, with its Standard Webhooks secrets (newest first). */
export interface InboxProviderRow {
  id: string;
  network: string;
  secrets: string[];
  createdAt: string;
}

export interface InboxProviderRepository {
  /** False when the id is taken. */
  insert(row: InboxProviderRow): Promise<boolean>;
  find(id: string): Promise<InboxProviderRow | undefined>;
  list(): Promise<InboxProviderRow[]>;
  setSecrets(id: string, secrets: string[]): Promise<boolean>;
  remove(id: string): Promise<boolean>;
}

export interface TransmissionRow {
  id: string;
  orgId: string;
  livemode: boolean;
  direction: "outbound" | "inbound";
  network: string;
  status: string;
  senderScheme: string;
  senderId: string;
  /** The recipient of an outbound transmission, the sender of an inbound one. */
  counterpartyScheme: string;
  counterpartyId: string;
  format: string;
  documentSha256: string;
  /** The stored bytes; null once purged under retention (the hash stays). */
  document: string | null;
  customizationId: string | null;
  processId: string | null;
  documentTypeId: string | null;
  /** BT-1, for the French rule that a number a platform rejected cannot travel again. */
  invoiceNumber: string | null;
  deadlineAt: string | null;
  atRisk: boolean;
  /** The verdict the document was accepted with (JSON). */
  verdict: string | null;
  idempotencyKey: string | null;
  /** SHA-256 of the request that created it, for Idempotency-Key replays. */
  requestSha256: string | null;
  /** The newest event's hash and sequence: a chain whose last event is not the head is truncated. */
  headHash: string;
  headSeq: number;
  /** Delivery: when the next attempt is due (null: nothing to do), and which instance holds it until when. */
  nextAttemptAt: string | null;
  leaseOwner: string | null;
  leaseUntil: string | null;
  attemptCount: number;
  /** Our reference for the provider, written before the first network call so a retry can ask for it. */
  providerRef: string | null;
  /** What the recipient lookup last answered. */
  recipientState: string | null;
  /** Why a human must look at it, when escalated. */
  escalation: string | null;
  /** When the delivery was billed (once). */
  billedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TransmissionEventRow {
  transmissionId: string;
  seq: number;
  type: string;
  status: string;
  at: string;
  /** JSON text of the event's data, exactly as hashed. */
  data: string;
  prevHash: string;
  hash: string;
}

/** The columns a change may set beside the status. */
export type TransmissionPatch = Partial<
  Pick<TransmissionRow, "atRisk" | "nextAttemptAt" | "leaseOwner" | "leaseUntil" | "attemptCount" | "providerRef" | "recipientState" | "escalation" | "billedAt" | "document" | "verdict">
>;

/**
 * One change of a transmission: a compare-and-set on what it must be now, the columns it sets, and
 * the event appended after the chain's head as the transaction finds it.
 */
export interface TransmissionChange {
  /** The status it must have; `to` is the status it gets (the same for a flag or a schedule). */
  from: string;
  to: string;
  /** Further conditions: still not at risk (the flag fires once), still held by this lease owner. */
  expect?: { atRisk?: boolean; leaseOwner?: string | null };
  patch?: TransmissionPatch;
  /** Absent: nothing is appended (a lease or a schedule is no status change). */
  event?: (head: { seq: number; hash: string }) => TransmissionEventRow;
  /** Counts one quota unit in this window in the same transaction: a delivery is billed with the change that records it, once. */
  bill?: WindowOpening;
  at: string;
}

export interface TransmissionFilters {
  direction?: string;
  status?: string;
  network?: string;
}

/** Where a page of the newest-first listing ends: the next page starts after it. */
export interface TransmissionCursor {
  createdAt: string;
  id: string;
}

export interface TransmissionRepository {
  /**
   * Inserts the transmission with its first event in one transaction. When the organization and
   * mode already hold the row's Idempotency-Key, nothing is written and that transmission comes
   * back instead, so concurrent requests with one key create one transmission.
   */
  create(row: TransmissionRow, first: TransmissionEventRow): Promise<{ created: true } | { created: false; existing: TransmissionRow }>;
  /** Another organization's id is not found, exactly like an id that never existed. */
  byId(orgId: string, id: string): Promise<TransmissionRow | undefined>;
  byIdempotencyKey(orgId: string, livemode: boolean, key: string): Promise<TransmissionRow | undefined>;
  /** The newest transmission of this document to this counterparty in the mode whose status is not one of `settled`. */
  sameDocument(orgId: string, livemode: boolean, documentSha256: string, counterparty: { scheme: string; id: string }, settled: readonly string[]): Promise<TransmissionRow | undefined>;
  /** A transmission of this sender's invoice number over `network` that was rejected. */
  rejectedNumber(orgId: string, livemode: boolean, network: string, sender: { scheme: string; id: string }, invoiceNumber: string): Promise<TransmissionRow | undefined>;
  /** Newest first (createdAt, then id), after `cursor`; at most `limit`. */
  list(orgId: string, filters: TransmissionFilters, limit: number, cursor: TransmissionCursor | null): Promise<TransmissionRow[]>;
  events(transmissionId: string): Promise<TransmissionEventRow[]>;
  /** Applies the change when its conditions hold, in one transaction (event, webhook outbox row, bill); the row after, or undefined. */
  change(id: string, change: TransmissionChange): Promise<TransmissionRow | undefined>;
  /**
   * Leases up to `limit` outbound transmissions that are due (nextAttemptAt reached, no live lease)
   * to `owner` until `leaseUntil`, in one statement, so instances never take the same one.
   */
  claimDue(owner: string, now: string, leaseUntil: string, limit: number): Promise<TransmissionRow[]>;
  /**
   * Drops the stored bytes of transmissions that settled (one of `settled`) before `before`; their
   * hash, events and receipts stay. Returns how many were purged.
   */
  purgeDocuments(before: string, settled: readonly string[]): Promise<number>;
  /** The same for inbound transmissions still `received` (their judging waits for the engine). */
  claimDueInbound(owner: string, now: string, leaseUntil: string, limit: number): Promise<TransmissionRow[]>;
}

/** A subscription's signing secret: the current one has no end; a rotated-out one signs alongside until `retiresAt`. */
export interface WebhookSecret {
  secret: string;
  retiresAt: string | null;
}

export interface WebhookSubscriptionRow {
  id: string;
  orgId: string;
  url: string;
  eventTypes: string[];
  /** Newest first; stored as JSON in the `secrets` column. */
  secrets: WebhookSecret[];
  status: "active" | "disabled";
  disabledReason: string | null;
  /** Failed attempts since the last delivered one, across the subscription's deliveries. */
  consecutiveFailures: number;
  /** The last event_outbox id fanned out to this subscription. */
  outboxCursor: number;
  createdAt: string;
}

/** One event for one subscription; `suppressed` is a test-key event, recorded and never sent. */
export interface WebhookDeliveryRow {
  id: number;
  subscriptionId: string;
  outboxId: number;
  status: "pending" | "delivered" | "failed" | "suppressed";
  attempts: number;
  nextAttemptAt: string | null;
  /** Also the claim's fencing token: a result is recorded only while the lease that sent it holds. */
  leaseUntil: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A transmission event a webhook may carry, as TransmissionRepository.create/change wrote it. */
export interface OutboxRow {
  id: number;
  orgId: string;
  livemode: boolean;
  transmissionId: string;
  seq: number;
  type: string;
  at: string;
  hash: string;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  subscription: WebhookSubscriptionRow;
  event: OutboxRow;
}

/** How an attempt ended, recorded with its effect on the subscription in one transaction. */
export interface DeliveryOutcome {
  status: "pending" | "delivered" | "failed";
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  at: string;
  /** Delivered: the failure count starts again. Otherwise it grows by one, and `disable` (a reason) disables the subscription. */
  disable?: string;
}

export interface WebhookRepository {
  /**
   * Inserts the subscription unless the organization already has `cap`, checked in the same
   * transaction; its cursor starts at the newest outbox row, so it receives only later events.
   */
  insert(row: Omit<WebhookSubscriptionRow, "outboxCursor">, cap: number): Promise<boolean>;
  /** Another organization's id is not found, exactly like an id that never existed. */
  byId(orgId: string, id: string): Promise<WebhookSubscriptionRow | undefined>;
  listFor(orgId: string): Promise<WebhookSubscriptionRow[]>;
  /** The subscription and its delivery records. */
  delete(orgId: string, id: string): Promise<boolean>;
  setSecrets(orgId: string, id: string, secrets: WebhookSecret[]): Promise<boolean>;
  /** Active again, the failure count at zero. */
  enable(orgId: string, id: string): Promise<boolean>;
  /** Every active subscription, of every organization. */
  active(): Promise<WebhookSubscriptionRow[]>;
  /**
   * Fans up to `limit` outbox rows of the subscription's types after its cursor that it has no
   * delivery for out to it (`suppressed` for a test-key row), in one transaction. Outbox ids are
   * taken before their transactions commit, so a smaller id can appear after a larger one: the
   * cursor only moves past rows written before `settledBefore`, and the unique (subscription,
   * outbox row) pair makes a second look at the rows after it (or a concurrent fan-out) write nothing twice.
   */
  fanOut(subscriptionId: string, limit: number, at: string, settledBefore: string): Promise<{ pending: number; suppressed: number }>;
  /**
   * Leases up to `limit` pending deliveries that are due, of active subscriptions, until
   * `leaseUntil`, counting the attempt, in one statement: instances never take the same one.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records the attempt when the lease `leaseUntil` still holds; false when it was lost. */
  settle(delivery: WebhookDeliveryRow, outcome: DeliveryOutcome): Promise<boolean>;
  /** Newest first. */
  deliveries(subscriptionId: string, limit: number): Promise<WebhookDeliveryRow[]>;
  delivery(subscriptionId: string, deliveryId: number): Promise<WebhookDeliveryRow | undefined>;
  /** Due again now, for one more attempt, unless suppressed or leased (in flight); the row after, or undefined. */
  redeliver(subscriptionId: string, deliveryId: number, at: string): Promise<WebhookDeliveryRow | undefined>;
}

/** A person who signs in to an organization's dashboard; emails are unique across the deployment, so signing in needs no organization. */
export interface DashboardUserRow {
  id: string;
  orgId: string;
  email: string;
  /** Bun.password's argon2id PHC string. */
  passwordHash: string;
  createdAt: string;
}

/** A signed-in browser. Only the SHA-256 of the cookie's token is kept; the CSRF token is tied to it. */
export interface DashboardSessionRow {
  tokenHash: string;
  orgId: string;
  /** Null for a session opened by a sign-in link. */
  userId: string | null;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

/** A one-time sign-in link printed by the CLI; only its token's SHA-256 is kept. */
export interface SignInLinkRow {
  tokenHash: string;
  orgId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface DashboardRepository {
  /** False when the email is taken. */
  insertUser(row: DashboardUserRow): Promise<boolean>;
  userByEmail(email: string): Promise<DashboardUserRow | undefined>;
  insertSession(row: DashboardSessionRow): Promise<void>;
  /** The session while it has not expired at `now`. */
  session(tokenHash: string, now: string): Promise<DashboardSessionRow | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  insertLink(row: SignInLinkRow): Promise<void>;
  /**
   * Marks the link used when it is unused and unexpired at `now`, in one conditional update, so of
   * two browsers racing on one link only one gets the organization.
   */
  useLink(tokenHash: string, now: string): Promise<string | undefined>;
  /** Deletes the sessions and links expired at `now`; rows that can never be used again. */
  purgeExpired(now: string): Promise<void>;
}

/** One delivery attempt: a submission (or the reconciliation of an unanswered one) to a provider. */
export interface AttemptRow {
  transmissionId: string;
  /** 1, 2, … per transmission: the transmission's attemptCount when it started. */
  n: number;
  provider: string;
  providerRef: string;
  startedAt: string;
  finishedAt: string | null;
  /** null while in flight (or when the instance died during it). */
  outcome: string | null;
  detail: string | null;
  /** When the next attempt was scheduled, if one was. */
  nextAttemptAt: string | null;
}

/** A legal proof captured from the network, kept with the SHA-256 of its bytes. */
export interface ReceiptRow {
  transmissionId: string;
  /** transport, message_level, official_receipt, lifecycle … */
  kind: string;
  networkCode: string;
  at: string;
  sha256: string;
  proof: string;
}

export interface DeliveryRecords {
  /** Records an attempt as it starts; false when attempt `n` of the transmission exists already. */
  startAttempt(row: AttemptRow): Promise<boolean>;
  finishAttempt(transmissionId: string, n: number, end: Pick<AttemptRow, "finishedAt" | "outcome" | "detail" | "nextAttemptAt">): Promise<void>;
  attempts(transmissionId: string): Promise<AttemptRow[]>;
  /** Keeps a receipt unless one with the same bytes is kept already (a status read twice); true when added. */
  addReceipt(row: ReceiptRow): Promise<boolean>;
  receipts(transmissionId: string): Promise<ReceiptRow[]>;
}

/** What the sandbox network received, keyed by our reference (src/transmission/sandbox/). */
export interface SandboxReceivedRow {
  providerRef: string;
  network: string;
  transmissionId: string;
  documentSha256: string;
  /** On the organization's sandbox clock. */
  receivedAt: string;
  /** The scenario and how many submissions arrived with this reference (JSON). */
  state: string;
}

export interface SandboxRecords {
  /** Milliseconds the organization's sandbox clock runs ahead of the system clock (0 when never moved). */
  offset(orgId: string): Promise<number>;
  /**
   * Moves the organization's clock forward and, in the same transaction, brings every scheduled
   * attempt of its transmissions as much closer, so what is due on the moved clock is due now.
   */
  advance(orgId: string, byMs: number): Promise<number>;
  /** Records a submission; when the reference is known already, `again` rewrites its state and nothing is inserted. Returns the row as it stands. */
  receive(row: SandboxReceivedRow, again: (existing: SandboxReceivedRow) => string): Promise<SandboxReceivedRow>;
  received(providerRef: string): Promise<SandboxReceivedRow | undefined>;
  /** Every row (tests count deliveries). */
  all(): Promise<SandboxReceivedRow[]>;
}

/** What `einvoice db check` reports. */
export interface StorageCheck {
  dialect: Dialect;
  /** Where, without a password. */
  location: string;
  migrations: { applied: string[]; pending: string[] };
}

export interface Storage {
  readonly dialect: Dialect;
  readonly orgs: OrgRepository;
  readonly keys: KeyRepository;
  readonly quota: QuotaRepository;
  readonly counters: RollingCounters;
  readonly throttles: ThrottleRecords;
  readonly templates: TemplateRepository;
  readonly drift: DriftRepository;
  readonly participants: ParticipantRepository;
  readonly transmissions: TransmissionRepository;
  readonly inboxProviders: InboxProviderRepository;
  readonly webhooks: WebhookRepository;
  readonly dashboard: DashboardRepository;
  readonly delivery: DeliveryRecords;
  readonly sandbox: SandboxRecords;
  /**
   * Runs `work` while holding the named lock that every instance on this database shares. With
   * `wait` the call queues for the lock (start-up bootstrap); without it, an instance that finds
   * the lock held skips the work and gets false (the nightly drift check runs once, wherever).
   */
  exclusively<T>(name: string, wait: boolean, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  check(): Promise<StorageCheck>;
  close(): Promise<void>;
}

/**
 * The database could not answer (connection lost, statement timeout). The API answers 503
 * ENGINE_UNAVAILABLE (src/api/respond.ts); a spend that failed took nothing, so the unit is unspent.
 */
export class StorageUnavailable extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterSeconds = 2,
  ) {
    super(`the database is unavailable (${reason})`);
    this.name = "StorageUnavailable";
  }
}
