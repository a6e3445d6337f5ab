import { startHarness } from "./test/support/harness";
import { readFileSync } from "node:fs";
const h = startHarness();
const key = h.key(h.org("v", "scale"), "live");
for (const p of ["xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml", "zugferd-corpus/XML-Rechnung/FX/Factur-X_1.07.2_EXTENDED.pdf"]) {
  let t = performance.now();
  let body; try { body = readFileSync("/work/shared/corpus/"+p) } catch { continue }
  const r = await h.post("/v1/validate", body, { authorization: `Bearer ${key}`, "content-type": p.endsWith("pdf") ? "application/pdf" : "application/xml" });
  console.log(r.status, [...r.headers].filter(([k]) => k.startsWith("x-")).map(x=>x.join(": ")).join("\n"), (await r.text()).slice(0, 600), performance.now()-t);
}
const c = await fetch(h.base + "/v1/rulesets"); console.log(c.status, (await c.text()).slice(0, 800));
h.deps.close(); h.close();
