// The dashboard's only script (served from this origin; the CSP allows nothing inline). Every value
// from a response or a document reaches the page through textContent, never as markup.

const csrf = document.body.dataset.csrf;

/** An element with text children only: strings become text nodes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  return node;
}

const badge = (text, kind = "") => el("span", { class: `badge ${kind}` }, text);
const count = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** A /v1 call as the signed-in organization: the session cookie plus its CSRF token; the mode from the page's switch. */
function api(path, { method = "GET", body, headers = {}, mode = "test" } = {}) {
  return fetch(path, { method, body, credentials: "same-origin", headers: { "x-csrf-token": csrf, "x-dashboard-mode": mode, ...headers } });
}

async function sha256Hex(data) {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let catalogue;
/**
 * The spec's check of a validation result, in this browser: every row of rulesetArtifacts is in
 * GET /v1/rulesets's artifacts (key, version and hash together), the sorted rows hash to
 * rulesetSha256, and sha256 is the hash of the bytes judged.
 */
async function verifySeal(result, judgedBytes) {
  if (!result.rulesetSha256 || !Array.isArray(result.rulesetArtifacts)) return { ok: false, why: "no ruleset ran, so there is no seal" };
  if (!globalThis.crypto?.subtle) return { ok: false, why: "this browser offers WebCrypto only over HTTPS or on localhost" };
  catalogue ??= fetch("/v1/rulesets").then((r) => r.json());
  const published = (await catalogue).data.artifacts;
  for (const row of result.rulesetArtifacts) {
    if (!published.some((a) => a.key === row.key && a.version === row.version && a.fileSha256 === row.fileSha256)) {
      return { ok: false, why: `${row.key}@${row.version} is not in the published catalogue` };
    }
  }
  const lines = result.rulesetArtifacts.map((r) => `${r.key}@${r.version}=${r.fileSha256}`).sort().join("\n");
  if ((await sha256Hex(lines)) !== result.rulesetSha256) return { ok: false, why: "rulesetSha256 does not match its artifacts" };
  if (judgedBytes && (await sha256Hex(judgedBytes)) !== result.sha256) return { ok: false, why: "sha256 is not the hash of the document" };
  return { ok: true };
}

// ---- XML with line numbers, and a finding's XPath location to a line ----

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>|<!DOCTYPE[^>]*>|<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(\/?)>/g;

/** Every element's path (local names with their position among same-named siblings) and the line it starts on. */
function elementLines(xml) {
  const lines = new Map();
  const stack = [{ path: "", counts: new Map() }];
  let line = 1;
  let last = 0;
  for (const match of xml.matchAll(TOKEN)) {
    for (let i = last; i < match.index; i++) if (xml.charCodeAt(i) === 10) line++;
    last = match.index;
    const [, closing, name, selfClosing] = match;
    if (!name) continue;
    if (closing) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const parent = stack[stack.length - 1];
    const position = (parent.counts.get(name) ?? 0) + 1;
    parent.counts.set(name, position);
    const path = `${parent.path}/${name}[${position}]`;
    if (!lines.has(path)) lines.set(path, line);
    if (!selfClosing) stack.push({ path, counts: new Map() });
  }
  return lines;
}

/** `/*:Invoice[namespace-uri()='…'][1]/cac:Party[2]/@id` as [["Invoice", 1], ["Party", 2]]. */
function locationSteps(location) {
  const steps = [];
  let depth = 0;
  let current = "";
  for (const char of location) {
    if (char === "[") depth++;
    if (char === "]") depth--;
    if (char === "/" && depth === 0) {
      if (current) steps.push(current);
      current = "";
    } else current += char;
  }
  if (current) steps.push(current);
  const parsed = [];
  for (const step of steps) {
    const name = /^(?:\*:|[\w.-]+:)?([A-Za-z_][\w.-]*)/.exec(step);
    if (!name || step.startsWith("@") || /\(\)$/.test(step)) break;
    const positions = [...step.matchAll(/\[(\d+)\]/g)];
    parsed.push([name[1], positions.length ? Number(positions[positions.length - 1][1]) : 1]);
  }
  return parsed;
}

/** The line of the element a location names, or of its nearest ancestor found. */
function lineOf(lines, location) {
  if (!location) return null;
  const steps = locationSteps(location);
  // A location may start at the root with a wildcard (/*/cac:X): any root matches.
  const root = [...lines.keys()][0]?.split("/")[1];
  if (steps.length && steps[0][0] === "*" && root) steps[0] = [root.replace(/\[\d+\]$/, ""), 1];
  for (let n = steps.length; n > 0; n--) {
    const path = steps.slice(0, n).map(([name, pos]) => `/${name}[${pos}]`).join("");
    if (lines.has(path)) return lines.get(path);
  }
  return null;
}

function codeView(text, hits = new Set()) {
  const body = el("tbody");
  text.split("\n").forEach((line, i) => body.append(el("tr", { id: `L${i + 1}`, class: hits.has(i + 1) ? "hit" : "" }, el("td", { class: "n" }, String(i + 1)), el("td", {}, line))));
  return el("div", { class: "code" }, el("table", {}, body));
}

function findingsTable(findings, lines) {
  if (!findings.length) return el("p", { class: "muted" }, "No findings.");
  const rows = findings.map((f) => {
    const line = lines ? lineOf(lines, f.location) : null;
    const link = line ? el("a", { href: `#L${line}`, class: "line-link", "data-line": line }, `line ${line}`) : el("span", { class: "muted" }, "—");
    return el("tr", {}, el("td", {}, el("code", { class: "rule" }, f.ruleId)), el("td", {}, badge(f.severity, f.severity === "warning" || f.severity === "info" ? "test" : "bad")), el("td", {}, f.message), el("td", {}, link));
  });
  return el("table", { class: "findings" }, el("thead", {}, el("tr", {}, el("th", {}, "Rule"), el("th", {}, "Severity"), el("th", {}, "Message"), el("th", {}, "Line"))), el("tbody", {}, rows));
}

async function verdictView(result, judgedBytes, xmlText) {
  const lines = xmlText ? elementLines(xmlText) : null;
  const findings = [...(result.errors ?? []), ...(result.warnings ?? [])];
  const hits = new Set(lines ? findings.map((f) => lineOf(lines, f.location)).filter(Boolean) : []);
  const seal = el("span", { class: "seal" }, badge("checking seal…", "muted"));
  const view = el(
    "div",
    {},
    el("div", { class: "verdict" }, badge(result.valid ? "valid" : "invalid", result.valid ? "ok" : "bad"), badge(result.format ?? "unknown"), result.profileDetected ? badge(result.profileDetected, "muted") : null, seal),
    el("p", { class: "muted" }, `${count(result.errors?.length ?? 0, "error")}, ${count(result.warnings?.length ?? 0, "warning")} · document sha256 ${result.sha256 ?? "—"}`),
    findingsTable(findings, lines),
    xmlText ? el("h2", { class: "spaced" }, "Document") : null,
    xmlText ? codeView(xmlText, hits) : null,
  );
  verifySeal(result, judgedBytes).then(
    (outcome) => seal.replaceChildren(outcome.ok ? badge("seal verified", "ok") : badge(`seal not verified: ${outcome.why}`, "bad")),
    (error) => seal.replaceChildren(badge(`seal not verified: ${error.message}`, "bad")),
  );
  return view;
}

function errorView(envelope, status) {
  const error = envelope?.error ?? { code: String(status), message: "unexpected answer" };
  return el("div", { class: "flash bad" }, el("strong", {}, error.code), ": ", error.message);
}

const base64Bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const isPdf = (bytes) => bytes.length > 4 && String.fromCharCode(...bytes.slice(0, 5)) === "%PDF-";

function pdfView(bytes) {
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
  return el("div", {}, el("iframe", { class: "pdf", src: url, title: "PDF preview" }), el("p", {}, el("a", { href: url, download: "invoice.pdf" }, "Download the PDF")));
}

// ---- playground ----

function playground() {
  const data = JSON.parse(document.getElementById("playground-data").textContent);
  const $ = (id) => document.getElementById(id);
  const result = $("result");
  const mode = () => document.querySelector("input[name=mode]:checked").value;
  const show = (...nodes) => result.replaceChildren(...nodes);
  const busy = (what) => show(el("p", { class: "muted" }, `${what}…`));

  for (const tab of document.querySelectorAll("[data-tab]")) {
    tab.addEventListener("click", () => {
      for (const t of document.querySelectorAll("[data-tab]")) t.classList.toggle("active", t === tab);
      for (const p of document.querySelectorAll("[data-panel]")) p.hidden = p.dataset.panel !== tab.dataset.tab;
      result.replaceChildren();
    });
  }

  const standardOf = () => data.standards.find((s) => s.standard === $("standard").value);
  const fillProfiles = () => {
    const s = standardOf();
    $("profile").replaceChildren(...s.profiles.map((p) => el("option", { value: p.profile, selected: p.profile === s.defaultProfile }, p.profile)));
  };
  const loadSample = () => {
    const sample = standardOf().profiles.find((p) => p.profile === $("profile").value);
    $("invoice").value = JSON.stringify(sample.invoice, null, 2);
  };
  $("standard").replaceChildren(...data.standards.map((s) => el("option", { value: s.standard }, s.standard)));
  $("target").replaceChildren(...data.convertTargets.map((t) => el("option", { value: t }, t)));
  $("standard").addEventListener("change", () => (fillProfiles(), loadSample()));
  $("profile").addEventListener("change", loadSample);
  $("load-sample").addEventListener("click", loadSample);
  fillProfiles();
  loadSample();

  $("generate").addEventListener("click", async () => {
    let invoice;
    try {
      invoice = JSON.parse($("invoice").value);
    } catch (error) {
      return show(el("div", { class: "flash bad" }, `The invoice is not JSON: ${error.message}`));
    }
    const s = standardOf();
    const output = $("output").value;
    const body = { standard: s.standard, profile: $("profile").value, output, invoice };
    // A visualization PDF needs a layout, and a hybrid's visible page is blank without one.
    if (output === "pdf") body.template = "standard";
    busy("Generating");
    const res = await api("/v1/generate", { method: "POST", mode: mode(), body: JSON.stringify(body), headers: { "content-type": "application/json", accept: "application/json" } });
    const envelope = await res.json();
    if (!envelope.success) {
      const verdict = envelope.error?.details?.validationResult;
      return show(errorView(envelope, res.status), verdict ? await verdictView(verdict, null, null) : "");
    }
    const bytes = base64Bytes(envelope.data.output);
    const verdict = envelope.data.validationResult;
    if (isPdf(bytes)) return show(el("h2", {}, `${s.standard} PDF`), pdfView(bytes), el("h2", { class: "spaced" }, "Verdict"), await verdictView(verdict, null, null));
    show(el("h2", {}, `${s.standard} XML`), await verdictView(verdict, null, new TextDecoder().decode(bytes)));
  });

  /** The chosen file's bytes and the content type /v1 takes for them. */
  async function upload(inputId) {
    const file = $(inputId).files[0];
    if (!file) {
      show(el("div", { class: "flash bad" }, "Choose an XML or PDF file first."));
      return null;
    }
    // The last answer goes at once: it would otherwise stand beside the new file while it is read.
    busy(`Reading ${file.name}`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    return { bytes, contentType: isPdf(bytes) ? "application/pdf" : "application/xml", text: isPdf(bytes) ? null : new TextDecoder().decode(bytes) };
  }

  $("validate").addEventListener("click", async () => {
    const file = await upload("validate-file");
    if (!file) return;
    busy("Validating");
    const res = await api("/v1/validate", { method: "POST", mode: mode(), body: file.bytes, headers: { "content-type": file.contentType } });
    const envelope = await res.json();
    show(envelope.success ? await verdictView(envelope.data, file.bytes, file.text) : errorView(envelope, res.status));
  });

  $("parse").addEventListener("click", async () => {
    const file = await upload("parse-file");
    if (!file) return;
    busy("Parsing");
    const res = await api("/v1/parse", { method: "POST", mode: mode(), body: file.bytes, headers: { "content-type": file.contentType } });
    const envelope = await res.json();
    show(envelope.success ? invoiceView(envelope.data) : errorView(envelope, res.status));
  });

  $("convert").addEventListener("click", async () => {
    const file = await upload("convert-file");
    if (!file) return;
    busy("Converting");
    const res = await api(`/v1/convert?targetFormat=${encodeURIComponent($("target").value)}`, { method: "POST", mode: mode(), body: file.bytes, headers: { "content-type": file.contentType } });
    if (!res.ok) return show(errorView(await res.json(), res.status));
    const bytes = new Uint8Array(await res.arrayBuffer());
    const lost = JSON.parse(res.headers.get("x-lost-elements") ?? "[]");
    const losses = lost.length
      ? el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Path"), el("th", {}, "Value"), el("th", {}, "Reason"))), el("tbody", {}, lost.map((l) => el("tr", {}, el("td", {}, el("code", {}, l.path ?? "")), el("td", {}, l.value ?? ""), el("td", {}, l.reason ?? "")))))
      : el("p", { class: "muted" }, "Nothing was lost.");
    show(
      el("div", { class: "verdict" }, badge(`${res.headers.get("x-source-format")} → ${res.headers.get("x-target-format")}`), badge(res.headers.get("x-output-envelope") ?? "", "muted")),
      el("h2", {}, "Lost elements"),
      losses,
      el("h2", { class: "spaced" }, "Output"),
      isPdf(bytes) ? pdfView(bytes) : codeView(new TextDecoder().decode(bytes)),
    );
  });
}

/** A parsed invoice as tables: its header facts, parties, lines and totals. */
function invoiceView({ format, profileDetected, invoice }) {
  const kv = (pairs) => el("dl", { class: "kv" }, pairs.filter(([, v]) => v !== undefined && v !== null && v !== "").flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
  const party = (p) => (p ? [p.name, p.vatId, [p.address?.street, p.address?.postalCode, p.address?.city, p.address?.countryCode].filter(Boolean).join(", ")].filter(Boolean).join(" · ") : "");
  const lines = (invoice.lines ?? []).map((l) => el("tr", {}, el("td", {}, l.description), el("td", {}, `${l.quantity} ${l.unitCode}`), el("td", {}, l.unitPrice), el("td", {}, `${l.vatCategoryCode} ${l.vatRate}%`), el("td", {}, l.lineTotal)));
  return el(
    "div",
    { class: "parsed" },
    el("div", { class: "verdict" }, badge(format), profileDetected ? badge(profileDetected, "muted") : null),
    kv([
      ["Number", invoice.number],
      ["Issue date", invoice.issueDate],
      ["Due date", invoice.dueDate],
      ["Currency", invoice.currencyCode],
      ["Seller", party(invoice.seller)],
      ["Buyer", party(invoice.buyer)],
      ["Buyer reference", invoice.buyerReference],
      ["Note", invoice.note],
      ["Net", invoice.totalNetAmount],
      ["VAT", invoice.totalTaxAmount],
      ["Gross", invoice.totalGrossAmount],
    ]),
    el("h2", { class: "spaced" }, "Lines"),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Description"), el("th", {}, "Quantity"), el("th", {}, "Unit price"), el("th", {}, "VAT"), el("th", {}, "Total"))), el("tbody", {}, lines)),
  );
}

// ---- templates: preview a stored template on the sample invoice, in test mode ----

function templates() {
  const sample = JSON.parse(document.getElementById("template-sample").textContent);
  for (const button of document.querySelectorAll("[data-preview]")) {
    button.addEventListener("click", async () => {
      const target = document.getElementById("preview");
      target.replaceChildren(el("p", { class: "muted" }, "Drawing the preview (test mode)…"));
      const body = { standard: "xrechnung", output: "pdf", pdfTemplateId: button.dataset.preview, invoice: sample };
      const res = await api("/v1/generate", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", accept: "application/json" } });
      const envelope = await res.json();
      target.replaceChildren(envelope.success ? pdfView(base64Bytes(envelope.data.output)) : errorView(envelope, res.status));
    });
  }
}

// ---- transmissions: what GET /v1/transmissions answers ----

function transmissions() {
  const list = document.getElementById("transmissions");
  if (list) {
    (async () => {
      const res = await api("/v1/transmissions?limit=100");
      const envelope = await res.json();
      if (!envelope.success) return list.replaceChildren(errorView(envelope, res.status));
      const items = envelope.data.items;
      list.replaceChildren(
        items.length
          ? el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Id"), el("th", {}, "Direction"), el("th", {}, "Network"), el("th", {}, "Status"), el("th", {}, ""))),
              el("tbody", {}, items.map((t) => el("tr", {}, el("td", {}, el("a", { href: `/dashboard/transmissions/${encodeURIComponent(t.id)}` }, t.id)), el("td", {}, t.direction), el("td", {}, t.network), el("td", {}, badge(t.status)), el("td", {}, t.atRisk ? badge("at risk", "bad") : "")))))
          : el("p", { class: "muted" }, "No transmissions yet."),
      );
    })();
  }
  const one = document.getElementById("transmission");
  if (one) {
    (async () => {
      const id = encodeURIComponent(one.dataset.id);
      const [res, eventsRes] = await Promise.all([api(`/v1/transmissions/${id}`), api(`/v1/transmissions/${id}/events`)]);
      const [t, events] = [await res.json(), await eventsRes.json()];
      if (!t.success) return one.replaceChildren(errorView(t, res.status));
      const d = t.data;
      const chain = events.success ? events.data : { items: [], chainOk: false };
      one.replaceChildren(
        el("dl", { class: "kv" }, el("dt", {}, "Status"), el("dd", {}, badge(d.status), d.atRisk ? badge("at risk", "bad") : null), ...[["Direction", d.direction], ["Network", d.network], ["Counterparty", `${d.counterparty?.scheme}:${d.counterparty?.id}`], ["Mode", d.livemode ? "live" : "test"], ["Created", d.createdAt], ["Updated", d.updatedAt]].flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v ?? "")])),
        el("h2", { class: "spaced" }, "Events ", chain.chainOk ? badge("chainOk: true", "ok") : badge("chainOk: false", "bad")),
        el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Type"), el("th", {}, "Status"), el("th", {}, "At"), el("th", {}, "Hash"))),
          el("tbody", {}, chain.items.map((e) => el("tr", {}, el("td", {}, e.seq), el("td", {}, e.type), el("td", {}, e.status), el("td", {}, e.at), el("td", {}, el("code", {}, e.hash.slice(0, 16) + "…")))))),
      );
    })();
  }
}

// ---- webhooks: what /v1/webhooks answers; the secret of a new subscription shown once ----

function webhooks() {
  const list = document.getElementById("webhooks");
  const form = document.getElementById("webhook-form");
  const secret = document.getElementById("webhook-secret");
  const load = async () => {
    const res = await api("/v1/webhooks");
    const envelope = await res.json();
    if (!envelope.success) return list.replaceChildren(errorView(envelope, res.status));
    const items = envelope.data;
    list.replaceChildren(
      items.length
        ? el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "Endpoint"), el("th", {}, "Events"), el("th", {}, "Status"), el("th", {}, ""))),
            el("tbody", {}, items.map((w) => {
              const remove = el("button", { type: "button", class: "secondary" }, "Delete");
              remove.addEventListener("click", async () => {
                await api(`/v1/webhooks/${encodeURIComponent(w.id)}`, { method: "DELETE" });
                load();
              });
              return el("tr", {}, el("td", {}, el("code", {}, w.url)), el("td", {}, count(w.eventTypes.length, "event")), el("td", {}, badge(w.status, w.status === "active" ? "ok" : "bad")), el("td", {}, remove));
            })))
        : el("p", { class: "muted" }, "No subscriptions yet."),
    );
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = JSON.stringify({ url: data.get("url"), eventTypes: data.getAll("eventTypes") });
    const res = await api("/v1/webhooks", { method: "POST", body, headers: { "content-type": "application/json" } });
    const envelope = await res.json();
    if (!envelope.success) return secret.replaceChildren(errorView(envelope, res.status));
    const input = el("input", { id: "new-webhook-secret", readonly: true, value: envelope.data.secret });
    const copy = el("button", { type: "button", class: "secondary", "data-copy": "new-webhook-secret" }, "Copy");
    copy.addEventListener("click", () => navigator.clipboard?.writeText(envelope.data.secret));
    secret.replaceChildren(el("div", { class: "card" }, el("h2", {}, "Signing secret"), el("p", {}, "Shown this once: verify each delivery's webhook-signature with it (docs/webhooks.md)."), el("div", { class: "secret" }, input, copy)));
    form.reset();
    load();
  });
  load();
}

// ---- every page ----

for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const input = document.getElementById(button.dataset.copy);
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand("copy");
    }
    button.textContent = "Copied";
  });
}

const pages = { playground, templates, transmissions, webhooks };
pages[document.body.dataset.page]?.();

document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a.line-link");
  if (!link) return;
  for (const row of document.querySelectorAll(".code tr.focus")) row.classList.remove("focus");
  document.getElementById(`L${link.dataset.line}`)?.classList.add("focus");
});
