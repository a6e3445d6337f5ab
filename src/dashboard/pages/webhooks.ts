import { html } from "../html";
import { WEBHOOK_EVENTS } from "../../webhooks/subscriptions";

/**
 * The organization's webhook subscriptions, read and changed by the page's script through
 * /v1/webhooks (so the page does what the API does); a new subscription's secret is shown once.
 */
export function webhooksPage() {
  return html`<h1>Webhooks</h1><p class="lead">Transmission events sent to your HTTPS endpoints, signed per Standard Webhooks. Test-key events are recorded, never sent.</p>
<form id="webhook-form" class="card"><h2>New subscription</h2>
<div class="secret"><label for="webhook-url">Endpoint URL</label></div><div class="secret"><input id="webhook-url" name="url" type="url" required placeholder="https://example.com/einvoice/events" maxlength="2048"></div>
<p><label>Events</label>${WEBHOOK_EVENTS.map((type) => html`<label class="choice"><input type="checkbox" name="eventTypes" value="${type}" checked> <code>${type}</code></label> `)}</p>
<button type="submit">Subscribe</button></form>
<div id="webhook-secret"></div>
<div id="webhooks" class="card">Loading…</div>`;
}
