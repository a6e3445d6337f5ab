// An organization's webhook subscriptions: the rules the routes and the CLI share (docs/webhooks.md).
// A secret is shown once, when it is made; a rotated-out secret keeps signing beside the new one
// for ROTATION_OVERLAP_MS, so a receiver can switch without losing a delivery (Standard Webhooks
// sends one signature per secret).

import { randomBytes } from "node:crypto";
import type { Clock } from "../clock";
import type { Storage, WebhookDeliveryRow, WebhookSecret, WebhookSubscriptionRow } from "../db/storage";
import { DomainError, type FieldError } from "../errors/domain-error";
import type { WebhookDestinationPolicy } from "../config";
import { AT_RISK_EVENT, STATUSES } from "../transmission/states";
import { newSecret } from "../transmission/standard-webhooks";
import { checkUrl, DestinationRefused } from "./destination";

/** Spec "Events", in the order the status tables name them, then the at-risk flag. */
export const WEBHOOK_EVENTS: readonly string[] = [
  ...new Set([...STATUSES.outbound, ...STATUSES.inbound].flatMap((row) => (row.event ? [row.event] : [])).concat(AT_RISK_EVENT)),
];

/** More would be a fan-out per event no receiver needs; one URL can take every event type. */
export const MAX_SUBSCRIPTIONS_PER_ORG = 10;
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** The current secret and at most two rotated-out ones still in their overlap. */
const MAX_SECRETS = 3;
const RECENT_DELIVERIES = 50;

/** A subscription as the API shows it: never a secret. */
export interface SubscriptionView {
  id: string;
  url: string;
  eventTypes: string[];
  status: "active" | "disabled";
  disabledReason: string | null;
  consecutiveFailures: number;
  /** When the previous secret stops signing, while a rotation's overlap lasts. */
  previousSecretRetiresAt: string | null;
  createdAt: string;
}

export interface DeliveryView {
  id: number;
  status: WebhookDeliveryRow["status"];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The secrets that sign at `now`, newest first. */
export const signingSecrets = (secrets: readonly WebhookSecret[], now: Date): string[] =>
  secrets.filter((s) => s.retiresAt === null || s.retiresAt > now.toISOString()).map((s) => s.secret);

function view(row: WebhookSubscriptionRow, now: Date): SubscriptionView {
  const previous = row.secrets.find((s) => s.retiresAt !== null && s.retiresAt > now.toISOString());
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes,
    status: row.status,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    previousSecretRetiresAt: previous?.retiresAt ?? null,
    createdAt: row.createdAt,
  };
}

const deliveryView = ({ subscriptionId: _, outboxId: __, leaseUntil: ___, ...row }: WebhookDeliveryRow): DeliveryView => row;

const invalid = (path: string, message: string) => new DomainError(400, "VALIDATION_ERROR", `${path.slice(1)}: ${message}`, { fields: [{ path, message, keyword: "webhook" } satisfies FieldError] });

const notFound = (id: string) => new DomainError(404, "NOT_FOUND", `no webhook subscription '${id}' in this organization`);

async function owned(storage: Storage, orgId: string, id: string): Promise<WebhookSubscriptionRow> {
  const row = await storage.webhooks.byId(orgId, id);
  if (!row) throw notFound(id);
  return row;
}

export interface NewSubscription {
  url: string;
  eventTypes?: string[];
}

/** Creates a subscription (every event type when none are named); the answer holds its secret, shown this once. */
export async function createSubscription(
  storage: Storage,
  clock: Clock,
  policy: WebhookDestinationPolicy,
  orgId: string,
  request: NewSubscription,
): Promise<SubscriptionView & { secret: string }> {
  try {
    checkUrl(request.url, policy);
  } catch (error) {
    if (error instanceof DestinationRefused) throw invalid("/url", error.message);
    throw error;
  }
  const eventTypes = request.eventTypes ?? [...WEBHOOK_EVENTS];
  const unknown = eventTypes.filter((t) => !WEBHOOK_EVENTS.includes(t));
  if (unknown.length || !eventTypes.length) throw invalid("/eventTypes", `must name one or more of ${WEBHOOK_EVENTS.join(", ")}${unknown.length ? `; not ${unknown.join(", ")}` : ""}`);
  const now = clock();
  const secret = newSecret();
  const row = {
    id: `wh_${randomBytes(12).toString("hex")}`,
    orgId,
    url: request.url,
    eventTypes: [...new Set(eventTypes)],
    secrets: [{ secret, retiresAt: null }],
    status: "active" as const,
    disabledReason: null,
    consecutiveFailures: 0,
    createdAt: now.toISOString(),
  };
  if (!(await storage.webhooks.insert(row, MAX_SUBSCRIPTIONS_PER_ORG))) {
    throw new DomainError(422, "VALIDATION_ERROR", `an organization has at most ${MAX_SUBSCRIPTIONS_PER_ORG} webhook subscriptions; delete one first (one subscription can take every event type)`);
  }
  return { ...view({ ...row, outboxCursor: 0 }, now), secret };
}

export async function listSubscriptions(storage: Storage, clock: Clock, orgId: string): Promise<SubscriptionView[]> {
  const now = clock();
  return (await storage.webhooks.listFor(orgId)).map((row) => view(row, now));
}

export async function getSubscription(storage: Storage, clock: Clock, orgId: string, id: string): Promise<SubscriptionView> {
  return view(await owned(storage, orgId, id), clock());
}

export async function deleteSubscription(storage: Storage, orgId: string, id: string): Promise<void> {
  if (!(await storage.webhooks.delete(orgId, id))) throw notFound(id);
}

/**
 * A new current secret, shown this once; the one it replaces signs alongside it until the overlap
 * ends, and secrets past their overlap are dropped.
 */
export async function rotateSecret(storage: Storage, clock: Clock, orgId: string, id: string): Promise<SubscriptionView & { secret: string }> {
  const row = await owned(storage, orgId, id);
  const now = clock();
  const retiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
  const secret = newSecret();
  const kept = row.secrets.filter((s) => s.retiresAt === null || s.retiresAt > now.toISOString()).map((s) => ({ secret: s.secret, retiresAt: s.retiresAt ?? retiresAt }));
  const secrets = [{ secret, retiresAt: null }, ...kept].slice(0, MAX_SECRETS);
  if (!(await storage.webhooks.setSecrets(orgId, id, secrets))) throw notFound(id);
  return { ...view({ ...row, secrets }, now), secret };
}

/** Active again after an automatic disable; deliveries still pending go out from the next step. */
export async function enableSubscription(storage: Storage, clock: Clock, orgId: string, id: string): Promise<SubscriptionView> {
  if (!(await storage.webhooks.enable(orgId, id))) throw notFound(id);
  return getSubscription(storage, clock, orgId, id);
}

export async function listDeliveries(storage: Storage, orgId: string, id: string): Promise<DeliveryView[]> {
  const row = await owned(storage, orgId, id);
  return (await storage.webhooks.deliveries(row.id, RECENT_DELIVERIES)).map(deliveryView);
}

/**
 * Sends a delivery once more, now (whatever it ended as). A test-key event is never sent, and a
 * delivery in flight is not sent a second time at once.
 */
export async function redeliver(storage: Storage, clock: Clock, orgId: string, id: string, deliveryId: string): Promise<DeliveryView> {
  const row = await owned(storage, orgId, id);
  const number = /^[1-9][0-9]{0,15}$/.test(deliveryId) ? Number(deliveryId) : NaN;
  const found = Number.isSafeInteger(number) ? await storage.webhooks.delivery(row.id, number) : undefined;
  if (!found) throw new DomainError(404, "NOT_FOUND", `no delivery '${deliveryId}' of webhook subscription '${id}'`);
  if (found.status === "suppressed") throw new DomainError(422, "VALIDATION_ERROR", "this event came from a test key: test keys receive no webhooks, so it is never sent");
  const again = await storage.webhooks.redeliver(row.id, number, clock().toISOString());
  if (!again) throw new DomainError(422, "VALIDATION_ERROR", "this delivery is being attempted right now; ask again once the attempt has ended");
  return deliveryView(again);
}
