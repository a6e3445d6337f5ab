// Every dashboard URL: the sign-in pages, the signed-in pages and their form posts, the embedded
// assets. A signed-in page reads and changes only its session's organization; every post must
// carry the session's CSRF token (before sign-in, the pre-session cookie's) or is refused.

import type { Deps } from "../api/deps";
import { readCappedBody } from "../api/body";
import { edgeResponse } from "../api/respond";
import { createKey, listKeys, revokeKey } from "../accounts/keys";
import { setRulesetChannel } from "../accounts/orgs";
import { AccountError } from "../accounts/errors";
import { createTemplate } from "../templates/store";
import { TEMPLATE_LANGUAGES, type TemplateDefinitionInput } from "../pdf/design";
import { page, PAGE_HEADERS, redirect, signedIn, type PageId } from "./layout";
import { closeSession, cookieHeader, cookies, currentSession, openSession, PRE_SESSION_COOKIE, randomToken, sameToken, type Session } from "./session";
import { linkSignIn, passwordSignIn } from "./sign-in";
import { linkPage, refusedPage, signInPage } from "./pages/sign-in";
import { overviewPage } from "./pages/overview";
import { keysPage } from "./pages/keys";
import { playgroundPage } from "./pages/playground";
import { templatesPage } from "./pages/templates";
import { rulesetsPage } from "./pages/rulesets";
import { transmissionsPage } from "./pages/transmissions";
import { webhooksPage } from "./pages/webhooks";
import css from "./assets/dashboard.css" with { type: "text" };
import script from "./assets/dashboard.js" with { type: "text" };
import type { Html } from "./html";

const ASSETS: Record<string, { body: string; type: string }> = {
  "/dashboard/assets/dashboard.css": { body: css, type: "text/css; charset=utf-8" },
  "/dashboard/assets/dashboard.js": { body: script, type: "text/javascript; charset=utf-8" },
};

const FORM_MAX_BYTES = 64 * 1024;
const FORM_TIMEOUT_MS = 10_000;

async function readForm(request: Request): Promise<URLSearchParams> {
  const bytes = await readCappedBody(request, { maxBytes: FORM_MAX_BYTES, deadlineAt: Date.now() + FORM_TIMEOUT_MS, timeoutMs: FORM_TIMEOUT_MS });
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

const refused = (message: string, status = 403) => page(refusedPage(message), { status });

/** The pre-session token, set on the page that shows a sign-in form. */
function preSession(request: Request): { token: string; setCookie: Record<string, string> } {
  const existing = cookies(request).get(PRE_SESSION_COOKIE);
  if (existing) return { token: existing, setCookie: {} };
  const token = randomToken();
  return { token, setCookie: { "set-cookie": cookieHeader(request, PRE_SESSION_COOKIE, token, 3600) } };
}

async function signedOutRoutes(deps: Deps, request: Request, path: string, clientAddress: string): Promise<Response | null> {
  const url = new URL(request.url);
  if (path === "/dashboard/sign-in" && request.method === "GET") {
    const pre = preSession(request);
    return page(signInPage(pre.token, null), { headers: pre.setCookie });
  }
  if (path === "/dashboard/link" && request.method === "GET") {
    const pre = preSession(request);
    return page(linkPage(pre.token, url.searchParams.get("token") ?? "", null), { headers: pre.setCookie });
  }
  if ((path === "/dashboard/sign-in" || path === "/dashboard/link") && request.method === "POST") {
    const form = await readForm(request);
    const pre = cookies(request).get(PRE_SESSION_COOKIE);
    if (!sameToken(form.get("csrf"), pre)) return refused("The form's CSRF token is missing or does not match: reload the page and try again.");
    if (path === "/dashboard/link") {
      const orgId = await linkSignIn(deps.storage, deps.clock, form.get("token") ?? "");
      if (!orgId) return page(linkPage(pre!, "", "This link is unknown, used already or expired. Ask for a new one: einvoice dashboard link --org ORG"), { status: 403 });
      return redirect("/dashboard", { "set-cookie": await openSession(deps, request, orgId, null) });
    }
    const outcome = await passwordSignIn(deps.storage, deps.clock, clientAddress, form.get("email") ?? "", form.get("password") ?? "");
    if (!outcome.ok) {
      const message = outcome.throttled ? `Too many sign-in attempts: wait ${outcome.retryAfterSeconds ?? 60} seconds.` : "Unknown email or wrong password.";
      return page(signInPage(pre!, message), { status: outcome.throttled ? 429 : 401, headers: outcome.throttled ? { "retry-after": String(outcome.retryAfterSeconds ?? 60) } : {} });
    }
    return redirect("/dashboard", { "set-cookie": await openSession(deps, request, outcome.orgId, outcome.userId) });
  }
  return null;
}

function templateDefinition(form: URLSearchParams): TemplateDefinitionInput {
  const definition: TemplateDefinitionInput = {};
  const accent = form.get("accentColor");
  if (accent && /^#[0-9A-Fa-f]{6}$/.test(accent)) definition.accentColor = accent;
  const footer = form.get("footerText")?.trim();
  if (footer) definition.footerText = footer.slice(0, 500);
  const language = form.get("language");
  if (language && (TEMPLATE_LANGUAGES as readonly string[]).includes(language)) definition.language = language as TemplateDefinitionInput["language"];
  return definition;
}

async function signedInRoutes(deps: Deps, request: Request, path: string, session: Session): Promise<Response> {
  const nav = { transmission: deps.config.transmission.provider !== null };
  const show = (here: PageId, title: string, content: Html, status = 200) => page(signedIn(session, nav, here, title, content), { status });
  if (request.method === "GET") {
    if (path === "/dashboard") return show("overview", "Overview", await overviewPage(deps, session));
    if (path === "/dashboard/keys") return show("keys", "API keys", await keysPage(deps, session, null, null));
    if (path === "/dashboard/playground") return show("playground", "Playground", playgroundPage());
    if (path === "/dashboard/templates") return show("templates", "PDF templates", await templatesPage(deps, session, null));
    if (path === "/dashboard/rulesets") return show("rulesets", "Rulesets", rulesetsPage(deps, session, null));
    if (nav.transmission && path === "/dashboard/transmissions") return show("transmissions", "Transmissions", transmissionsPage(null));
    const one = nav.transmission ? /^\/dashboard\/transmissions\/(txn_[A-Za-z0-9_-]+)$/.exec(path) : null;
    if (one) return show("transmissions", "Transmission", transmissionsPage(one[1]));
    if (nav.transmission && path === "/dashboard/webhooks") return show("webhooks", "Webhooks", webhooksPage());
    return refused("No such page.", 404);
  }
  const form = await readForm(request);
  if (!sameToken(form.get("csrf"), session.row.csrfToken)) return refused("The form's CSRF token is missing or does not match: reload the page and try again.");
  if (path === "/dashboard/sign-out") return redirect("/dashboard/sign-in", { "set-cookie": await closeSession(deps, request) });
  try {
    if (path === "/dashboard/keys") {
      const created = await createKey(deps.storage, deps.clock, session.org, form.get("mode") ?? "live", form.get("label")?.trim() || undefined);
      return show("keys", "API keys", await keysPage(deps, session, { key: created.key, livemode: created.livemode, label: form.get("label")?.trim() || null }, null));
    }
    if (path === "/dashboard/keys/revoke") {
      const keyId = form.get("keyId") ?? "";
      // revokeKey addresses any key by id: the session's organization must own it.
      if (!(await listKeys(deps.storage, session.org)).some((k) => k.keyId === keyId)) return refused("No such key in this organization.", 404);
      await revokeKey(deps.storage, deps.clock, keyId);
      return show("keys", "API keys", await keysPage(deps, session, null, "Key revoked: the API refuses it from the next request."));
    }
    if (path === "/dashboard/templates") {
      const name = form.get("name")?.trim() ?? "";
      if (!name || name.length > 200) return show("templates", "PDF templates", await templatesPage(deps, session, { ok: false, text: "A template needs a name of at most 200 characters." }), 400);
      const stored = await createTemplate(deps.storage, deps.clock, session.org.id, name, templateDefinition(form));
      return show("templates", "PDF templates", await templatesPage(deps, session, { ok: true, text: `Template created: short code ${stored.ref}` }));
    }
    if (path === "/dashboard/rulesets/channel") {
      const updated = { ...session, org: await setRulesetChannel(deps.storage, session.org, form.get("channel") ?? "") };
      return page(signedIn(updated, nav, "rulesets", "Rulesets", rulesetsPage(deps, updated, `Channel set to ${updated.org.rulesetChannel}.`)));
    }
  } catch (error) {
    if (error instanceof AccountError) return refused(error.message, 400);
    throw error;
  }
  return refused("No such form.", 404);
}

export async function dashboard(deps: Deps, request: Request, clientAddress: string): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return redirect("/dashboard");
  const asset = ASSETS[path];
  if (asset) return edgeResponse(new Response(asset.body, { headers: { "content-type": asset.type, ...PAGE_HEADERS, "cache-control": "no-cache" } }));
  if (request.method !== "GET" && request.method !== "POST") return refused("Method not allowed.", 405);
  const signedOutAnswer = await signedOutRoutes(deps, request, path, clientAddress);
  if (signedOutAnswer) return signedOutAnswer;
  const session = await currentSession(deps, request);
  if (!session) return request.method === "GET" ? redirect("/dashboard/sign-in") : refused("Your session has expired: sign in again.", 401);
  return signedInRoutes(deps, request, path, session);
}
