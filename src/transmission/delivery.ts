// The delivery worker: every instance runs one, and any number of them share the transmissions
// table. A pass claims due transmissions under a lease (one statement, so two instances never take
// the same one), moves each as far as the provider's answers allow, and hands it back with the
// moment its next pass is due. Every move is the repository's compare-and-set plus its event
// (src/db/storage.ts `change`), made on condition that this instance still holds the lease; a move
// that finds its condition gone means another instance moved the transmission first, and this
// pass stops touching it. Nothing here resets anything at start: whatever an instance killed in
// the middle left behind is due again once its lease lapses, and the next pass takes it from the
// status it reached (a `submitting` one by asking the provider first). docs/transmission.md
// "Delivery" states the rules and the figures.

import { runSteps } from "../stepped-loop";
import { sha256Hex } from "../rulesets/seal";
import { storedEvent } from "./first-write";
import type { Clock } from "../clock";
import type { Storage, TransmissionChange, TransmissionPatch, TransmissionRow, WindowOpening } from "../db/storage";
import { windowOpening } from "../accounts/quota";
import type { PlanKey } from "../accounts/plans";
import type { JsonValue } from "./canonical-json";
import { nextEvent } from "./event-chain";
import { AT_RISK_EVENT, billedOn, canTransition, eventFor, isTerminal, TRANSITIONS, type Network, type OutboundStatus } from "./states";
import { statusOfAnswer, UNRESOLVED, type LookupAnswer, type NetworkAnswer, type Provider, type RoutingEnvelope, type SubmitOutcome } from "./provider";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** How long a claim holds a transmission: a killed instance's transmissions are due again after it. */
const LEASE_MS = 30 * SECOND;
/** After the deadline, how long an unresolved recipient or an untaken document is still tried before `failed`. */
const GRACE_MS = 24 * HOUR;
/** The deadline is threatened once less than this share of the time from creation to deadline is left. */
const RISK_SHARE = 0.25;

interface Backoff {
  firstMs: number;
  capMs: number;
}
/** An attempt without an answer: asking the provider again is cheap, so soon, then less often. */
const RETRY: Backoff = { firstMs: 5 * SECOND, capMs: HOUR };
/** An unresolved recipient: someone has to register it or publish the document type, which takes a while. */
const RECHECK: Backoff = { firstMs: 15 * MINUTE, capMs: 6 * HOUR };
/** Reading the answers of a submitted document: in proportion to its age, between these. */
const POLL: Backoff = { firstMs: 2 * SECOND, capMs: HOUR };

/**
 * Exponential with "equal jitter": the k-th wait is drawn from [d/2, d] with d = first·2^(k-1)
 * capped, so instances that failed together do not retry together, and no wait is shorter than half.
 */
function backoffMs(policy: Backoff, k: number, random: () => number): number {
  const d = Math.min(policy.capMs, policy.firstMs * 2 ** Math.max(0, k - 1));
  return d / 2 + (random() * d) / 2;
}

/**
 * A quarter of the transmission's age on the system clock, jittered: a moved sandbox clock makes
 * answers due, not the transmission older, so it does not stretch the reads.
 */
const pollMs = (row: TransmissionRow, now: Date, random: () => number) => {
  const d = Math.min(POLL.capMs, Math.max(POLL.firstMs, (now.getTime() - Date.parse(row.createdAt)) / 4));
  return d / 2 + (random() * d) / 2;
};

const isUnresolved = (state: string | null) => state !== null && (UNRESOLVED as readonly string[]).includes(state);

/** When the deadline becomes threatened by time alone. */
const riskMoment = (row: TransmissionRow) => {
  const created = Date.parse(row.createdAt);
  return created + (1 - RISK_SHARE) * (Date.parse(row.deadlineAt!) - created);
};

/** Threatened: an unresolved recipient (nothing can move until a human acts), or less than RISK_SHARE of the window left. */
function threatened(row: TransmissionRow, networkNow: Date): boolean {
  if (row.deadlineAt === null || row.atRisk) return false;
  return isUnresolved(row.recipientState) || networkNow.getTime() >= riskMoment(row);
}

const pastGrace = (row: TransmissionRow, networkNow: Date) => row.deadlineAt !== null && networkNow.getTime() >= Date.parse(row.deadlineAt) + GRACE_MS;

/** The table's trigger for a status change: the row from this very status, else the one "any non-terminal" row; a move with several must name its own. */
function triggerOf(from: OutboundStatus, to: OutboundStatus): string {
  const rows = TRANSITIONS.outbound.filter((r) => r.to === to && (r.from === from || r.from === "non-terminal"));
  const exact = rows.filter((r) => r.from === from);
  const candidates = exact.length ? exact : rows;
  if (candidates.length !== 1) throw new Error(`${candidates.length} outbound transitions ${from} -> ${to}: the move names its trigger`);
  return candidates[0].trigger;
}


const envelopeOf = (row: TransmissionRow): RoutingEnvelope => ({
  network: row.network as Network,
  sender: { scheme: row.senderScheme, id: row.senderId },
  recipient: { scheme: row.counterpartyScheme, id: row.counterpartyId },
  documentTypeId: row.documentTypeId,
  processId: row.processId,
});

const RELEASE: TransmissionPatch = { leaseOwner: null, leaseUntil: null };
const SETTLED: TransmissionPatch = { ...RELEASE, nextAttemptAt: null };

export interface DeliveryOptions {
  storage: Storage;
  clock: Clock;
  provider: Provider;
  /** The network's time for an organization: the sandbox's clock, or the system clock for a real network. */
  networkNow(orgId: string): Promise<Date>;
  /** This instance, as leases name it. */
  owner: string;
  batch?: number;
  random?: () => number;
  log?: (line: string) => void;
  /** Told each status a transmission reaches (the operator metrics count them). */
  reached?: (status: OutboundStatus) => void;
}

interface Move {
  to: OutboundStatus;
  /** The table's trigger; when omitted, the one row from this status (or from any non-terminal one) to `to`. */
  trigger?: string;
  /** The event's type when no status event names it (the table's trigger otherwise). */
  type?: string;
  data?: { [key: string]: JsonValue };
  patch?: TransmissionPatch;
  expectNotAtRisk?: boolean;
  /** No event: a schedule or a counter, not a step of the audit trail. */
  silent?: boolean;
  bill?: WindowOpening;
}

export class DeliveryWorker {
  private readonly batch: number;
  private readonly random: () => number;
  private loop: { stop(): Promise<void> } | null = null;

  constructor(private readonly options: DeliveryOptions) {
    this.batch = options.batch ?? 20;
    this.random = options.random ?? Math.random;
  }

  /** One pass: claims what is due and moves each; returns how many it claimed. */
  async step(): Promise<number> {
    const { storage, clock, owner } = this.options;
    const now = clock();
    const claimed = await storage.transmissions.claimDue(owner, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString(), this.batch);
    await Promise.all(
      claimed.map((row) =>
        this.pass(row).catch((error) => this.options.log?.(`delivery: ${row.id}: ${(error as Error).message} (due again when the lease lapses)`)),
      ),
    );
    return claimed.length;
  }

  /** Passes until nothing is due (tests drive the worker this way). */
  async drain(): Promise<void> {
    while ((await this.step()) > 0);
  }

  /** Runs passes until stop(): at once while the batches come back full, else every `idleMs`. */
  start(idleMs = 250): void {
    this.loop ??= runSteps("delivery", async () => (await this.step()) >= this.batch, idleMs);
  }

  /** Lets the running pass finish (its leases released by its own moves) and stops. */
  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = null;
  }

  private async pass(claimed: TransmissionRow): Promise<void> {
    if (isTerminal("outbound", claimed.status as OutboundStatus, claimed.network as Network)) {
      await this.move(claimed, { to: claimed.status as OutboundStatus, silent: true, patch: SETTLED });
      return;
    }
    const networkNow = await this.options.networkNow(claimed.orgId);
    let row: TransmissionRow | undefined = claimed;
    if (threatened(row, networkNow)) {
      // A flag, not a transition: its trigger names why, outside the table.
      row = await this.move(row, { to: row.status as OutboundStatus, trigger: "deadline_threatened", type: AT_RISK_EVENT, expectNotAtRisk: true, patch: { atRisk: true }, data: { deadlineAt: row.deadlineAt! } });
      if (!row) return;
    }
    if (row.status === "queued") return this.fromQueue(row, networkNow);
    if (row.status === "submitting") return this.reconcile(row, networkNow);
    return this.poll(row, networkNow);
  }

  /** The recipient lookup, then the reference and `submitting` written, then the submission. */
  private async fromQueue(row: TransmissionRow, networkNow: Date): Promise<void> {
    const { provider, storage } = this.options;
    const n = row.attemptCount + 1;
    const ref = row.providerRef ?? `ref_${crypto.randomUUID().replaceAll("-", "")}`;
    await this.startAttempt(row, n, ref);
    let lookup: LookupAnswer;
    try {
      lookup = await provider.lookup(row.network as Network, envelopeOf(row).recipient, row.documentTypeId);
    } catch {
      lookup = "lookup_failed";
    }
    if (isUnresolved(lookup)) return this.escalate(row, n, ref, lookup, networkNow);
    let current: TransmissionRow | undefined = row;
    if (lookup === "lookup_failed" && row.recipientState !== "lookup_failed") {
      current = await this.move(row, { to: "queued", trigger: "lookup_unanswered", data: { attempt: n }, patch: { recipientState: lookup } });
      if (!current) return;
    }
    if (current.document === null) {
      await storage.delivery.finishAttempt(row.id, n, { finishedAt: this.now(), outcome: "not_sent", detail: "the document was purged before it could be sent", nextAttemptAt: null });
      await this.move(current, { to: "failed", trigger: "permanent_failure", data: { attempt: n, reason: "document purged before delivery" }, patch: { ...SETTLED, attemptCount: n, escalation: "the document was purged under retention before it could be sent" } });
      return;
    }
    // The reference is on the row before the provider hears of it: whatever happens next, the next pass can ask for it.
    const submitting = await this.move(current, { to: "submitting", data: { attempt: n, ref }, patch: { providerRef: ref, attemptCount: n, recipientState: lookup, escalation: null } });
    if (submitting) await this.submit(submitting, n, ref, networkNow);
  }

  /** Not in directory, not served, type not published: open, escalated, looked up again later; failed past deadline and grace. */
  private async escalate(row: TransmissionRow, n: number, ref: string, lookup: LookupAnswer, networkNow: Date): Promise<void> {
    const escalation = `recipient ${row.counterpartyScheme}:${row.counterpartyId}: ${lookup.replaceAll("_", " ")} on ${row.network}`;
    if (pastGrace(row, networkNow)) {
      await this.finishAttempt(row, n, lookup, "deadline and grace window elapsed with the recipient unresolved", null);
      await this.move(row, { to: "failed", trigger: "deadline_passed", data: { attempt: n, lookup }, patch: { ...SETTLED, attemptCount: n, providerRef: ref, recipientState: lookup, escalation: `${escalation}; deadline and grace window elapsed` } });
      return;
    }
    const unresolved = { ...row, recipientState: lookup };
    const flag = threatened(unresolved, networkNow);
    const next = this.dueAt({ ...unresolved, atRisk: row.atRisk || flag }, networkNow, backoffMs(RECHECK, n, this.random));
    await this.finishAttempt(row, n, lookup, escalation, next);
    // One event per answer that changes, not one per look.
    const moved = await this.move(row, { to: "queued", trigger: "recipient_not_served", data: { attempt: n, lookup }, patch: { attemptCount: n, providerRef: ref, recipientState: lookup, escalation, nextAttemptAt: next }, silent: row.recipientState === lookup });
    if (!moved) return;
    await this.move(
      moved,
      flag
        ? { to: "queued", trigger: "deadline_threatened", type: AT_RISK_EVENT, expectNotAtRisk: true, patch: { ...RELEASE, atRisk: true }, data: { deadlineAt: moved.deadlineAt!, lookup } }
        : { to: "queued", silent: true, patch: RELEASE },
    );
  }

  private async submit(row: TransmissionRow, n: number, ref: string, networkNow: Date): Promise<void> {
    let outcome: SubmitOutcome;
    try {
      outcome = await this.options.provider.submit({ ref, transmission: row, document: row.document!, envelope: envelopeOf(row) });
    } catch (error) {
      outcome = { outcome: "unknown", detail: (error as Error).message };
    }
    if (outcome.outcome === "accepted") {
      await this.finishAttempt(row, n, "accepted", outcome.code, null);
      const submitted = await this.move(row, { to: "submitted", data: { attempt: n, code: outcome.code } });
      // A network that answers at once settles in this pass.
      if (submitted) await this.poll(submitted, networkNow);
    } else if (outcome.outcome === "refused") {
      await this.finishAttempt(row, n, "refused", outcome.reasons.join("; "), null);
      await this.move(row, { to: "rejected", data: { attempt: n, reasons: outcome.reasons }, patch: SETTLED });
    } else if (outcome.outcome === "retry") {
      const next = this.dueAt(row, networkNow, backoffMs(RETRY, n, this.random));
      await this.finishAttempt(row, n, "retry", outcome.detail, next);
      // Back in the queue, but no second transmission.queued: that event announces acceptance.
      await this.move(row, { to: "queued", type: "attempt_retryable", data: { attempt: n, detail: outcome.detail }, patch: { ...RELEASE, nextAttemptAt: next } });
    } else {
      const next = this.dueAt(row, networkNow, backoffMs(RETRY, n, this.random));
      await this.finishAttempt(row, n, "unknown", outcome.detail, next);
      await this.move(row, { to: "submitting", trigger: "attempt_unanswered", data: { attempt: n, detail: outcome.detail }, patch: { ...RELEASE, nextAttemptAt: next } });
    }
  }

  /** An attempt that ended without an answer: ask the provider for the reference first; send only if it has none. */
  private async reconcile(row: TransmissionRow, networkNow: Date): Promise<void> {
    const { provider } = this.options;
    const ref = row.providerRef!;
    const n = row.attemptCount + 1;
    await this.startAttempt(row, n, ref);
    let status;
    try {
      status = await provider.status(ref);
    } catch (error) {
      const next = this.dueAt(row, networkNow, backoffMs(RETRY, n, this.random));
      await this.finishAttempt(row, n, "unknown", `status: ${(error as Error).message}`, next);
      await this.move(row, { to: "submitting", silent: true, patch: { ...RELEASE, attemptCount: n, nextAttemptAt: next } });
      return;
    }
    if (status.found && status.refused) {
      await this.finishAttempt(row, n, "refused", `the provider holds ${ref} and refused it: ${status.refused.join("; ")}`, null);
      await this.move(row, { to: "rejected", data: { attempt: n, reconciled: true, reasons: status.refused }, patch: { ...SETTLED, attemptCount: n } });
      return;
    }
    if (status.found) {
      await this.finishAttempt(row, n, "found", `the provider holds ${ref}: not sent again`, null);
      const submitted = await this.move(row, { to: "submitted", data: { attempt: n, reconciled: true }, patch: { attemptCount: n } });
      if (submitted) await this.apply(submitted, status.answers, networkNow);
      return;
    }
    if (pastGrace(row, networkNow)) {
      await this.finishAttempt(row, n, "not_found", "no provider took it before the deadline and grace window elapsed", null);
      await this.move(row, { to: "failed", trigger: "permanent_failure", data: { attempt: n }, patch: { ...SETTLED, attemptCount: n, escalation: "never taken by the network before the deadline and grace window elapsed" } });
      return;
    }
    const counted = await this.move(row, { to: "submitting", silent: true, patch: { attemptCount: n } });
    if (counted) await this.submit(counted, n, ref, networkNow);
  }

  private async poll(row: TransmissionRow, networkNow: Date): Promise<void> {
    let answers: NetworkAnswer[] = [];
    try {
      const status = await this.options.provider.status(row.providerRef!);
      if (status.found) answers = status.answers;
    } catch (error) {
      this.options.log?.(`delivery: ${row.id}: status: ${(error as Error).message}`);
    }
    await this.apply(row, answers, networkNow);
  }

  /** Keeps each answer's proof, moves through the statuses the answers map to, bills a delivery, and schedules the next read. */
  private async apply(start: TransmissionRow, answers: readonly NetworkAnswer[], networkNow: Date): Promise<void> {
    const { storage } = this.options;
    const network = start.network as Network;
    let row: TransmissionRow | undefined = start;
    for (const answer of answers) {
      const receipt = sha256Hex(answer.proof);
      await storage.delivery.addReceipt({ transmissionId: row.id, kind: answer.kind, networkCode: answer.code, at: answer.at, sha256: receipt, proof: answer.proof });
      const to = statusOfAnswer(network, answer);
      const from = row.status as OutboundStatus;
      if (to === null || to === from || !canTransition("outbound", from, to, network)) continue;
      const terminal = isTerminal("outbound", to, network);
      const bill = await this.billFor(row, to);
      row = await this.move(row, {
        to,
        // A network's own verdict of impossible delivery (SDI AT), not a deadline.
        ...(to === "failed" && { trigger: "permanent_failure" }),
        data: { code: answer.code, receipt, ...(answer.reasons && { reasons: answer.reasons }) },
        patch: { ...(terminal && SETTLED), ...(bill && { billedAt: this.now() }) },
        ...(bill && { bill }),
      });
      if (!row || terminal) return;
    }
    await this.move(row, { to: row.status as OutboundStatus, silent: true, patch: { ...RELEASE, nextAttemptAt: this.dueAt(row, networkNow, pollMs(row, this.options.clock(), this.random)) } });
  }

  /** One unit in the window of the moment it is delivered: live keys only (a test key never bills), once. */
  private async billFor(row: TransmissionRow, to: OutboundStatus): Promise<WindowOpening | undefined> {
    if (!billedOn(row.network as Network, to) || !row.livemode || row.billedAt !== null) return undefined;
    const org = await this.options.storage.orgs.byId(row.orgId);
    if (!org) throw new Error(`organization ${row.orgId} is gone`);
    return windowOpening(this.options.clock(), { id: org.id, plan: org.plan as PlanKey, billingDay: org.billingDay }, true);
  }

  /**
   * The next pass on the system clock: after `waitMs` on the network's clock, or sooner when the
   * deadline becomes threatened or (for what no provider holds yet) its grace window ends.
   */
  private dueAt(row: TransmissionRow, networkNow: Date, waitMs: number): string {
    let wait = waitMs;
    if (row.deadlineAt !== null) {
      if (!row.atRisk) wait = Math.min(wait, riskMoment(row) - networkNow.getTime());
      const untaken = row.status === "submitting" || (row.status === "queued" && isUnresolved(row.recipientState));
      if (untaken) wait = Math.min(wait, Date.parse(row.deadlineAt) + GRACE_MS - networkNow.getTime());
    }
    return new Date(this.options.clock().getTime() + Math.max(0, wait)).toISOString();
  }

  private now(): string {
    return this.options.clock().toISOString();
  }

  private async startAttempt(row: TransmissionRow, n: number, ref: string): Promise<void> {
    // False when an instance killed during attempt n left its row: that row is this attempt's.
    await this.options.storage.delivery.startAttempt({ transmissionId: row.id, n, provider: this.options.provider.name, providerRef: ref, startedAt: this.now(), finishedAt: null, outcome: null, detail: null, nextAttemptAt: null });
  }

  private finishAttempt(row: TransmissionRow, n: number, outcome: string, detail: string, nextAttemptAt: string | null): Promise<void> {
    return this.options.storage.delivery.finishAttempt(row.id, n, { finishedAt: this.now(), outcome, detail, nextAttemptAt });
  }

  /**
   * One compare-and-set from the status the row was read in, held to this instance's lease, with
   * its event. Undefined when the condition is gone: another instance moved it, and it is theirs.
   */
  private async move(row: TransmissionRow, move: Move): Promise<TransmissionRow | undefined> {
    const from = row.status as OutboundStatus;
    const network = row.network as Network;
    // A silent change that keeps the status is a schedule (even of a terminal one), not a transition.
    const schedule = move.silent && move.to === from;
    if (!schedule && !canTransition("outbound", from, move.to, network)) throw new Error(`${row.id}: no move ${from} -> ${move.to} on ${network}`);
    const at = this.options.clock();
    const change: TransmissionChange = {
      from,
      to: move.to,
      expect: { leaseOwner: this.options.owner, ...(move.expectNotAtRisk && { atRisk: false }) },
      patch: move.patch,
      ...(move.bill && { bill: move.bill }),
      at: at.toISOString(),
    };
    if (!move.silent) {
      const trigger = move.trigger ?? triggerOf(from, move.to);
      const type = move.type ?? (move.to !== from ? eventFor("outbound", move.to) : null) ?? trigger;
      change.event = (head) => storedEvent(nextEvent(head, row.id, { type, status: move.to, at, data: { trigger, ...move.data } }));
    }
    const moved = await this.options.storage.transmissions.change(row.id, change);
    if (moved && move.to !== from) this.options.reached?.(move.to);
    return moved;
  }
}
