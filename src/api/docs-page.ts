/** A self-contained HTML rendering of the OpenAPI document: no scripts, no fonts, works offline. */
const escape = (text: unknown) =>
  String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

type Operation = {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: unknown }[];
  requestBody?: { description?: string; content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; headers?: Record<string, { description: string }>; content?: Record<string, { schema: unknown }> }>;
};

/** A schema as JSON, its references to named schemas linked to where the page shows them. */
const schemaBlock = (schema: unknown) =>
  `<pre>${escape(JSON.stringify(schema, null, 2)).replace(/&quot;#\/components\/schemas\/([A-Za-z0-9_]+)&quot;/g, '<a href="#schema-$1">&quot;#/components/schemas/$1&quot;</a>')}</pre>`;

function renderOperation(method: string, path: string, op: Operation): string {
  const auth = op.security && op.security.length ? "API key (Authorization: Bearer or X-API-Key)" : "no key";
  const params = (op.parameters ?? [])
    .map((p) => `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ", required" : ""}): ${escape(p.description)} <code>${escape(JSON.stringify(p.schema))}</code></li>`)
    .join("");
  const body = op.requestBody
    ? `<h4>Request body</h4><p>${escape(op.requestBody.description)} Content types: ${Object.keys(op.requestBody.content).map((t) => `<code>${escape(t)}</code>`).join(", ")}</p>
       ${schemaBlock(Object.values(op.requestBody.content)[0]?.schema)}`
    : "";
  const responses = Object.entries(op.responses)
    .map(
      ([status, r]) => `<tr><td><b>${escape(status)}</b></td><td>${escape(r.description).replace(/\n\n/g, "<br>")}</td>
        <td>${Object.keys(r.headers ?? {}).map((h) => `<code>${escape(h)}</code>`).join(" ")}</td></tr>`,
    )
    .join("");
  const success = op.responses["200"]?.content ?? {};
  const schema = Object.entries(success)
    .map(([type, { schema }]) => `<details><summary>Success schema (<code>${escape(type)}</code>)</summary>${schemaBlock(schema)}</details>`)
    .join("");
  return `<section><h3><span class="m">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>
    <p><b>${escape(op.summary)}</b>. Authentication: ${auth}.</p><p>${escape(op.description).replace(/\n\n/g, "<br>")}</p>
    ${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ""}${body}
    <h4>Responses</h4><table><tr><th>Status</th><th>Meaning</th><th>Headers</th></tr>${responses}</table>${schema}</section>`;
}

export function renderDocsPage(doc: {
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}): string {
  const sections = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => renderOperation(method, path, op)))
    .join("\n");
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3>${schemaBlock(schema)}</section>`)
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)} ${escape(doc.info.version)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code,pre{font:13px ui-monospace,monospace;background:#f3f3f3;padding:0 .2em}pre{padding:.6em;overflow:auto}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{background:#234;color:#fff;padding:0 .4em;border-radius:3px}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3em;vertical-align:top;text-align:left}</style></head>
<body><h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1><p>${escape(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p>${sections}<h2>Schemas</h2>${schemas}</body></html>`;
}
