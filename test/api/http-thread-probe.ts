// Run by http-thread.test.ts in its own process: serves one real request on every route that takes a
// body (each kind of body it takes), then prints which routes were served, with what status, and
// every module the HTTP thread has loaded. Workers load modules of their own, not counted here.
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { createDeps } from "../../src/api/deps";
import { API_ROUTES, createApp } from "../../src/api/app";
import { createOrg } from "../../src/accounts/orgs";
import { createKey } from "../../src/accounts/keys";
import { registerParticipant } from "../../src/transmission/participants";
import { registerProvider } from "../../src/transmission/inbox-providers";
import { sign } from "../../src/transmission/standard-webhooks";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";

const storage = openSqliteStorage(":memory:");
const clock = () => new Date();
const deps = createDeps(storage, clock, { engineConcurrency: 1, transmission: { provider: "sandbox", networks: ["sdi"], retentionDays: 90 } });
const app = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${app.server!.port}`;
const org = await createOrg(storage, clock, { name: "probe", plan: "scale", billingDay: 1 });
const key = (await createKey(storage, clock, org, "live")).key;

const served: Record<string, number[]> = {};
/** `route` names a route with a parameter (its path as declared), for the count of routes served. */
async function post(path: string, body: BodyInit, contentType: string, headers: Record<string, string> = {}, route = path.split("?")[0]): Promise<Response> {
  const res = await fetch(base + path, { method: "POST", body, headers: { authorization: `Bearer ${key}`, "content-type": contentType, ...headers } });
  (served[`POST ${route}`] ??= []).push(res.status);
  return res;
}
const json = (path: string, body: unknown) => post(path, JSON.stringify(body), "application/json");

const invoice = SCENARIOS[0].build(LOCALES.de);
const xml = new Uint8Array(await (await json("/v1/generate", { standard: "xrechnung", syntax: "ubl", output: "xml", invoice })).arrayBuffer());
const template = (await (await json("/v1/pdf-templates", { name: "probe", definition: { accentColor: "#1F4E79" } })).json()) as { data: { ref: string } };
const pdf = new Uint8Array(await (await json("/v1/generate", { standard: "facturx", profile: "en16931", output: "pdf", pdfTemplateId: template.data.ref, invoice })).arrayBuffer());
for (const path of ["/v1/validate", "/v1/parse", "/v1/receive", "/v1/convert?targetFormat=cii"]) {
  await post(path, xml, "application/xml");
  await post(path, pdf, "application/pdf");
}
// A transmission from the document's own seller endpoint to its buyer's.
const text = new TextDecoder().decode(xml);
const [seller, buyer] = [...text.matchAll(/<cbc:EndpointID schemeID="([^"]+)">([^<]+)</g)].map((m) => ({ scheme: m[1], id: m[2] }));
await registerParticipant(storage, clock, org, { ...seller, country: "DE", confirmed: true });
await json("/v1/transmissions", { network: "sdi", sender: seller, recipient: buyer, format: "ubl", xml: text });
const { secret } = await registerProvider(storage, clock, "probe-ap", "sdi");
const callback = JSON.stringify({ messageId: "probe-1", sender: buyer, recipient: seller, format: "ubl", xml: text });
await post("/v1/inbox/probe-ap", callback, "application/json", sign([secret], { id: "probe-1", timestamp: Math.floor(Date.now() / 1000), body: callback }), "/v1/inbox/:providerId");
await json("/v1/webhooks", { url: "https://hooks.example.com/einvoice", eventTypes: ["transmission.delivered"] });
await json("/v1/send", { standard: "xrechnung", syntax: "ubl", invoice: { ...invoice, number: "PROBE-SEND-1" }, network: "sdi", sender: seller, recipient: buyer });

const untried = API_ROUTES.filter((route) => route.body && !served[`${route.method} ${route.path}`]).map((route) => `${route.method} ${route.path}`);
console.log(JSON.stringify({ served, untried, loaded: Object.keys(require.cache) }));
deps.close();
app.stop(true);
void storage.close();
