// The dashboard in a real browser: Debian Chromium driven by playwright-core under Node (Playwright
// under Bun hangs in several reports). Started by test/dashboard/browser.test.ts, which passes:
//   EINVOICE_CMD   JSON array: the command that runs the service's CLI (bun src/main.ts, or dist/einvoice)
//   CORPUS_DIR     the shared corpus (a failing invoice comes from it)
//   ARTIFACTS_DIR  where the screenshots and report.json go
//   CHROMIUM_PATH  the browser (default /usr/bin/chromium)
// It starts `serve` on a fresh SQLite file, makes a second organization, a user and sign-in links
// with the CLI, runs every scenario, writes report.json and exits 1 when any scenario failed.

import { chromium } from "playwright-core";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const command = JSON.parse(process.env.EINVOICE_CMD);
const artifacts = process.env.ARTIFACTS_DIR;
const corpus = process.env.CORPUS_DIR;
const shots = join(artifacts, "screenshots");
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "einvoice-dashboard-"));
const env = { ...process.env, DATABASE_PATH: join(work, "db.sqlite"), TRANSMISSION: "sandbox", DATABASE_URL: "" };

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function cli(...args) {
  const run = spawnSync(command[0], [...command.slice(1), ...args], { env, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(`einvoice ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return run.stdout.trim();
}

const port = await freePort();
const base = `http://localhost:${port}`;
const server = spawn(command[0], [...command.slice(1), "serve", "--port", String(port)], { env, stdio: ["ignore", "pipe", "pipe"] });
let serverLog = "";
server.stdout.on("data", (d) => (serverLog += d));
server.stderr.on("data", (d) => (serverLog += d));
const ready = await new Promise((resolve) => {
  const deadline = setTimeout(() => resolve(false), 90_000);
  const check = () => (/validation workers ready/.test(serverLog) ? (clearTimeout(deadline), resolve(true)) : setTimeout(check, 200));
  check();
});

const results = [];
let browser;
const fail = (message) => {
  throw new Error(message);
};
const expect = (condition, message) => condition || fail(message);

async function scenario(name, run) {
  const started = Date.now();
  try {
    await run();
    results.push({ name, ok: true, ms: Date.now() - started });
  } catch (error) {
    results.push({ name, ok: false, ms: Date.now() - started, error: String(error?.stack ?? error) });
  }
}

/** Every page answers with the hardening headers. */
function checkHeaders(response, what) {
  const h = response.headers();
  expect(/default-src 'self'/.test(h["content-security-policy"] ?? ""), `${what}: no strict CSP (${h["content-security-policy"]})`);
  expect(/frame-ancestors 'none'/.test(h["content-security-policy"]), `${what}: CSP lacks frame-ancestors 'none'`);
  expect(h["x-content-type-options"] === "nosniff", `${what}: no nosniff`);
  expect(!!h["referrer-policy"], `${what}: no referrer policy`);
}

const linkFor = (org) => cli("dashboard", "link", "--org", org, "--url", base).split("\n")[0];

async function signInWithLink(context, org) {
  const page = await context.newPage();
  const response = await page.goto(linkFor(org));
  checkHeaders(response, "link page");
  await page.click("button[type=submit]");
  await page.waitForURL(`${base}/dashboard`);
  return page;
}

const quotaUsed = async (page, mode) => Number(await page.locator(`[data-quota=${mode}] .used`).textContent());

try {
  if (!ready) fail(`the service did not start:\n${serverLog}`);
  cli("orgs", "create", "--name", "second");
  const passwordFile = join(work, "password");
  writeFileSync(passwordFile, "correct horse battery staple\n");
  cli("dashboard", "add-user", "--org", "second", "--email", "ops@second.example", "--password-file", passwordFile);

  // Playwright gives the browser a fresh, empty profile of its own (it refuses --user-data-dir with launch()).
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const dialogs = [];
  context.on("page", (p) => p.on("dialog", (d) => (dialogs.push(d.message()), d.dismiss())));
  let page;
  const keys = {};
  let templateRef;

  await scenario("sign in with a one-time link; the link works only once", async () => {
    const link = linkFor("default");
    page = await context.newPage();
    await page.goto(link);
    await page.screenshot({ path: join(shots, "01-link.png") });
    await page.click("button[type=submit]");
    await page.waitForURL(`${base}/dashboard`);
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await again.click("button[type=submit]");
    expect(/used already or expired/.test(await again.textContent("body")), "a used link opened a second session");
  });

  await scenario("every page answers with CSP, frame-ancestors none, nosniff and a referrer policy", async () => {
    for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/playground", "/dashboard/templates", "/dashboard/rulesets", "/dashboard/transmissions", "/dashboard/webhooks", "/dashboard/sign-in"]) {
      checkHeaders(await page.goto(base + path), path);
    }
  });

  await scenario("overview: plan, live and test quota with resetsAt, rate limit", async () => {
    await page.goto(`${base}/dashboard`);
    const text = await page.textContent("main");
    for (const expected of ["Free", "Live documents this window", "Sandbox calls this month", "resets", "requests per minute"]) expect(text.includes(expected), `overview lacks "${expected}"`);
    await page.screenshot({ path: join(shots, "02-overview.png"), fullPage: true });
  });

  await scenario("keys: live by default, a test key, each shown once then masked; a revoked key is refused by the API", async () => {
    await page.goto(`${base}/dashboard/keys`);
    expect((await page.inputValue("#mode")) === "live", "the mode selector does not default to live");
    await page.fill("#label", "billing service");
    await page.click("text=Create key");
    keys.live = await page.inputValue("#new-key");
    expect(/^svc_live_[A-Za-z0-9]{32,}$/.test(keys.live), `not a live key: ${keys.live}`);
    await page.screenshot({ path: join(shots, "03-key-created.png"), fullPage: true });
    await page.fill("#label", "sandbox tests");
    await page.selectOption("#mode", "test");
    await page.click("text=Create key");
    keys.test = await page.inputValue("#new-key");
    expect(keys.test.startsWith("svc_test_"), `not a test key: ${keys.test}`);
    await page.goto(`${base}/dashboard/keys`);
    const listed = await page.content();
    expect(!listed.includes(keys.live) && !listed.includes(keys.test), "a key is shown again after reload");
    expect((await page.locator("#new-key").count()) === 0, "the one-time panel is still there");
    expect(listed.includes("svc_live_••••••••") && listed.includes("svc_test_••••••••"), "the keys are not listed by prefix");
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${keys.test}` } });
    expect(me.status === 200, `a fresh test key answered ${me.status}`);
    await page.locator("tr", { hasText: "sandbox tests" }).locator("button", { hasText: "Revoke" }).click();
    await page.screenshot({ path: join(shots, "04-keys.png"), fullPage: true });
    const refused = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${keys.test}` } });
    expect(refused.status === 403 && (await refused.json()).error.code === "INVALID_API_KEY", `a revoked key answered ${refused.status}`);
    expect((await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${keys.live}` } })).status === 200, "the live key stopped working");
  });

  let usedBefore;
  await scenario("playground: starts on test; generates an XRechnung and a Factur-X PDF, each with its seal verified", async () => {
    await page.goto(`${base}/dashboard`);
    usedBefore = await quotaUsed(page, "test");
    await page.goto(`${base}/dashboard/playground`);
    expect(await page.isChecked("input[name=mode][value=test]"), "the playground does not start on test");
    await page.selectOption("#standard", "xrechnung");
    await page.click("#generate");
    await page.waitForSelector(".seal .badge:not(.muted)", { timeout: 60_000 });
    expect((await page.textContent(".seal")) === "seal verified", `XRechnung seal: ${await page.textContent(".seal")}`);
    expect((await page.textContent(".verdict")).includes("valid"), "the XRechnung verdict is missing");
    expect((await page.textContent(".code")).includes("xrechnung"), "the XRechnung XML is not shown");
    expect((await page.textContent(".code")).includes("TEST MODE"), "test-mode output is not marked");
    await page.screenshot({ path: join(shots, "05-playground-xrechnung.png"), fullPage: true });
    await page.selectOption("#standard", "facturx");
    await page.selectOption("#output", "pdf");
    await page.click("#generate");
    await page.waitForSelector("iframe.pdf", { timeout: 60_000 });
    await page.waitForSelector(".seal .badge:not(.muted)", { timeout: 30_000 });
    expect((await page.textContent(".seal")) === "seal verified", `Factur-X seal: ${await page.textContent(".seal")}`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(shots, "06-playground-facturx-pdf.png"), fullPage: true });
  });

  await scenario("playground: a failing corpus invoice shows its BR ids linked to the lines of the XML", async () => {
    await page.click("[data-tab=validate]");
    const path = join(corpus, "simplerinvoicing-testset/SI-UBL-2.0/SI-UBL-2.0_BR-NL-3_error_no_streetname.xml");
    await page.setInputFiles("#validate-file", path);
    await page.click("#validate");
    await page.waitForSelector("table.findings", { timeout: 60_000 });
    const row = page.locator("table.findings tr", { hasText: "BR-NL-3" });
    expect((await row.count()) > 0, "BR-NL-3 is not listed");
    const link = row.first().locator("a.line-link");
    const line = Number(await link.getAttribute("data-line"));
    const xmlLines = readFileSync(path, "utf8").split("\n");
    expect(/PostalAddress/.test(xmlLines[line - 1] ?? ""), `BR-NL-3 links to line ${line}: ${xmlLines[line - 1]}`);
    await link.click();
    expect((await page.locator(`#L${line}.focus`).count()) === 1, "the linked line is not highlighted");
    await page.waitForSelector(".seal .badge:not(.muted)");
    expect((await page.textContent(".seal")) === "seal verified", `validation seal: ${await page.textContent(".seal")}`);
    await page.screenshot({ path: join(shots, "07-playground-validate.png"), fullPage: true });
  });

  await scenario("playground: a hybrid PDF uploaded is validated, parsed and converted to UBL", async () => {
    const data = JSON.parse(await page.textContent("#playground-data"));
    const invoice = data.standards.find((s) => s.standard === "facturx").profiles[0].invoice;
    const csrf = await page.getAttribute("body", "data-csrf");
    const made = await page.request.post(`${base}/v1/generate`, {
      headers: { "x-csrf-token": csrf, "content-type": "application/json", accept: "application/json" },
      data: JSON.stringify({ standard: "facturx", output: "pdf", template: "standard", invoice }),
    });
    expect(made.status() === 200, `generate answered ${made.status()}`);
    const pdf = { name: "facturx.pdf", mimeType: "application/pdf", buffer: Buffer.from((await made.json()).data.output, "base64") };
    await page.setInputFiles("#validate-file", pdf);
    await page.click("#validate");
    await page.waitForSelector(".seal .badge:not(.muted)", { timeout: 60_000 });
    expect((await page.textContent(".verdict")).startsWith("valid"), `the PDF's verdict: ${await page.textContent(".verdict")}`);
    expect((await page.textContent(".seal")) === "seal verified", `the PDF's seal: ${await page.textContent(".seal")}`);
    await page.click("[data-tab=parse]");
    await page.setInputFiles("#parse-file", pdf);
    await page.click("#parse");
    await page.waitForSelector(".parsed", { timeout: 60_000 });
    expect((await page.textContent(".parsed")).includes(invoice.number), "the parsed PDF does not show its number");
    await page.click("[data-tab=convert]");
    await page.setInputFiles("#convert-file", pdf);
    await page.selectOption("#target", "ubl");
    await page.click("#convert");
    await page.waitForSelector(".result .code", { timeout: 60_000 });
    expect((await page.textContent(".result .verdict")).includes("→ ubl"), "the conversion is not reported");
    expect((await page.textContent(".result .code")).includes("<Invoice"), "the UBL output is not shown");
    await page.screenshot({ path: join(shots, "08a-playground-convert.png"), fullPage: true });
  });

  await scenario("quota on the overview moves after playground calls (test mode spends the sandbox allowance)", async () => {
    await page.goto(`${base}/dashboard`);
    const after = await quotaUsed(page, "test");
    expect(after >= usedBefore + 3, `test quota went from ${usedBefore} to ${after}`);
  });

  await scenario("an invoice whose note holds <script> and <img onerror> renders as text", async () => {
    const hostile = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">`;
    await page.goto(`${base}/dashboard/playground`);
    const invoice = JSON.parse(await page.inputValue("#invoice"));
    invoice.note = hostile;
    invoice.seller.name = `<b onmouseover="window.__xss = 3">Seller</b>`;
    await page.fill("#invoice", JSON.stringify(invoice, null, 2));
    await page.click("#generate");
    await page.waitForSelector(".code", { timeout: 60_000 });
    const xml = (await page.locator(".code td:not(.n)").allTextContents()).join("\n");
    expect(xml.includes("&lt;script&gt;"), "the generated XML does not carry the escaped note");
    await page.click("[data-tab=parse]");
    await page.setInputFiles("#parse-file", { name: "hostile.xml", mimeType: "application/xml", buffer: Buffer.from(xml) });
    await page.click("#parse");
    await page.waitForSelector(".parsed", { timeout: 60_000 });
    expect((await page.locator("dd", { hasText: hostile }).count()) === 1, "the note is not shown as text");
    expect((await page.locator(".parsed img, .parsed script, .parsed b").count()) === 0, "markup from the invoice became elements");
    expect((await page.evaluate(() => window.__xss)) === undefined, "script from the invoice ran");
    expect(dialogs.length === 0, `dialogs opened: ${dialogs}`);
    await page.screenshot({ path: join(shots, "08-playground-parse-hostile.png"), fullPage: true });
  });

  await scenario("templates: create, short code shown, preview", async () => {
    await page.goto(`${base}/dashboard/templates`);
    await page.fill("#name", "Letterhead <i>blue</i>");
    await page.fill("#footer", "Acme GmbH · Registergericht München");
    await page.click("text=Create template");
    templateRef = (await page.textContent(".flash.ok")).match(/short code (\S+)/)?.[1];
    expect(!!templateRef, "no short code shown");
    expect((await page.locator("code.ref", { hasText: templateRef }).count()) === 1, "the template is not listed");
    await page.click(`[data-preview="${templateRef}"]`);
    await page.waitForSelector("#preview iframe.pdf", { timeout: 60_000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(shots, "09-templates.png"), fullPage: true });
  });

  await scenario("rulesets: catalogue and the organization's channel", async () => {
    await page.goto(`${base}/dashboard/rulesets`);
    expect((await page.locator("#catalogue tbody tr").count()) > 5, "the catalogue is empty");
    await page.check("input[name=channel][value=previous]");
    await page.click("text=Save channel");
    expect((await page.textContent(".flash.ok")).includes("previous"), "the channel was not saved");
    await page.screenshot({ path: join(shots, "10-rulesets.png"), fullPage: true });
    await page.goto(`${base}/dashboard`);
    expect((await page.textContent(".lead")).includes("previous"), "the overview does not show the channel");
  });

  await scenario("transmissions: a sent invoice in the list, and its event chain with chainOk", async () => {
    const sender = { scheme: "0088", id: "4000001000005" };
    const recipient = { scheme: "0088", id: "4000001000012" };
    cli("participants", "add", "--org", "default", "--scheme", sender.scheme, "--id", sender.id, "--country", "BE", "--confirmed");
    await page.goto(`${base}/dashboard/playground`);
    const data = JSON.parse(await page.textContent("#playground-data"));
    const invoice = data.standards.find((s) => s.standard === "peppol-bis").profiles[0].invoice;
    invoice.seller.peppol = { schemeId: sender.scheme, id: sender.id };
    invoice.buyer.peppol = { schemeId: recipient.scheme, id: recipient.id };
    const csrf = await page.getAttribute("body", "data-csrf");
    const sent = await page.request.post(`${base}/v1/send`, {
      headers: { "x-csrf-token": csrf, "content-type": "application/json" },
      data: JSON.stringify({ standard: "peppol-bis", invoice, network: "peppol", sender, recipient }),
    });
    expect(sent.status() === 202, `send answered ${sent.status()}: ${await sent.text()}`);
    const { id } = (await sent.json()).data;
    await page.goto(`${base}/dashboard/transmissions`);
    await page.waitForSelector(`#transmissions a[href$="${id}"]`, { timeout: 15_000 });
    await page.screenshot({ path: join(shots, "11-transmissions.png"), fullPage: true });
    await page.click(`#transmissions a[href$="${id}"]`);
    await page.waitForSelector("#transmission table", { timeout: 15_000 });
    expect((await page.textContent("#transmission")).includes("chainOk: true"), "the event chain is not shown as whole");
    expect((await page.locator("#transmission tbody tr").count()) >= 1, "no events listed");
    await page.screenshot({ path: join(shots, "12-transmission.png"), fullPage: true });
  });

  await scenario("webhooks: a subscription's secret shown once, the subscription listed, then deleted", async () => {
    await page.goto(`${base}/dashboard/webhooks`);
    await page.fill("input[name=url]", "https://hooks.example.com/einvoice");
    await page.click("#webhook-form button[type=submit]");
    await page.waitForSelector("#new-webhook-secret", { timeout: 15_000 });
    expect((await page.inputValue("#new-webhook-secret")).startsWith("whsec_"), "no whsec_ secret shown");
    await page.waitForSelector("#webhooks table", { timeout: 15_000 });
    expect((await page.textContent("#webhooks")).includes("https://hooks.example.com/einvoice"), "the subscription is not listed");
    await page.screenshot({ path: join(shots, "13-webhooks.png"), fullPage: true });
    await page.reload();
    await page.waitForSelector("#webhooks table", { timeout: 15_000 });
    expect((await page.locator("#new-webhook-secret").count()) === 0, "the secret is shown again after a reload");
    await page.click("#webhooks button");
    await page.waitForSelector("#webhooks p.muted", { timeout: 15_000 });
  });

  await scenario("a second organization's session sees none of the first's keys or templates", async () => {
    const other = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const second = await other.newPage();
    await second.goto(`${base}/dashboard/sign-in`);
    await second.screenshot({ path: join(shots, "00-sign-in.png") });
    await second.fill("#email", "ops@second.example");
    await second.fill("#password", "correct horse battery staple");
    await second.click("button[type=submit]");
    await second.waitForURL(`${base}/dashboard`);
    expect((await second.textContent(".brand")).includes("second"), "not signed in to the second organization");
    await second.goto(`${base}/dashboard/keys`);
    const keysText = await second.textContent("main");
    expect(!keysText.includes("billing service") && !keysText.includes("sandbox tests"), "the second organization sees the first's keys");
    await second.goto(`${base}/dashboard/templates`);
    expect(!(await second.textContent("main")).includes(templateRef), "the second organization sees the first's template");
    const csrf = await second.getAttribute("body", "data-csrf");
    const me = await second.request.get(`${base}/v1/me`, { headers: { "x-csrf-token": csrf } });
    expect((await me.json()).data.org.name === "second", "the session's /v1 calls are not the second organization's");
    await other.close();
  });

  await scenario("state-changing posts without the CSRF token are refused", async () => {
    const before = await page.request.get(`${base}/dashboard/keys`).then((r) => r.text());
    const rows = (before.match(/data-key-id=/g) ?? []).length;
    const bare = await page.request.post(`${base}/dashboard/keys`, { form: { mode: "live", label: "forged" } });
    expect(bare.status() === 403, `a CSRF-less key creation answered ${bare.status()}`);
    const wrong = await page.request.post(`${base}/dashboard/keys`, { form: { mode: "live", label: "forged", csrf: "not-the-token" } });
    expect(wrong.status() === 403, `a wrong CSRF token answered ${wrong.status()}`);
    const revoke = await page.request.post(`${base}/dashboard/sign-out`, { form: {} });
    expect(revoke.status() === 403, `a CSRF-less sign-out answered ${revoke.status()}`);
    const api = await page.request.post(`${base}/v1/validate`, { data: "<Invoice/>", headers: { "content-type": "application/xml" } });
    expect(api.status() === 401, `a session's /v1 call without X-CSRF-Token answered ${api.status()}`);
    const after = await page.request.get(`${base}/dashboard/keys`).then((r) => r.text());
    expect((after.match(/data-key-id=/g) ?? []).length === rows && !after.includes("forged"), "a forged post created a key");
  });

  await scenario("sign-out ends the session", async () => {
    await page.goto(`${base}/dashboard`);
    await page.click("text=Sign out");
    await page.waitForURL(`${base}/dashboard/sign-in`);
    await page.goto(`${base}/dashboard/keys`);
    expect(page.url() === `${base}/dashboard/sign-in`, "a signed-out browser still reaches the keys");
  });
} catch (error) {
  results.push({ name: "setup", ok: false, error: String(error?.stack ?? error) });
} finally {
  await browser?.close();
  server.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}

writeFileSync(join(artifacts, "report.json"), JSON.stringify({ results, serverLog: results.every((r) => r.ok) ? undefined : serverLog }, null, 2));
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? "" : `\n${r.error}`}`);
process.exit(results.length > 0 && results.every((r) => r.ok) ? 0 : 1);
