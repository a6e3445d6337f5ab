// The one escaping helper of the dashboard. Every page is built with `html`, which escapes every
// interpolated value unless it is itself `Html` built the same way: invoice content, names and
// rule messages (which quote the document) can only ever be text.

const brand = Symbol("html");

export interface Html {
  readonly [brand]: true;
  readonly text: string;
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const isHtml = (value: unknown): value is Html => typeof value === "object" && value !== null && brand in value;

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  if (isHtml(value)) return value.text;
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += render(values[i]) + strings[i + 1];
  return { [brand]: true, text };
}

/**
 * Data for the page's script, in a JSON block the browser never runs. `<` is escaped so no value
 * can close the element early.
 */
export function jsonBlock(id: string, data: unknown): Html {
  return { [brand]: true, text: `<script type="application/json" id="${render(id)}">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>` };
}
