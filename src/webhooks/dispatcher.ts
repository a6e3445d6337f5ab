// Sends transmission events to the organizations' webhook subscriptions (docs/webhooks.md). Each
// step fans the event outbox out into one delivery per subscription and event, then claims the
// due deliveries under a lease and sends each once, signed per Standard Webhooks. Any number of
// instances may step at once on one database: the fan-out writes each delivery once and a claim
// is a lease only one instance holds. `serve` runs it as a loop when transmission is on; tests step it.

import { runSteps } from "../stepped-loop";
import type { Clock } from "../clock";
import { STRICT_WEBHOOK_DESTINATIONS, type TransmissionSettings, type WebhookDestinationPolicy } from "../config";
import type { ClaimedDelivery, DeliveryOutcome, Storage } from "../db/storage";
import type { Metrics } from "../api/metrics";
import { sign } from "../transmission/standard-webhooks";
import { DestinationRefused, post, resolveDestination, type Answer, type Resolver } from "./destination";
import { signingSecrets } from "./subscriptions";

/**
 * The wait after each failed attempt (Standard Webhooks' suggested schedule, Svix's): eight
 * attempts, the first at once, over about 27.6 h. Each wait is jittered by up to ±10 %, so the
 * attempts of many deliveries that failed together spread out, and the whole schedule still lasts
 * more than a day (24.8 h at the least).
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.1;
/** Per request: to resolve the name, and again up to the response's status line. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Longer than a request may take, so a lease ends only when its instance has died. */
const LEASE_MS = 60_000;
/**
 * Outbox ids are taken before their transactions commit; a row is past its cursor only once no
 * transaction writing it can still be open (statements time out far sooner).
 */
const OUTBOX_SETTLE_MS = 10 * 60_000;
const FAN_OUT_BATCH = 200;
const SEND_BATCH = 20;

export interface DispatcherOptions {
  clock: Clock;
  policy: WebhookDestinationPolicy;
  metrics?: Metrics;
  timeoutMs?: number;
  /** Tests name where a host resolves; the system resolver otherwise. */
  resolve?: Resolver;
  /** In [0, 1): the jitter's draw. */
  random?: () => number;
}

export interface StepReport {
  /** Deliveries written, to be sent. */
  fannedOut: number;
  /** Test-key events recorded and never sent. */
  suppressed: number;
  /** Attempts made and recorded in this step. */
  attempted: number;
}

/**
 * What the receiver gets (docs/webhooks.md, "Envelope"): the event's stable id, its type, the
 * mode, when it happened, the transmission as the event left it, and the event's place in the
 * transmission's hash chain, so a receiver can check it against GET /v1/transmissions/:id/events.
 */
async function envelope(storage: Storage, { event }: ClaimedDelivery): Promise<string | null> {
  const transmission = await storage.transmissions.byId(event.orgId, event.transmissionId);
  if (!transmission) return null;
  const recorded = (await storage.transmissions.events(transmission.id)).find((e) => e.seq === event.seq);
  return JSON.stringify({
    id: `evt_${transmission.id.replace(/^txn_/, "")}_${event.seq}`,
    type: event.type,
    livemode: event.livemode,
    createdAt: event.at,
    data: {
      transmission: {
        id: transmission.id,
        status: recorded?.status ?? transmission.status,
        direction: transmission.direction,
        network: transmission.network,
        counterparty: { scheme: transmission.counterpartyScheme, id: transmission.counterpartyId },
        deadlineAt: transmission.deadlineAt,
        atRisk: transmission.atRisk,
        livemode: transmission.livemode,
        createdAt: transmission.createdAt,
      },
      event: { seq: event.seq, hash: event.hash },
    },
  });
}

/** The attempt's outcome from the answer: the retry schedule and the disable rule in one place. */
function outcomeOf(claimed: ClaimedDelivery, answer: Answer, now: Date, random: () => number): DeliveryOutcome {
  const at = now.toISOString();
  const code = "statusCode" in answer ? answer.statusCode : null;
  if (code !== null && code >= 200 && code < 300) return { status: "delivered", nextAttemptAt: null, lastStatusCode: code, lastError: null, at };
  const lastError = "error" in answer ? answer.error.slice(0, 500) : `answered ${code}`;
  // 410 Gone: the receiver says the endpoint is no more (Standard Webhooks); nothing more is sent.
  if (code === 410) return { status: "failed", nextAttemptAt: null, lastStatusCode: code, lastError, at, disable: "the endpoint answered 410 Gone" };
  const { attempts } = claimed.delivery;
  if (attempts < MAX_ATTEMPTS) {
    const delay = RETRY_DELAYS_MS[attempts - 1] * (1 - JITTER + 2 * JITTER * random());
    return { status: "pending", nextAttemptAt: new Date(now.getTime() + delay).toISOString(), lastStatusCode: code, lastError, at };
  }
  // Sustained failure: this delivery failed for its whole schedule (more than a day), and nothing
  // reached the endpoint for at least as many attempts in a row.
  const sustained = claimed.subscription.consecutiveFailures + 1 >= MAX_ATTEMPTS;
  return {
    status: "failed",
    nextAttemptAt: null,
    lastStatusCode: code,
    lastError,
    at,
    ...(sustained && { disable: `${claimed.subscription.consecutiveFailures + 1} failed attempts in a row, the last ending a delivery's whole schedule` }),
  };
}

export class WebhookDispatcher {
  private readonly timeoutMs: number;
  private readonly random: () => number;

  constructor(
    private readonly storage: Storage,
    private readonly options: DispatcherOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.random = options.random ?? Math.random;
  }

  async step(): Promise<StepReport> {
    const report: StepReport = { fannedOut: 0, suppressed: 0, attempted: 0 };
    const now = this.options.clock();
    const settledBefore = new Date(now.getTime() - OUTBOX_SETTLE_MS).toISOString();
    for (const subscription of await this.storage.webhooks.active()) {
      const { pending, suppressed } = await this.storage.webhooks.fanOut(subscription.id, FAN_OUT_BATCH, now.toISOString(), settledBefore);
      report.fannedOut += pending;
      report.suppressed += suppressed;
      this.options.metrics?.countWebhookDelivery("suppressed", suppressed);
    }
    const claimed = await this.storage.webhooks.claimDue(now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString(), SEND_BATCH);
    const recorded = await Promise.all(claimed.map((c) => this.attempt(c)));
    report.attempted = recorded.filter(Boolean).length;
    return report;
  }

  /** One attempt of a claimed delivery, recorded under its lease; false when the lease was lost meanwhile. */
  private async attempt(claimed: ClaimedDelivery): Promise<boolean> {
    const body = await envelope(this.storage, claimed);
    const answer: Answer = body === null ? { error: "the transmission is gone" } : await this.send(claimed, body);
    const outcome = outcomeOf(claimed, answer, this.options.clock(), this.random);
    const held = await this.storage.webhooks.settle(claimed.delivery, outcome);
    if (held) this.options.metrics?.countWebhookDelivery(outcome.status === "pending" ? "retrying" : outcome.status);
    return held;
  }

  private async send(claimed: ClaimedDelivery, body: string): Promise<Answer> {
    const now = this.options.clock();
    try {
      // Resolved and checked now, for this attempt: a name may point elsewhere than at subscription time.
      const { url, addresses } = await resolveDestination(claimed.subscription.url, this.options.policy, this.timeoutMs, this.options.resolve);
      const headers = sign(signingSecrets(claimed.subscription.secrets, now), { id: `msg_${claimed.delivery.id}`, timestamp: Math.floor(now.getTime() / 1000), body });
      return await post(url, addresses, headers, body, this.timeoutMs);
    } catch (error) {
      if (error instanceof DestinationRefused) return { error: `destination refused: ${error.message}` };
      throw error;
    }
  }

  /** Steps every `intervalMs` until stopped (src/stepped-loop.ts). */
  start(intervalMs = 1_000): { stop(): Promise<void> } {
    return runSteps("webhooks", () => this.step(), intervalMs);
  }
}

/** `serve`'s loop: on while transmission is; the stop waits for the step under way, so no attempt is cut off unrecorded. */
export function startWebhookLoop(storage: Storage, clock: Clock, transmission: TransmissionSettings, metrics: Metrics): { stop(): Promise<void> } | null {
  if (transmission.provider === null) return null;
  return new WebhookDispatcher(storage, { clock, policy: transmission.webhooks ?? STRICT_WEBHOOK_DESTINATIONS, metrics }).start();
}
