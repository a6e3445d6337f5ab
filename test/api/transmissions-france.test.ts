// The French rules of POST /v1/transmissions on documents the API generates: a domestic French flow
// refused on Peppol, a France CTC document accepted by the certified-platform network (ppf_pdp),
// one tripping a BR-FR rule refused whatever its severity, and an invoice number a platform
// rejected never travelling again.

import { describe, expect, test } from "bun:test";
import { envelope, startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { registerParticipant } from "../../src/transmission/participants";
import { corpusMissing } from "../support/corpus";
import { cannotRun } from "../support/requirements";
import { MINUTE, SANDBOX, startPostgresApi, testWorker, type Api } from "../transmission/delivery-support";
import { postgresMissing } from "../support/postgres";

/** The seller and buyer endpoints a France CTC invoice of the fixtures carries (BT-34, BT-49: scheme 9957, the VAT number). */
const SELLER = { scheme: "9957", id: "FR32123456789" };
const BUYER = { scheme: "9957", id: "FR45987654321" };
/** A buyer whose platform rejects (the sandbox's scenario by recipient id). */
const REJECTING = { scheme: "0225", id: "987654321-REJECTS" };

const SETUPS: { name: string; missing: string | null; start(): Api }[] = [
  { name: "SQLite", missing: corpusMissing, start: () => startValidatingHarness({ config: { transmission: SANDBOX } }) },
  { name: "PostgreSQL", missing: corpusMissing ?? postgresMissing(), start: startPostgresApi },
];

for (const setup of SETUPS) describe.skipIf(cannotRun(`the French transmission rules on ${setup.name}`, setup.missing))(`France on POST /v1/transmissions on ${setup.name}`, () => {
  const h = setup.start();
  let key = "";
  let orgId = "";
  const generate = async (standard: string, profile: string, invoice: Record<string, unknown>) => {
    const res = await h.post("/v1/generate", JSON.stringify({ standard, profile, output: "xml", invoice }), { authorization: `Bearer ${key}`, "content-type": "application/json" });
    expect(res.status).toBe(200);
    return res.text();
  };
  const ctcInvoice = (overrides: Record<string, unknown> = {}) => ({ ...SCENARIOS[0].build(LOCALES.fr), franceCtc: true, ...overrides });
  const post = (body: Record<string, unknown>) => h.post("/v1/transmissions", JSON.stringify(body), { authorization: `Bearer ${key}`, "content-type": "application/json" });
  const answer = async (res: Response) => ({ status: res.status, ...(await envelope(res)) });

  test("setup: a French organization whose sender is registered in France", async () => {
    const org = await h.org("france", "scale");
    orgId = org.id;
    key = await h.key(org, "live");
    await registerParticipant(h.storage, h.clock.read, org, { ...SELLER, country: "FR", confirmed: true });
    await registerParticipant(h.storage, h.clock.read, org, { scheme: "0009", id: "12345678900012", country: "FR", confirmed: true });
  });

  test("a France CTC document judged by the French rules travels over ppf_pdp", async () => {
    const xml = await generate("facturx", "extended-ctc-fr", ctcInvoice());
    const res = await answer(await post({ network: "ppf_pdp", sender: SELLER, recipient: BUYER, format: "cii", xml }));
    expect(res.status).toBe(202);
    expect(res.data.verdict).toMatchObject({ valid: true, format: "cii" });
  });

  test("a BR-FR rule tripped is 422 FRANCE_CTC_BLOCKING_FINDINGS naming it, whatever its severity; nothing queued", async () => {
    const xml = (await generate("facturx", "extended-ctc-fr", ctcInvoice({ number: "INV-2025-BLOCK" }))).replace("<ram:ID>INV-2025-BLOCK</ram:ID>", "<ram:ID>INV#2025*BLOCK</ram:ID>");
    const before = (await h.storage.transmissions.list(orgId, {}, 100, null)).length;
    const res = await answer(await post({ network: "ppf_pdp", sender: SELLER, recipient: BUYER, format: "cii", xml }));
    expect(res).toMatchObject({ status: 422, error: { code: "FRANCE_CTC_BLOCKING_FINDINGS" } });
    expect(res.error.details.ruleIds).toContain("BR-FR-02_BT-1");
    expect((await h.storage.transmissions.list(orgId, {}, 100, null)).length).toBe(before);
  });

  test("a French sender to a French identifier over Peppol is 409 FRENCH_DOMESTIC_FLOW with both ids", async () => {
    const invoice = SCENARIOS[0].build(LOCALES.fr);
    const domestic = { scheme: "0009", id: "98765432100019" };
    const xml = await generate("peppol-bis", "peppol", {
      ...invoice,
      number: "INV-2025-FR-PEPPOL",
      seller: { ...invoice.seller, peppol: { schemeId: "0009", id: "12345678900012" } },
      buyer: { ...invoice.buyer, peppol: { schemeId: domestic.scheme, id: domestic.id } },
    });
    const res = await answer(await post({ network: "peppol", sender: { scheme: "0009", id: "12345678900012" }, recipient: domestic, format: "ubl", xml }));
    expect(res).toMatchObject({ status: 409, error: { code: "FRENCH_DOMESTIC_FLOW", details: { recipient: domestic } } });
  });

  test("an invoice number a platform rejected is 409 FRANCE_INVOICE_NUMBER_BURNED naming that transmission, even under new content", async () => {
    const invoice = (note: string) => ctcInvoice({ number: "INV-2025-BURN", note, buyer: { ...SCENARIOS[0].build(LOCALES.fr).buyer, peppol: { schemeId: REJECTING.scheme, id: REJECTING.id } } });
    const first = await answer(await post({ network: "ppf_pdp", sender: SELLER, recipient: REJECTING, format: "cii", xml: await generate("facturx", "extended-ctc-fr", invoice("first")) }));
    expect(first.status).toBe(202);
    // The platform takes it, then rejects it (the sandbox's `rejects` scenario).
    const worker = testWorker(h.storage, h.clock.read);
    await worker.drain();
    await h.storage.sandbox.advance(orgId, MINUTE);
    await worker.drain();
    expect((await envelope(await h.get(`/v1/transmissions/${first.data.id}`, key))).data.status).toBe("rejected");
    const again = await answer(await post({ network: "ppf_pdp", sender: SELLER, recipient: REJECTING, format: "cii", xml: await generate("facturx", "extended-ctc-fr", invoice("reissued as it was")) }));
    expect(again).toMatchObject({ status: 409, error: { code: "FRANCE_INVOICE_NUMBER_BURNED", details: { transmissionId: first.data.id } } });
    // A new number travels.
    const renumbered = await answer(
      await post({ network: "ppf_pdp", sender: SELLER, recipient: REJECTING, format: "cii", xml: await generate("facturx", "extended-ctc-fr", { ...invoice("renumbered"), number: "INV-2025-BURN-2" }) }),
    );
    expect(renumbered.status).toBe(202);
  });
});
