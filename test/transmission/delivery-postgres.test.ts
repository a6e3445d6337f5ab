// The delivery worker over the sandbox on PostgreSQL, through HTTP: the happy path, the crash after
// send and the attempt lost before arrival (both unknown outcomes, reconciled by asking the
// provider), and two workers on one database racing for the same transmissions.

import { describe, expect, test } from "bun:test";
import { corpusMissing } from "../support/corpus";
import { postgresMissing } from "../support/postgres";
import { cannotRun } from "../support/requirements";
import type { ParticipantId } from "../../src/transmission/identifiers";
import { MINUTE, SELLER, generatedInvoice, newSender, postTransmission, readBack, startPostgresApi, testWorker, type Sender } from "./delivery-support";

const noRun = cannotRun("delivery through the sandbox on PostgreSQL", postgresMissing() ?? corpusMissing);
const peppol = (id: string): ParticipantId => ({ scheme: "0060", id });

describe.skipIf(noRun)("delivery through the sandbox (PostgreSQL)", () => {
  const h = startPostgresApi();
  let addressed: (recipient: ParticipantId) => string;
  const send = (sender: Sender, recipient: ParticipantId) => postTransmission(h, sender.live, { network: "peppol", sender: SELLER, recipient, format: "ubl", xml: addressed(recipient) });
  const submissions = async (id: string) => {
    const row = (await h.storage.sandbox.all()).find((r) => r.transmissionId === id);
    return row ? JSON.parse(row.state).submissions : 0;
  };

  test("setup", async () => {
    addressed = await generatedInvoice(h, (await newSender(h, "generator")).live);
  });

  const CASES = [
    { name: "delivers", recipient: "pg-acme", attempts: ["accepted"], events: ["attempt_started", "transmission.submitted", "transmission.cleared", "transmission.delivered"] },
    { name: "crash after send: found, not sent again", recipient: "pg-crash", attempts: ["unknown", "found"], events: ["attempt_started", "attempt_unanswered", "transmission.submitted", "transmission.cleared", "transmission.delivered"] },
    { name: "lost before arrival: not found, sent again", recipient: "pg-lost", attempts: ["unknown", "accepted"], events: ["attempt_started", "attempt_unanswered", "transmission.submitted", "transmission.cleared", "transmission.delivered"] },
  ];

  for (const c of CASES) {
    test(`${c.name}: delivered, received once, billed once, chain whole`, async () => {
      const worker = testWorker(h.storage, h.clock.read);
      const sender = await newSender(h, c.recipient);
      const id = await send(sender, peppol(c.recipient));
      await worker.drain();
      for (const ms of [10_000, MINUTE]) {
        await h.storage.sandbox.advance(sender.org.id, ms);
        await worker.drain();
      }
      const seen = await readBack(h, sender.live, id);
      expect(seen.transmission.status).toBe("delivered");
      expect(seen.events.chainOk).toBe(true);
      expect(seen.events.items.map((e: { type: string }) => e.type)).toEqual(["transmission.queued", ...c.events]);
      expect(seen.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(c.attempts);
      expect(seen.receipts.map((r: { networkCode: string }) => r.networkCode)).toEqual(["provider_accepted", "AS4_RECEIPT", "MLS_AP"]);
      expect(await submissions(id)).toBe(1);
      expect(await sender.used()).toBe(1);
    });
  }

  test("two workers on one database take disjoint claims: 30 transmissions, each received once and billed once", async () => {
    const sender = await newSender(h, "pair");
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await send(sender, peppol(`pg-pair-${i}${["", "-crash", "-lost"][i % 3]}`)));
    const workers = [testWorker(h.storage, h.clock.read, "a"), testWorker(h.storage, h.clock.read, "b")];
    for (const ms of [0, 10_000, MINUTE]) {
      if (ms) await h.storage.sandbox.advance(sender.org.id, ms);
      await Promise.all(workers.map((w) => w.drain()));
    }
    for (const id of ids) {
      const seen = await readBack(h, sender.live, id);
      expect([seen.transmission.status, seen.events.chainOk, await submissions(id)]).toEqual(["delivered", true, 1]);
    }
    expect(await sender.used()).toBe(30);
  });
});
