// The delivery worker over the sandbox network, through HTTP: one row per outbound transition and
// per sandbox scenario on every network: the status reached, the verified events, the attempts,
// the receipts (each with the SHA-256 of its proof), escalation, atRisk, failed after deadline and
// grace, billing (one live unit on delivered or KSeF cleared, never on rejected or failed, never
// for a test key) and how often the sandbox received the document. The worker runs pass by pass
// and the sandbox clock is moved by hand, so hours and days play in milliseconds.

import { beforeAll, describe, expect, test } from "bun:test";
import { envelope, startHarness, startValidatingHarness } from "../support/harness";
import { corpusMissing } from "../support/corpus";
import { cannotRun } from "../support/requirements";
import { postgresMissing } from "../support/postgres";
import type { ParticipantId } from "../../src/transmission/identifiers";
import { nextEvent } from "../../src/transmission/event-chain";
import { storedEvent } from "../../src/transmission/first-write";
import { sandboxProvider } from "../../src/transmission/sandbox/provider";
import type { Network } from "../../src/transmission/states";
import { DAY, HOUR, MINUTE, SANDBOX, SELLER, generatedInvoice, newSender, postTransmission, queueDirectly, readBack, startPostgresApi, testWorker, type Api, type Sender } from "./delivery-support";


interface Row {
  name: string;
  network: Network;
  recipient: ParticipantId;
  /** Sandbox clock moves after the first pass, each followed by passes until nothing is due. */
  advances: number[];
  status: string;
  /** Event types after transmission.queued. */
  events: string[];
  attempts: string[];
  receipts: string[];
  /** Live units the transmission bills. */
  billed: 0 | 1;
  escalation?: RegExp;
  /** How many submissions the sandbox recorded under the reference (0: it never received it). */
  received: number;
  mode?: "live" | "test";
  /** ppf_pdp needs a French CTC document: queued through the storage, as creation would. */
  direct?: boolean;
}

const peppol = (id: string): ParticipantId => ({ scheme: "0060", id });
const DELIVERED = ["attempt_started", "transmission.submitted", "transmission.cleared", "transmission.delivered"];

const ROWS: Row[] = [
  { name: "peppol delivers", network: "peppol", recipient: peppol("acme"), advances: [MINUTE], status: "delivered", events: DELIVERED, attempts: ["accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AP"], billed: 1, received: 1 },
  { name: "peppol delivers after a delay", network: "peppol", recipient: peppol("acme-slow"), advances: [MINUTE, 2 * HOUR], status: "delivered", events: DELIVERED, attempts: ["accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AB"], billed: 1, received: 1 },
  { name: "peppol refused at submission with reasons", network: "peppol", recipient: peppol("acme-rejects"), advances: [], status: "rejected", events: ["attempt_started", "transmission.rejected"], attempts: ["refused"], receipts: [], billed: 0, received: 1 },
  { name: "peppol MLS RE after the AS4 receipt", network: "peppol", recipient: peppol("acme-negative"), advances: [MINUTE, 10 * MINUTE], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.cleared", "transmission.rejected"], attempts: ["accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_RE"], billed: 0, received: 1 },
  { name: "not in directory: open, escalated, looked up again", network: "peppol", recipient: peppol("acme-notlisted"), advances: [15 * MINUTE], status: "queued", events: ["recipient_not_served"], attempts: ["not_in_directory", "not_in_directory"], receipts: [], billed: 0, escalation: /not in directory/, received: 0 },
  { name: "registered but not served", network: "peppol", recipient: peppol("acme-notserved"), advances: [], status: "queued", events: ["recipient_not_served"], attempts: ["not_served"], receipts: [], billed: 0, escalation: /not served/, received: 0 },
  { name: "document type not published", network: "peppol", recipient: peppol("acme-nodoctype"), advances: [], status: "queued", events: ["recipient_not_served"], attempts: ["doctype_not_published"], receipts: [], billed: 0, escalation: /doctype not published/, received: 0 },
  { name: "the lookup does not answer: sent anyway", network: "peppol", recipient: peppol("acme-lookuptimeout"), advances: [MINUTE], status: "delivered", events: ["lookup_unanswered", ...DELIVERED], attempts: ["accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AP"], billed: 1, received: 1 },
  { name: "accepted, answer lost, then silence: reconciled to submitted, not sent again", network: "peppol", recipient: peppol("acme-silent"), advances: [10_000, HOUR], status: "submitted", events: ["attempt_started", "attempt_unanswered", "transmission.submitted"], attempts: ["unknown", "found"], receipts: ["provider_accepted"], billed: 0, received: 1 },
  { name: "crash after send: the provider has it, so it is not sent again", network: "peppol", recipient: peppol("acme-crash"), advances: [10_000], status: "delivered", events: ["attempt_started", "attempt_unanswered", "transmission.submitted", "transmission.cleared", "transmission.delivered"], attempts: ["unknown", "found"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AP"], billed: 1, received: 1 },
  { name: "lost before arrival: the provider has none, so it is sent again", network: "peppol", recipient: peppol("acme-lost"), advances: [10_000, MINUTE], status: "delivered", events: ["attempt_started", "attempt_unanswered", "transmission.submitted", "transmission.cleared", "transmission.delivered"], attempts: ["unknown", "accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AP"], billed: 1, received: 1 },
  { name: "busy at first: back in the queue, then delivered", network: "peppol", recipient: peppol("acme-busy"), advances: [10_000], status: "delivered", events: ["attempt_started", "attempt_retryable", ...DELIVERED], attempts: ["retry", "accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AP"], billed: 1, received: 1 },
  { name: "a test key's delivery bills nothing", network: "peppol", recipient: peppol("acme-test"), advances: [MINUTE], status: "delivered", events: DELIVERED, attempts: ["accepted"], receipts: ["provider_accepted", "AS4_RECEIPT", "MLS_AP"], billed: 0, received: 1, mode: "test" },
  { name: "sdi to a business: RC delivers", network: "sdi", recipient: peppol("it-acme"), advances: [MINUTE], status: "delivered", events: ["attempt_started", "transmission.submitted", "transmission.delivered"], attempts: ["accepted"], receipts: ["IdentificativoSdI", "RC"], billed: 1, received: 1 },
  { name: "sdi NS discards the file", network: "sdi", recipient: peppol("it-rejects"), advances: [10 * MINUTE], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.rejected"], attempts: ["accepted"], receipts: ["IdentificativoSdI", "NS"], billed: 0, received: 1 },
  { name: "sdi to a PA: RC clears, NE EC01 delivers", network: "sdi", recipient: { scheme: "0201", id: "pa-acme" }, advances: [MINUTE, DAY], status: "delivered", events: DELIVERED, attempts: ["accepted"], receipts: ["IdentificativoSdI", "RC", "NE_EC01"], billed: 1, received: 1 },
  { name: "sdi to a PA that never answers: DT after 15 days delivers", network: "sdi", recipient: { scheme: "0201", id: "pa-slow" }, advances: [MINUTE, 15 * DAY], status: "delivered", events: DELIVERED, attempts: ["accepted"], receipts: ["IdentificativoSdI", "RC", "DT"], billed: 1, received: 1 },
  { name: "sdi to a PA: NE EC02 rejects after RC", network: "sdi", recipient: { scheme: "0201", id: "pa-negative" }, advances: [MINUTE, DAY], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.cleared", "transmission.rejected"], attempts: ["accepted"], receipts: ["IdentificativoSdI", "RC", "NE_EC02"], billed: 0, received: 1 },
  { name: "ksef UPO clears, terminal and billed", network: "ksef", recipient: peppol("pl-acme"), advances: [MINUTE], status: "cleared", events: ["attempt_started", "transmission.submitted", "transmission.cleared"], attempts: ["accepted"], receipts: ["accepted", "UPO"], billed: 1, received: 1 },
  { name: "ksef refuses", network: "ksef", recipient: peppol("pl-rejects"), advances: [MINUTE], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.rejected"], attempts: ["accepted"], receipts: ["accepted", "refused"], billed: 0, received: 1 },
  { name: "ksef refuses after processing", network: "ksef", recipient: peppol("pl-negative"), advances: [MINUTE, 10 * MINUTE], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.rejected"], attempts: ["accepted"], receipts: ["accepted", "refused"], billed: 0, received: 1 },
  { name: "choruspro makes it available", network: "choruspro", recipient: peppol("fr-acme"), advances: [MINUTE], status: "delivered", events: ["attempt_started", "transmission.submitted", "transmission.delivered"], attempts: ["accepted"], receipts: ["DEPOSEE", "MISE_A_DISPOSITION"], billed: 1, received: 1 },
  { name: "choruspro returns it for correction", network: "choruspro", recipient: peppol("fr-negative"), advances: [MINUTE, HOUR], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.rejected"], attempts: ["accepted"], receipts: ["DEPOSEE", "A_RECYCLER"], billed: 0, received: 1 },
  { name: "ppf_pdp received, then made available", network: "ppf_pdp", recipient: peppol("fr-acme"), advances: [MINUTE], status: "delivered", events: DELIVERED, attempts: ["accepted"], receipts: ["200_DEPOSEE", "202_RECUE", "203_MISE_A_DISPOSITION"], billed: 1, received: 1, direct: true },
  { name: "ppf_pdp rejected by the platform", network: "ppf_pdp", recipient: peppol("fr-rejects"), advances: [MINUTE], status: "rejected", events: ["attempt_started", "transmission.submitted", "transmission.rejected"], attempts: ["accepted"], receipts: ["200_DEPOSEE", "213_REJETEE"], billed: 0, received: 1, direct: true },
];

const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");

const SETUPS: { name: string; missing: string | null; start(): Api }[] = [
  { name: "SQLite", missing: corpusMissing, start: () => startValidatingHarness({ config: { transmission: SANDBOX } }) },
  { name: "PostgreSQL", missing: corpusMissing ?? postgresMissing(), start: startPostgresApi },
];

for (const setup of SETUPS) describe.skipIf(cannotRun(`delivery through the sandbox on ${setup.name}`, setup.missing))(`delivery through the sandbox (${setup.name})`, () => {
  const h = setup.start();
  // Made once the storage is open (PostgreSQL opens it in a hook).
  let worker: ReturnType<typeof testWorker>;
  beforeAll(() => {
    worker = testWorker(h.storage, h.clock.read);
  });
  let addressed: (recipient: ParticipantId) => string;

  const send = (sender: Sender, network: Network, recipient: ParticipantId, extra: Record<string, unknown> = {}, key = sender.live) =>
    postTransmission(h, key, { network, sender: SELLER, recipient, format: "ubl", xml: addressed(recipient), ...extra });

  /** Passes until nothing is due, then each clock move followed by passes again. */
  async function play(sender: Sender, advances: number[]): Promise<void> {
    await worker.drain();
    for (const ms of advances) {
      await h.storage.sandbox.advance(sender.org.id, ms);
      await worker.drain();
    }
  }

  const receivedCount = async (id: string) => {
    const row = (await h.storage.sandbox.all()).find((r) => r.transmissionId === id);
    return row ? JSON.parse(row.state).submissions : 0;
  };

  test("setup: a Peppol invoice generated by the API, addressed to each sandbox recipient in turn", async () => {
    const sender = await newSender(h, "generator");
    addressed = await generatedInvoice(h, sender.live);
  });

  for (const row of ROWS) {
    test(`${row.name}: ${row.status}`, async () => {
      const sender = await newSender(h, "row");
      const key = row.mode === "test" ? sender.test : sender.live;
      const id = row.direct
        ? await queueDirectly(h.storage, h.clock.now, { orgId: sender.org.id, livemode: true, network: row.network, recipient: row.recipient, xml: addressed(row.recipient) })
        : await send(sender, row.network, row.recipient, {}, key);
      await play(sender, row.advances);

      const seen = await readBack(h, key, id);
      expect(seen.transmission).toMatchObject({ id, status: row.status, network: row.network, atRisk: false });
      expect(seen.events.chainOk).toBe(true);
      expect(seen.events.items.map((e: { type: string }) => e.type)).toEqual(["transmission.queued", ...row.events]);
      expect(seen.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(row.attempts);
      // One reference for every attempt of a transmission, written before the first call.
      expect(new Set(seen.attempts.map((a: { providerRef: string }) => a.providerRef)).size).toBe(seen.attempts.length ? 1 : 0);
      expect(seen.attempts.every((a: { provider: string }) => a.provider === "sandbox")).toBe(true);
      expect(seen.receipts.map((r: { networkCode: string }) => r.networkCode)).toEqual(row.receipts);
      for (const receipt of seen.receipts) expect(receipt.sha256).toBe(sha256(receipt.proof));
      const stored = (await h.storage.transmissions.byId(sender.org.id, id))!;
      if (row.escalation) expect(stored.escalation).toMatch(row.escalation);
      else expect(stored.escalation).toBeNull();
      expect(await receivedCount(id)).toBe(row.received);
      expect(await sender.used(true)).toBe(row.billed);
      expect(await sender.used(false)).toBe(0);
      expect(stored.billedAt !== null).toBe(row.billed === 1);
      // Settled ones are no longer scheduled; open ones always are (nothing is left behind).
      expect(stored.nextAttemptAt === null).toBe(["delivered", "rejected", "failed"].includes(row.status) || (row.network === "ksef" && row.status === "cleared"));
      expect(stored.leaseOwner).toBeNull();
    });
  }

  test("a failed attempt records when its retry is due, and the retry history reads in order", async () => {
    const sender = await newSender(h, "retries");
    const id = await send(sender, "peppol", peppol("retry-lost"));
    await play(sender, [10_000, MINUTE]);
    const { attempts } = await readBack(h, sender.live, id);
    expect(attempts).toMatchObject([
      { n: 1, provider: "sandbox", outcome: "unknown", detail: expect.stringContaining("lost before arrival") },
      { n: 2, provider: "sandbox", outcome: "accepted", detail: "provider_accepted", nextAttemptAt: null },
    ]);
    // Backoff 5 s with the jitter fixed at 3/4: due 3.75 s after the first attempt ended.
    expect(Date.parse(attempts[0].nextAttemptAt) - Date.parse(attempts[0].finishedAt)).toBe(3750);
  });

  test("deadline with the recipient unresolved: at risk at once (event), failed after deadline plus grace (escalated, never billed)", async () => {
    const sender = await newSender(h, "deadline");
    const deadlineAt = new Date(h.clock.now.getTime() + 2 * DAY).toISOString();
    const id = await send(sender, "peppol", peppol("late-notlisted"), { deadlineAt });
    await play(sender, []);
    let seen = await readBack(h, sender.live, id);
    expect(seen.transmission).toMatchObject({ status: "queued", atRisk: true, deadlineAt });
    expect(seen.events.items.map((e: { type: string }) => e.type)).toEqual(["transmission.queued", "recipient_not_served", "transmission.at_risk"]);
    // A day before the deadline plus grace: still open, looked up again, no second at_risk.
    await play(sender, [2 * DAY]);
    seen = await readBack(h, sender.live, id);
    expect(seen.transmission.status).toBe("queued");
    await play(sender, [DAY]);
    seen = await readBack(h, sender.live, id);
    expect(seen.transmission).toMatchObject({ status: "failed", atRisk: true });
    expect(seen.events.chainOk).toBe(true);
    expect(seen.events.items.map((e: { type: string }) => e.type)).toEqual(["transmission.queued", "recipient_not_served", "transmission.at_risk", "transmission.failed"]);
    expect(seen.events.items.at(-1).data).toMatchObject({ trigger: "deadline_passed", lookup: "not_in_directory" });
    const stored = (await h.storage.transmissions.byId(sender.org.id, id))!;
    expect(stored.escalation).toMatch(/deadline and grace window elapsed/);
    expect(stored.nextAttemptAt).toBeNull();
    expect(await sender.used()).toBe(0);
  });

  test("an attempt lost in transit with the deadline and grace gone by before the retry: the provider has none, so failed (permanent failure), never sent", async () => {
    const sender = await newSender(h, "transport");
    const id = await send(sender, "peppol", peppol("gone-lost"), { deadlineAt: new Date(h.clock.now.getTime() + HOUR).toISOString() });
    await play(sender, [2 * DAY]);
    const seen = await readBack(h, sender.live, id);
    expect(seen.transmission).toMatchObject({ status: "failed", atRisk: true });
    expect(seen.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(["unknown", "not_found"]);
    expect(seen.events.items.map((e: { type: string }) => e.type)).toEqual(["transmission.queued", "attempt_started", "attempt_unanswered", "transmission.at_risk", "transmission.failed"]);
    expect(seen.events.items.at(-1).data).toMatchObject({ trigger: "permanent_failure" });
    expect(await receivedCount(id)).toBe(0);
    expect(await sender.used()).toBe(0);
  });

  test("deadline threatened by time: at_risk fires once when a quarter of the window is left; a network that holds the document is never failed for it", async () => {
    const sender = await newSender(h, "threatened");
    const deadlineAt = new Date(h.clock.now.getTime() + 4 * HOUR).toISOString();
    const id = await send(sender, "peppol", peppol("late-silent"), { deadlineAt });
    await play(sender, [10_000, HOUR]);
    expect((await readBack(h, sender.live, id)).transmission).toMatchObject({ status: "submitted", atRisk: false });
    await play(sender, [2 * HOUR + 10 * MINUTE]);
    let seen = await readBack(h, sender.live, id);
    expect(seen.transmission).toMatchObject({ status: "submitted", atRisk: true });
    expect(seen.events.items.filter((e: { type: string }) => e.type === "transmission.at_risk")).toHaveLength(1);
    await play(sender, [3 * DAY, 3 * DAY]);
    seen = await readBack(h, sender.live, id);
    expect(seen.transmission).toMatchObject({ status: "submitted", atRisk: true });
    expect(seen.events.items.filter((e: { type: string }) => e.type === "transmission.at_risk")).toHaveLength(1);
    expect(seen.events.chainOk).toBe(true);
  });

  test("delivered well before its deadline: never at risk", async () => {
    const sender = await newSender(h, "ontime");
    const id = await send(sender, "peppol", peppol("ontime"), { deadlineAt: new Date(h.clock.now.getTime() + 2 * DAY).toISOString() });
    await play(sender, [MINUTE]);
    const seen = await readBack(h, sender.live, id);
    expect(seen.transmission).toMatchObject({ status: "delivered", atRisk: false });
    expect(seen.events.items.map((e: { type: string }) => e.type)).not.toContain("transmission.at_risk");
  });

  // An instance killed after the provider answered and before it recorded the answer: the next pass asks the provider and takes its word.
  for (const [recipient, status, outcome] of [
    ["killed-acme", "delivered", "found"],
    ["killed-rejects", "rejected", "refused"],
    ["killed-crash", "delivered", "found"],
  ] as const) {
    test(`killed between the provider's answer and the move (${recipient}): ${status} on the next pass, never sent again`, async () => {
      const sender = await newSender(h, "killed");
      const id = await send(sender, "peppol", peppol(recipient));
      const queued = (await h.storage.transmissions.byId(sender.org.id, id))!;
      const ref = `ref_${id}`;
      const at = h.clock.now;
      const submitting = (await h.storage.transmissions.change(id, {
        from: "queued",
        to: "submitting",
        patch: { providerRef: ref, attemptCount: 1 },
        event: (head) => storedEvent(nextEvent(head, id, { type: "attempt_started", status: "submitting", at, data: { trigger: "attempt_started", attempt: 1, ref } })),
        at: at.toISOString(),
      }))!;
      const provider = sandboxProvider(h.storage, h.clock.read);
      const envelope = { network: "peppol" as const, sender: SELLER, recipient: peppol(recipient), documentTypeId: queued.documentTypeId, processId: queued.processId };
      await provider.submit({ ref, transmission: submitting, document: submitting.document!, envelope }).catch(() => {});
      await play(sender, [MINUTE]);
      const seen = await readBack(h, sender.live, id);
      expect(seen.transmission.status).toBe(status);
      expect(seen.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([outcome]);
      expect(seen.events.chainOk).toBe(true);
      expect(await receivedCount(id)).toBe(1);
      expect(await sender.used()).toBe(status === "delivered" ? 1 : 0);
    });
  }

  test("two workers draining at once: each transmission received once, moved once per step, billed once", async () => {
    const sender = await newSender(h, "pair");
    const ids = [];
    for (const suffix of ["a", "b-crash", "c-lost", "d", "e-negative", "f"]) ids.push(await send(sender, "peppol", peppol(`pair-${suffix}`)));
    const other = testWorker(h.storage, h.clock.read, "other-worker");
    for (const ms of [0, 10_000, MINUTE, 10 * MINUTE]) {
      if (ms) await h.storage.sandbox.advance(sender.org.id, ms);
      await Promise.all([worker.drain(), other.drain()]);
    }
    const rows = await Promise.all(ids.map((id) => h.storage.transmissions.byId(sender.org.id, id)));
    expect(rows.map((r) => r!.status)).toEqual(["delivered", "delivered", "delivered", "delivered", "rejected", "delivered"]);
    for (const id of ids) expect(await receivedCount(id)).toBe(1);
    for (const id of ids) expect((await readBack(h, sender.live, id)).events.chainOk).toBe(true);
    expect(await sender.used()).toBe(5);
  });

  test("attempts and receipts are the organization's own: another organization's id is 404", async () => {
    const sender = await newSender(h, "owner");
    const stranger = await newSender(h, "stranger");
    const id = await send(sender, "peppol", peppol("owned"));
    await play(sender, [MINUTE]);
    for (const path of ["/attempts", "/receipts"]) {
      expect((await h.get(`/v1/transmissions/${id}${path}`, sender.test)).status).toBe(200);
      expect((await h.get(`/v1/transmissions/${id}${path}`, stranger.live)).status).toBe(404);
    }
  });
});

describe("attempts and receipts with transmission off", () => {
  const off = startHarness();
  test("503 TRANSMISSION_DISABLED, like every transmission route", async () => {
    const key = await off.key(await off.org("off", "scale"), "live");
    for (const path of ["/attempts", "/receipts"]) {
      const res = await off.get(`/v1/transmissions/txn_x${path}`, key);
      expect([res.status, (await envelope(res)).error.code]).toEqual([503, "TRANSMISSION_DISABLED"]);
    }
    off.close();
  });
});
