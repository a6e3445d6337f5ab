// The frame every dashboard page shares, and the headers every page answers with.

import { html, type Html } from "./html";
import { edgeResponse } from "../api/respond";
import type { Session } from "./session";

/**
 * Scripts and styles only from this origin (the embedded assets), nothing inline; PDFs previewed
 * from blob: URLs the playground makes; no framing, no foreign form target, no <base>.
 */
const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; frame-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const PAGE_HEADERS: Record<string, string> = {
  "content-security-policy": PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

export function page(body: Html, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return edgeResponse(
    new Response(`<!doctype html>\n${body.text}`, {
      status: init.status ?? 200,
      headers: { "content-type": "text/html; charset=utf-8", ...PAGE_HEADERS, ...init.headers },
    }),
  );
}

export function redirect(to: string, headers: Record<string, string> = {}): Response {
  return edgeResponse(new Response(null, { status: 303, headers: { location: to, ...PAGE_HEADERS, ...headers } }));
}

function head(title: string): Html {
  return html`<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · einvoice</title><link rel="stylesheet" href="/dashboard/assets/dashboard.css"><script type="module" src="/dashboard/assets/dashboard.js"></script></head>`;
}

interface Nav {
  transmission: boolean;
}

const NAV = [
  ["overview", "/dashboard", "Overview"],
  ["keys", "/dashboard/keys", "API keys"],
  ["playground", "/dashboard/playground", "Playground"],
  ["templates", "/dashboard/templates", "PDF templates"],
  ["rulesets", "/dashboard/rulesets", "Rulesets"],
  ["transmissions", "/dashboard/transmissions", "Transmissions"],
  ["webhooks", "/dashboard/webhooks", "Webhooks"],
] as const;

export type PageId = (typeof NAV)[number][0];

/** A signed-in page: the organization's name, the navigation, the CSRF token for the page's forms and script. */
export function signedIn(session: Session, nav: Nav, here: PageId, title: string, content: Html): Html {
  // Webhooks carry transmission events: both pages exist only while transmission is on.
  const links = NAV.filter(([id]) => (id !== "transmissions" && id !== "webhooks") || nav.transmission).map(
    ([id, href, label]) => html`<a href="${href}" class="${id === here ? "here" : ""}">${label}</a>`,
  );
  return html`<html lang="en">${head(title)}<body data-page="${here}" data-csrf="${session.row.csrfToken}"><div class="shell">
<nav class="side"><div class="brand">einvoice<small>${session.org.name}</small></div>${links}
<form method="post" action="/dashboard/sign-out">${csrfField(session)}<button type="submit" class="secondary">Sign out</button></form></nav>
<main>${content}</main></div></body></html>`;
}

/** A page without a session (sign-in, a link to use). */
export function signedOut(title: string, content: Html): Html {
  return html`<html lang="en">${head(title)}<body data-page="signin"><main class="signin"><div><h1>einvoice</h1><p class="lead">Dashboard</p></div><div class="card">${content}</div></main></body></html>`;
}

export function csrfField(session: Session): Html {
  return html`<input type="hidden" name="csrf" value="${session.row.csrfToken}">`;
}

export const formatTime = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "");
