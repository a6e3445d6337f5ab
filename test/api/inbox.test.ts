// The inbound network callback: Standard Webhooks signatures (unknown provider, forged, replayed),
// the inbound states (received → validated → available, a failing verdict included; failed only
// when unreadable, bytes kept; an engine outage leaves it received, judged later), deduplication by
// the provider's message id, and the reads with direction=inbound.

import { describe, expect, test } from "bun:test";
import { envelope, startHarness, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { registerParticipant } from "../../src/transmission/participants";
import { registerProvider, rotateProviderSecret } from "../../src/transmission/inbox-providers";
import { sign } from "../../src/transmission/standard-webhooks";
import { acceptInbound, judgePendingInbound } from "../../src/transmission/inbound";
import { EngineUnavailable } from "../../src/engine/admission";
import { corpusMissing } from "../support/corpus";
import { cannotRun } from "../support/requirements";
import { postgresMissing } from "../support/postgres";
import { SANDBOX, startPostgresApi, type Api } from "../transmission/delivery-support";
import type { WorkerPool } from "../../src/workers/pool";

const US = { scheme: "0088", id: "4000001000012" };
const THEM = { scheme: "0088", id: "4000001000005" };

const SETUPS: { name: string; missing: string | null; start(): Api }[] = [
  { name: "SQLite", missing: corpusMissing, start: () => startValidatingHarness({ config: { transmission: SANDBOX } }) },
  { name: "PostgreSQL", missing: corpusMissing ?? postgresMissing(), start: startPostgresApi },
];

for (const setup of SETUPS) describe.skipIf(cannotRun(`the inbound callback on ${setup.name}`, setup.missing))(`POST /v1/inbox/:providerId on ${setup.name}`, () => {
  const h = setup.start();
  let key = "";
  let secret = "";
  let xml = "";

  const callback = (payload: unknown, options: { provider?: string; secrets?: string[]; at?: number; id?: string } = {}) => {
    const body = JSON.stringify(payload);
    const headers = sign(options.secrets ?? [secret], { id: options.id ?? `msg_${crypto.randomUUID()}`, timestamp: options.at ?? Math.floor(h.clock.now.getTime() / 1000), body });
    return h.post(`/v1/inbox/${options.provider ?? "acme-ap"}`, body, { "content-type": "application/json", ...headers });
  };
  const document = (overrides: Record<string, unknown> = {}) => ({ messageId: `m-${crypto.randomUUID()}`, sender: THEM, recipient: US, format: "ubl", xml, ...overrides });
  const read = async (id: string) => (await envelope(await h.get(`/v1/transmissions/${id}`, key))).data;

  test("setup: a receiving organization, a registered provider and a Peppol invoice", async () => {
    const org = await h.org("receiver", "scale");
    key = await h.key(org, "test");
    await registerParticipant(h.storage, h.clock.read, org, { ...US, country: "DE", confirmed: true });
    ({ secret } = await registerProvider(h.storage, h.clock.read, "acme-ap", "peppol"));
    const invoice = SCENARIOS[0].build(LOCALES.de);
    const body = { standard: "peppol-bis", output: "xml", invoice: { ...invoice, seller: { ...invoice.seller, peppol: { schemeId: THEM.scheme, id: THEM.id } }, buyer: { ...invoice.buyer, peppol: { schemeId: US.scheme, id: US.id } } } };
    xml = await (await h.post("/v1/generate", JSON.stringify(body), { authorization: `Bearer ${key}`, "content-type": "application/json" })).text();
    expect(xml).toContain("<Invoice");
  });

  test("a signed document is recorded, judged and available with its verdict; the chain has each step", async () => {
    const res = await callback(document());
    expect(res.status).toBe(202);
    const { data } = await envelope(res);
    expect(data).toMatchObject({ status: "available", duplicate: false });
    expect(await read(data.id)).toMatchObject({ direction: "inbound", network: "peppol", status: "available", counterparty: THEM });
    const events = (await envelope(await h.get(`/v1/transmissions/${data.id}/events`, key))).data;
    expect(events.chainOk).toBe(true);
    expect(events.items.map((e: { type: string }) => e.type)).toEqual(["received", "validated", "transmission.received"]);
    expect((await envelope(await h.get("/v1/transmissions?direction=inbound", key))).data.items.map((i: { id: string }) => i.id)).toContain(data.id);
  });

  test("the same messageId again is the same document (200, duplicate), never a second one", async () => {
    const same = document();
    const first = (await envelope(await callback(same))).data;
    const again = await callback(same);
    expect(again.status).toBe(200);
    expect((await envelope(again)).data).toEqual({ id: first.id, status: "available", duplicate: true });
  });

  test("a failing verdict does not hold a document back; an unreadable one fails with its bytes kept", async () => {
    const invalid = (await envelope(await callback(document({ xml: xml.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, "$1999999.99") })))).data;
    expect(invalid.status).toBe("available");
    const broken = "<Invoice xmlns='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'><unclosed></Invoice>";
    const unreadable = (await envelope(await callback(document({ xml: broken })))).data;
    expect(unreadable.status).toBe("failed");
    expect(await (await h.get(`/v1/transmissions/${unreadable.id}/document`, key)).text()).toBe(broken);
  });

  test("an engine outage leaves it received, judged when the engine is back", async () => {
    const steps = { storage: h.storage, now: h.clock.read };
    const down = { ...steps, judge: async () => Promise.reject(new EngineUnavailable("engine down for the test", false, 1)) };
    const { transmission } = await acceptInbound(down, "acme-ap", { ...document(), network: "peppol" } as Parameters<typeof acceptInbound>[2]);
    expect((await read(transmission.id)).status).toBe("received");
    h.clock.advance(61_000);
    const up = { ...steps, judge: (request: Parameters<WorkerPool["receive"]>[0]) => h.workers().receive(request, new AbortController().signal) };
    expect(await judgePendingInbound(up, "test")).toBeGreaterThanOrEqual(1);
    expect((await read(transmission.id)).status).toBe("available");
  });

  const REFUSALS = [
    { name: "an unknown provider", send: () => callback(document(), { provider: "nobody" }), status: 404, code: "INBOX_UNKNOWN_PROVIDER" },
    { name: "no signature headers", send: () => h.post("/v1/inbox/acme-ap", JSON.stringify(document()), { "content-type": "application/json" }), status: 401, code: "INBOX_VERIFICATION_FAILED" },
    { name: "a signature with another secret", send: () => callback(document(), { secrets: ["whsec_" + Buffer.from("x".repeat(32)).toString("base64")] }), status: 401, code: "INBOX_VERIFICATION_FAILED" },
    { name: "a genuine signature six minutes old (a replay)", send: () => callback(document(), { at: Math.floor(h.clock.now.getTime() / 1000) - 360 }), status: 401, code: "INBOX_SIGNATURE_EXPIRED" },
    { name: "a recipient no organization receives for", send: () => callback(document({ recipient: { scheme: "0088", id: "4000001000999" } })), status: 422, code: "VALIDATION_ERROR" },
    { name: "a body outside the payload schema", send: () => callback({ messageId: "m", xml }), status: 400, code: "VALIDATION_ERROR" },
  ];
  for (const refusal of REFUSALS) {
    test(`${refusal.name}: ${refusal.status} ${refusal.code}, nothing recorded`, async () => {
      const before = (await h.storage.transmissions.list((await h.storage.orgs.byName("receiver"))!.id, {}, 100, null)).length;
      const res = await refusal.send();
      expect([res.status, (await envelope(res)).error.code]).toEqual([refusal.status, refusal.code]);
      expect((await h.storage.transmissions.list((await h.storage.orgs.byName("receiver"))!.id, {}, 100, null)).length).toBe(before);
    });
  }

  test("after a rotation both the new and the previous secret verify", async () => {
    const previous = secret;
    const { secret: next } = await rotateProviderSecret(h.storage, "acme-ap");
    expect((await callback(document(), { secrets: [previous] })).status).toBe(202);
    expect((await callback(document(), { secrets: [next] })).status).toBe(202);
    secret = next;
  });
});

test("transmission off: the callback answers 503 TRANSMISSION_DISABLED before reading anything", async () => {
  const off = startHarness();
  const res = await off.post("/v1/inbox/acme-ap", "{}", { "content-type": "application/json" });
  expect([res.status, (await envelope(res)).error.code]).toEqual([503, "TRANSMISSION_DISABLED"]);
  off.close();
});
