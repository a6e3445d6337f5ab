// The HTTP thread names schemas and rule files but never runs them, and never reads or writes a
// caller's document: the engines (libxml2's WASM module, about 35 MiB per thread, and SaxonJS), the
// PDF reader and writer, the XML readers and the invoice writers load only in the engine workers.
// While one of those works on a hostile document, every other route of every tenant still answers.
import { expect, test } from "bun:test";
import { startValidatingHarness } from "../support/harness";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";
import { generateXml } from "../../src/generate/generate";

/** Packages that work on caller bytes: the engines, the PDF library and its fonts, the XML parser. */
const ENGINE_PACKAGES = ["libxml2-wasm", "saxon-js", "pdf-lib", "@pdf-lib/", "dejavu-fonts-ttf", "@xmldom/xmldom"];
/** Our own readers and writers of caller documents (the native engine and its XML reader included). */
const CALLER_BYTES_MODULES = [
  "/src/native/",
  "/src/pdf/",
  "/src/syntax/xml-reader.ts",
  "/src/syntax/detect.ts",
  "/src/syntax/ubl/read.ts",
  "/src/syntax/cii/read.ts",
  "/src/pdf/attachments.ts",
  "/src/generate/parse.ts",
  "/src/convert/convert.ts",
  "/src/generate/generate.ts",
  "/src/generate/generate-invoice.ts",
  "/src/generate/pdf-output.ts",
  "/src/validation/validate.ts",
];
/** What a PDF layout takes from a stored template: a schema the HTTP thread checks template requests against, no code. */
const PDF_DESIGN = "/src/pdf/design.ts";
const onHttpThread = (loaded: string[]) =>
  loaded.filter(
    (path) =>
      !path.endsWith(PDF_DESIGN) &&
      (ENGINE_PACKAGES.some((name) => path.includes(`/node_modules/${name}`)) || CALLER_BYTES_MODULES.some((module) => path.includes(module))),
  );

test("loading the API loads no engine and no reader or writer of caller documents", () => {
  const app = new URL("../../src/api/app.ts", import.meta.url).pathname;
  const probe = `await import(${JSON.stringify(app)}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const run = Bun.spawnSync([process.execPath, "-e", probe], { stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(0);
  const loaded: string[] = JSON.parse(run.stdout.toString());
  expect(loaded.some((path) => path.includes("/src/api/routes/validate"))).toBe(true);
  expect(onHttpThread(loaded)).toEqual([]);
});

test("after serving every route that takes a body, XML and PDF alike, the HTTP thread has loaded none of them either", () => {
  const probe = new URL("./http-thread-probe.ts", import.meta.url).pathname;
  const run = Bun.spawnSync([process.execPath, probe], { stdout: "pipe", stderr: "pipe", timeout: 110_000 });
  expect(run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);
  const report: { served: Record<string, number[]>; untried: string[]; loaded: string[] } = JSON.parse(run.stdout.toString());
  // A new route that takes a body needs its sample in the probe.
  expect(report.untried).toEqual([]);
  for (const statuses of Object.values(report.served)) for (const status of statuses) expect(status).toBeLessThan(300);
  expect(Object.keys(report.served).sort()).toEqual(["POST /v1/convert", "POST /v1/generate", "POST /v1/inbox/:providerId", "POST /v1/parse", "POST /v1/pdf-templates", "POST /v1/receive", "POST /v1/send", "POST /v1/transmissions", "POST /v1/validate", "POST /v1/webhooks"]);
  expect(onHttpThread(report.loaded)).toEqual([]);
}, 120_000);

const h = startValidatingHarness();
const key = await h.key(await h.org("neighbour", "scale"), "live");

/** A UBL invoice of about 1 MB (its line repeated), which takes a good fraction of a second to read. */
function largeInvoice(): string {
  const xml = new TextDecoder().decode(generateXml({ standard: "xrechnung", syntax: "ubl", invoice: SCENARIOS[0].build(LOCALES.de) }, { livemode: true }).bytes);
  const line = xml.match(/<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/)![0];
  return xml.replace(line, line.repeat(Math.floor(1_000_000 / line.length)));
}

test("GET /v1/me sent the moment a large document's parse starts is answered before the parse", async () => {
  const answered: string[] = [];
  let me: Promise<Response> | undefined;
  // Were the parse on the HTTP thread, this timer could fire only once the parse had ended.
  const admission = h.deps.admission;
  const run = admission.run.bind(admission);
  admission.run = ((job, deadlineAtMs) => {
    me ??= new Promise((resolve) => setTimeout(resolve, 0)).then(() => h.get("/v1/me", key).then((res) => (answered.push("me"), res)));
    return run(job, deadlineAtMs);
  }) as typeof admission.run;
  try {
    const parsed = await h.post("/v1/parse", largeInvoice(), { authorization: `Bearer ${key}`, "content-type": "application/xml" }).then((res) => (answered.push("parse"), res));
    expect(parsed.status).toBe(200);
    expect((await me!).status).toBe(200);
    expect(answered).toEqual(["me", "parse"]);
  } finally {
    admission.run = run;
  }
}, 60_000);
