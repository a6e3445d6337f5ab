import type { Deps } from "../../api/deps";
import { listTemplates } from "../../templates/store";
import { TEMPLATE_LANGUAGES, type TemplateDefinitionInput } from "../../pdf/design";
import { html, jsonBlock } from "../html";
import { playgroundCatalogue } from "../samples";
import { csrfField, formatTime } from "../layout";
import type { Session } from "../session";

/**
 * Stored PDF templates with their short code (the pdfTemplateId generate takes). The form sets
 * what needs no image check; a logo is set through POST /v1/pdf-templates, whose design check runs
 * in an engine worker. Preview draws the sample invoice with the template in test mode.
 */
export async function templatesPage(deps: Deps, session: Session, flash: { ok: boolean; text: string } | null) {
  const templates = await listTemplates(deps.storage, session.org.id);
  const rows = templates.map((t) => ({ ...t, definition: t.definition as TemplateDefinitionInput })).map(
    (t) => html`<tr><td><code class="ref">${t.ref}</code></td><td>${t.name}</td><td>${t.definition.accentColor ?? html`<span class="muted">default</span>`}</td>
<td>${t.definition.language ?? "auto"}</td><td>${formatTime(t.createdAt)}</td><td><button type="button" class="secondary" data-preview="${t.ref}">Preview</button></td></tr>`,
  );
  return html`<h1>PDF templates</h1><p class="lead">Pass a template's short code as <code>pdfTemplateId</code> to <code>POST /v1/generate</code> with <code>output: "pdf"</code>.</p>
${flash ? html`<div class="flash ${flash.ok ? "ok" : "bad"}">${flash.text}</div>` : ""}
<div class="card"><h2>Create a template</h2><form method="post" action="/dashboard/templates">${csrfField(session)}<div class="row">
<div><label for="name">Name</label><input id="name" name="name" required maxlength="200"></div>
<div><label for="accent">Accent colour</label><input id="accent" name="accentColor" type="color" value="#1f4e79"></div>
<div><label for="language">Labels</label><select id="language" name="language"><option value="auto">auto (seller's country)</option>${TEMPLATE_LANGUAGES.map((l) => html`<option>${l}</option>`)}</select></div>
</div><div class="row"><div class="grow"><label for="footer">Footer text</label><input id="footer" name="footerText" maxlength="500" size="60"></div>
<div><button type="submit">Create template</button></div></div></form></div>
<div class="card"><h2>Templates</h2>${
    templates.length
      ? html`<table id="templates"><thead><tr><th>Short code</th><th>Name</th><th>Accent</th><th>Labels</th><th>Created</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
      : html`<p class="muted">No templates yet.</p>`
  }<div id="preview" class="result"></div></div>
${jsonBlock("template-sample", playgroundCatalogue().find((s) => s.standard === "xrechnung")?.profiles[0].invoice)}`;
}
