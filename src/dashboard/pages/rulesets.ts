import type { Deps } from "../../api/deps";
import { buildCatalogue } from "../../rulesets/catalogue";
import { today } from "../../clock";
import { html } from "../html";
import { csrfField } from "../layout";
import type { Session } from "../session";

/** The public catalogue (what GET /v1/rulesets answers) and the organization's default channel. */
export function rulesetsPage(deps: Deps, session: Session, flash: string | null) {
  const catalogue = buildCatalogue(deps.lifecycle, today(deps.clock));
  const rows = catalogue.rulesets.map(
    (r) => html`<tr><td><strong>${r.label}</strong><div class="muted">${r.format} · ${r.standard}</div></td><td>${r.authority}<div class="muted">${r.region}</div></td>
<td class="nowrap"><code>${r.rulesetVersion}</code>${r.releaseDate ? html`<div class="muted">${r.releaseDate}</div>` : ""}</td><td><span class="badge">${r.verificationBadge}</span></td>
<td class="nowrap">${r.retained.length ? r.retained.map((x) => html`<div><code>${x.version}</code> <span class="muted">until ${x.retainedUntil ?? "—"}</span></div>`) : html`<span class="muted">none</span>`}</td></tr>`,
  );
  const channel = session.org.rulesetChannel;
  return html`<h1>Rulesets</h1><p class="lead">The pinned rule artifacts that judge every document; each verdict names them and seals them with <code>rulesetSha256</code>.</p>
${flash ? html`<div class="flash ok">${flash}</div>` : ""}
<div class="card"><h2>Channel of this organization</h2><form method="post" action="/dashboard/rulesets/channel">${csrfField(session)}
${catalogue.channels.map(
  (c) => html`<p><label class="choice"><input type="radio" name="channel" value="${c.id}" ${c.id === channel ? html`checked` : ""}> ${c.label}</label><span class="muted">${c.description}</span></p>`,
)}<button type="submit">Save channel</button></form></div>
<div class="card"><h2>Catalogue</h2><table id="catalogue"><thead><tr><th>Format</th><th>Authority</th><th>Version</th><th>Verification</th><th>Retained</th></tr></thead><tbody>${rows}</tbody></table></div>
${
  catalogue.scheduledChanges.length
    ? html`<div class="card"><h2>Scheduled changes</h2><table><thead><tr><th>Artifact</th><th>From</th><th>To</th><th>Effective</th></tr></thead><tbody>${catalogue.scheduledChanges.map(
        (s) => html`<tr><td>${s.versionKey}</td><td>${s.from}</td><td>${s.to}</td><td>${s.effectiveOn}</td></tr>`,
      )}</tbody></table></div>`
    : ""
}
<p class="muted">${catalogue.artifacts.length} sealable artifacts are listed by <a href="/v1/rulesets">GET /v1/rulesets</a>.</p>`;
}
