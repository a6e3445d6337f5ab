import type { Deps } from "../../api/deps";
import { listKeys } from "../../accounts/keys";
import { html } from "../html";
import { csrfField, formatTime } from "../layout";
import type { Session } from "../session";

interface FreshKey {
  key: string;
  livemode: boolean;
  label: string | null;
}

/**
 * The organization's keys by prefix only (only hashes are stored); a key just created is shown in
 * full on the answer to its creation and never again. The mode selector starts on live, as the
 * interface specification says of the dashboard.
 */
export async function keysPage(deps: Deps, session: Session, fresh: FreshKey | null, flash: string | null) {
  const keys = (await listKeys(deps.storage, session.org)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const rows = keys.map(
    (k) => html`<tr data-key-id="${k.keyId}"><td><code>${k.livemode ? "svc_live" : "svc_test"}_••••••••</code></td><td>${k.label ?? html`<span class="muted">no label</span>`}</td>
<td><span class="badge ${k.livemode ? "live" : "test"}">${k.livemode ? "live" : "test"}</span></td><td>${formatTime(k.createdAt)}</td>
<td>${k.revokedAt ? html`<span class="badge muted">revoked ${formatTime(k.revokedAt)}</span>` : html`<span class="badge ok">active</span>`}</td>
<td>${k.revokedAt ? "" : html`<form method="post" action="/dashboard/keys/revoke">${csrfField(session)}<input type="hidden" name="keyId" value="${k.keyId}"><button class="danger" type="submit">Revoke</button></form>`}</td></tr>`,
  );
  return html`<h1>API keys</h1><p class="lead">Keys authenticate calls to <code>/v1</code>. A live key bills against the plan; a test key spends the sandbox allowance and marks its output.</p>
${flash ? html`<div class="flash ok">${flash}</div>` : ""}
${
  fresh
    ? html`<div class="card" id="fresh-key"><h2>Your new ${fresh.livemode ? "live" : "test"} key${fresh.label ? html` “${fresh.label}”` : ""}</h2>
<p>Copy it now: it is shown only this once (only its hash is stored).</p>
<div class="secret"><input id="new-key" readonly value="${fresh.key}"><button type="button" class="secondary" data-copy="new-key">Copy</button></div></div>`
    : ""
}
<div class="card"><h2>Create a key</h2><form method="post" action="/dashboard/keys">${csrfField(session)}<div class="row">
<div><label for="label">Label</label><input id="label" name="label" maxlength="200" placeholder="e.g. billing service"></div>
<div><label for="mode">Mode</label><select id="mode" name="mode"><option value="live" selected>live</option><option value="test">test</option></select></div>
<div><button type="submit">Create key</button></div></div></form></div>
<div class="card"><h2>Keys</h2>${
    keys.length
      ? html`<table id="keys"><thead><tr><th>Key</th><th>Label</th><th>Mode</th><th>Created</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
      : html`<p class="muted">No keys yet.</p>`
  }</div>`;
}
