import { html, jsonBlock } from "../html";
import { playgroundCatalogue } from "../samples";
import { CONVERT_FORMATS } from "../../profiles/ids";

/**
 * The playground: forms the page's script turns into calls to /v1 with the session (and its own
 * live/test switch, starting on test), results as tables, XML with line numbers, PDFs previewed,
 * and the seal checked in the browser against GET /v1/rulesets. Without script the page says so.
 */
export function playgroundPage() {
  const file = (id: string) => html`<div><label for="${id}">XML or PDF invoice</label><input type="file" id="${id}" accept=".xml,.pdf,application/xml,text/xml,application/pdf"></div>`;
  return html`<div class="row spread"><div><h1>Playground</h1><p class="lead">Every call goes to the same <code>/v1</code> API as your integration, metered the same way.</p></div>
<div><label>Mode</label><div class="switch" id="mode"><label><input type="radio" name="mode" value="test" checked> Test</label><label><input type="radio" name="mode" value="live"> Live</label></div></div></div>
<noscript><div class="flash bad">The playground needs JavaScript; every other page works without it.</div></noscript>
${jsonBlock("playground-data", { standards: playgroundCatalogue(), convertTargets: CONVERT_FORMATS })}
<div class="card"><div class="tabs" role="tablist"><button type="button" class="active" data-tab="generate">Generate</button><button type="button" data-tab="validate">Validate</button><button type="button" data-tab="parse">Parse</button><button type="button" data-tab="convert">Convert</button></div>
<section class="panel" data-panel="generate"><div class="row">
<div><label for="standard">Standard</label><select id="standard"></select></div>
<div><label for="profile">Profile</label><select id="profile"></select></div>
<div><label for="output">Output</label><select id="output"><option value="xml">XML</option><option value="pdf">PDF</option></select></div>
<div><button type="button" class="secondary" id="load-sample">Reset sample</button></div>
<div><button type="button" id="generate">Generate</button></div></div>
<label for="invoice">Invoice (JSON, editable)</label><textarea id="invoice" spellcheck="false"></textarea></section>
<section class="panel" data-panel="validate" hidden><div class="row">${file("validate-file")}<div><button type="button" id="validate">Validate</button></div></div></section>
<section class="panel" data-panel="parse" hidden><div class="row">${file("parse-file")}<div><button type="button" id="parse">Parse</button></div></div></section>
<section class="panel" data-panel="convert" hidden><div class="row">${file("convert-file")}
<div><label for="target">Target</label><select id="target"></select></div>
<div><button type="button" id="convert">Convert</button></div></div></section></div>
<div id="result" class="result" aria-live="polite"></div>`;
}
