import { html } from "../html";

/**
 * The organization's transmissions, read by the page's script from GET /v1/transmissions (and one
 * transmission's events with chainOk), so the page shows exactly what the API answers.
 */
export function transmissionsPage(id: string | null) {
  return id
    ? html`<h1>Transmission <code>${id}</code></h1><p class="lead"><a href="/dashboard/transmissions">All transmissions</a></p><div id="transmission" data-id="${id}" class="card">Loading…</div>`
    : html`<h1>Transmissions</h1><p class="lead">Outbound and inbound documents of this organization, live and test, newest first.</p>
<div id="transmissions" class="card">Loading…</div>`;
}
