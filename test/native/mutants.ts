// Deterministic mutants of valid invoices for the native-vs-Saxon-HE differential tests. Every
// mutant is a pure function of (source label, n): the PRNG is seeded from `<source>#<n>`, so the
// id printed with a failure (`<source>#<n>:<operators>`) is enough to rebuild the exact bytes with
// `mutate(readFileSync(source), source, n)`. Edits go through the DOM so the output stays
// well-formed whatever is removed or duplicated.

import { DOMParser, XMLSerializer, type Document, type Element, type Node } from "@xmldom/xmldom";

// ---------------------------------------------------------------------------------------------
// Seeded randomness (never Math.random: a mutant must be reproducible from its id alone).

/** FNV-1a, 32 bit: a stable seed from a string. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class Rng {
  private state: number;
  constructor(seed: number | string) {
    this.state = typeof seed === "string" ? hashString(seed) : seed >>> 0;
  }
  /** mulberry32 */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

// ---------------------------------------------------------------------------------------------
// Exact decimal arithmetic on lexical amounts: mutants must say exactly what they mean, and the
// numeric edge cases need sums that are exact where the rules may compute in doubles.

export interface Dec {
  units: bigint;
  scale: number;
}

const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/;

export function parseDec(text: string): Dec | null {
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const fraction = m[3] ?? "";
  const units = BigInt((m[2] || "0") + fraction);
  return { units: m[1] === "-" ? -units : units, scale: fraction.length };
}

function rescale(value: Dec, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function addDec(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function mulDec(a: Dec, b: Dec): Dec {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Round half away from zero (as commercial rounding of amounts) to `scale` decimals. */
export function roundDec(value: Dec, scale: number): Dec {
  if (value.scale <= scale) return { units: rescale(value, scale), scale };
  const divisor = 10n ** BigInt(value.scale - scale);
  const negative = value.units < 0n;
  const magnitude = negative ? -value.units : value.units;
  let units = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) units += 1n;
  return { units: negative ? -units : units, scale };
}

export function formatDec(value: Dec, minScale = 0): string {
  const scale = Math.max(value.scale, minScale);
  const units = rescale(value, scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const body = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return negative ? `-${body}` : body;
}

export const dec = (text: string): Dec => parseDec(text) ?? { units: 0n, scale: 0 };

// ---------------------------------------------------------------------------------------------
// DOM helpers (xmldom keeps the XML declaration, comments and namespace declarations as written).

export const ELEMENT_NODE = 1;

export type Syntax = "ubl" | "cii";

export function parseXml(xml: string): Document {
  return new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") throw new Error(`mutant source is not well-formed: ${message}`);
    },
  }).parseFromString(xml, "text/xml");
}

export function serialize(doc: Document): string {
  return new XMLSerializer().serializeToString(doc);
}

export function rootOf(doc: Document): Element {
  return doc.documentElement!;
}

export function syntaxOf(doc: Document): Syntax {
  return rootOf(doc).localName === "CrossIndustryInvoice" ? "cii" : "ubl";
}

export function childElements(node: Node): Element[] {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (child.nodeType === ELEMENT_NODE) out.push(child as Element);
  return out;
}

/** Every element under `node` (not `node` itself), in document order. */
export function descendants(node: Node): Element[] {
  const out: Element[] = [];
  const walk = (parent: Node) => {
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT_NODE) continue;
      out.push(child as Element);
      walk(child);
    }
  };
  walk(node);
  return out;
}

export function byLocal(node: Node, ...names: string[]): Element[] {
  return descendants(node).filter((e) => names.includes(e.localName!));
}

export function child(node: Node, local: string): Element | undefined {
  return childElements(node).find((e) => e.localName === local);
}

/** Follows a path of local names from `node` (first match at each step). */
export function path(node: Node, ...locals: string[]): Element | undefined {
  let current: Node | undefined = node;
  for (const local of locals) current = current && child(current, local);
  return current as Element | undefined;
}

export function textOf(element: Element): string {
  return element.textContent ?? "";
}

export function setText(element: Element, text: string): void {
  while (element.firstChild) element.removeChild(element.firstChild);
  element.appendChild(element.ownerDocument!.createTextNode(text));
}

function isNumeric(element: Element): boolean {
  return childElements(element).length === 0 && parseDec(textOf(element)) !== null;
}

/** Line items of either syntax. */
export function lineElements(doc: Document): Element[] {
  return childElements(rootOf(doc)).some((e) => e.localName === "InvoiceLine" || e.localName === "CreditNoteLine")
    ? childElements(rootOf(doc)).filter((e) => e.localName === "InvoiceLine" || e.localName === "CreditNoteLine")
    : byLocal(rootOf(doc), "IncludedSupplyChainTradeLineItem");
}

function lineIdElement(line: Element, syntax: Syntax): Element | undefined {
  return syntax === "ubl" ? child(line, "ID") : path(line, "AssociatedDocumentLineDocument", "LineID");
}

function insideLine(element: Element): boolean {
  for (let node: Node | null = element; node; node = node.parentNode) {
    const local = (node as Element).localName;
    if (local === "InvoiceLine" || local === "CreditNoteLine" || local === "IncludedSupplyChainTradeLineItem") return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Mutation operators. Each returns a short description of what it did, or null when the document
// offers nothing to apply it to.

type Operator = (doc: Document, syntax: Syntax, rng: Rng) => string | null;

const qname = (element: Element) => element.tagName;

const nudgeAmount: Operator = (doc, _syntax, rng) => {
  const amounts = descendants(rootOf(doc)).filter((e) => e.localName!.endsWith("Amount") && isNumeric(e));
  if (!amounts.length) return null;
  const target = rng.pick(amounts);
  const before = textOf(target).trim();
  const delta = rng.chance(0.5) ? "0.01" : "-0.01";
  const value = parseDec(before)!;
  const after = formatDec(addDec(value, dec(delta)), Math.max(2, value.scale));
  setText(target, after);
  return `${qname(target)} ${before}->${after}`;
};

const RATES = ["0", "5", "7", "10", "19", "20", "21", "25", "5.5", "2.1", "8.5", "100", "19.00", "16"];

const swapRate: Operator = (doc, syntax, rng) => {
  const locals = syntax === "ubl" ? ["Percent", "MultiplierFactorNumeric"] : ["RateApplicablePercent", "CalculationPercent"];
  const rates = byLocal(rootOf(doc), ...locals).filter(isNumeric);
  if (!rates.length) return null;
  const distinct = [...new Set(rates.map((e) => textOf(e).trim()))];
  if (distinct.length > 1 && rng.chance(0.4)) {
    const a = rng.pick(rates);
    const others = rates.filter((e) => textOf(e).trim() !== textOf(a).trim());
    const b = rng.pick(others);
    const [ta, tb] = [textOf(a), textOf(b)];
    setText(a, tb);
    setText(b, ta);
    return `swap ${qname(a)} ${ta.trim()}<->${tb.trim()}`;
  }
  const target = rng.pick(rates);
  const before = textOf(target).trim();
  const after = rng.pick(RATES.filter((rate) => rate !== before));
  setText(target, after);
  return `${qname(target)} ${before}->${after}`;
};

const VAT_CATEGORIES = ["S", "Z", "E", "AE", "K", "G", "O", "L", "M", "B", "X"];
const CURRENCIES = ["EUR", "USD", "GBP", "SEK", "RON", "NOK", "CHF", "DKK", "XXX", "EURO"];
const COUNTRIES = ["DE", "FR", "NL", "IT", "RO", "SE", "NO", "GB", "BE", "AT", "ES", "XI", "1A", "ZZ", "de"];
const UNITS = ["C62", "H87", "EA", "XPP", "KGM", "HUR", "DAY", "LTR", "MTR", "ZZZ", "XX1", "c62"];
const DOCUMENT_TYPES = ["380", "381", "383", "384", "386", "389", "751", "326", "875", "261", "999"];

const swapCode: Operator = (doc, syntax, rng) => {
  const all = descendants(rootOf(doc));
  const leaf = (e: Element) => childElements(e).length === 0;
  const classes: { label: string; values: string[]; elements: Element[]; attribute?: string }[] = [
    {
      label: "vat-category",
      values: VAT_CATEGORIES,
      elements:
        syntax === "ubl"
          ? all.filter((e) => e.localName === "ID" && ["TaxCategory", "ClassifiedTaxCategory"].includes((e.parentNode as Element).localName!))
          : all.filter((e) => e.localName === "CategoryCode" && leaf(e)),
    },
    {
      label: "currency",
      values: CURRENCIES,
      elements: all.filter((e) => ["DocumentCurrencyCode", "TaxCurrencyCode", "InvoiceCurrencyCode"].includes(e.localName!) && leaf(e)),
    },
    { label: "currencyID", values: CURRENCIES, elements: all.filter((e) => e.hasAttribute("currencyID")), attribute: "currencyID" },
    {
      label: "country",
      values: COUNTRIES,
      elements: all.filter((e) => (syntax === "ubl" ? e.localName === "IdentificationCode" : e.localName === "CountryID") && leaf(e)),
    },
    { label: "unit", values: UNITS, elements: all.filter((e) => e.hasAttribute("unitCode")), attribute: "unitCode" },
    {
      label: "document-type",
      values: DOCUMENT_TYPES,
      elements:
        syntax === "ubl"
          ? all.filter((e) => e.localName === "InvoiceTypeCode" || e.localName === "CreditNoteTypeCode")
          : all.filter((e) => e.localName === "TypeCode" && (e.parentNode as Element).localName === "ExchangedDocument"),
    },
  ].filter((c) => c.elements.length > 0);
  if (!classes.length) return null;
  const chosen = rng.pick(classes);
  const target = rng.pick(chosen.elements);
  const before = chosen.attribute ? target.getAttribute(chosen.attribute)! : textOf(target).trim();
  const after = rng.pick(chosen.values.filter((v) => v !== before));
  if (chosen.attribute === "currencyID" && rng.chance(0.5)) {
    // A consistent currency change (every amount) reaches different rules than a single odd one.
    for (const e of chosen.elements) e.setAttribute("currencyID", after);
    return `all @currencyID ${before}->${after}`;
  }
  if (chosen.attribute) target.setAttribute(chosen.attribute, after);
  else setText(target, after);
  return `${chosen.label} ${qname(target)}${chosen.attribute ? `/@${chosen.attribute}` : ""} ${before}->${after}`;
};

const removeElement: Operator = (doc, _syntax, rng) => {
  const candidates = descendants(rootOf(doc));
  if (!candidates.length) return null;
  const target = rng.pick(candidates);
  target.parentNode!.removeChild(target);
  return `remove ${qname(target)}`;
};

const duplicateElement: Operator = (doc, _syntax, rng) => {
  const candidates = descendants(rootOf(doc));
  if (!candidates.length) return null;
  const target = rng.pick(candidates);
  target.parentNode!.insertBefore(target.cloneNode(true), target.nextSibling);
  return `duplicate ${qname(target)}`;
};

/** Keeps multiplied documents to a size both engines judge in well under a second. */
const MAX_LINES = 400;

const multiplyLines: Operator = (doc, syntax, rng) => {
  const lines = lineElements(doc);
  if (!lines.length) return null;
  const factor = Math.max(2, Math.min(rng.int(2, 20), Math.floor(MAX_LINES / lines.length)));
  const renumber = rng.chance(0.7);
  const fixTotals = rng.chance(0.35);
  const last = lines[lines.length - 1];
  const anchor = last.nextSibling;
  let next = lines.length + 1;
  for (let copy = 1; copy < factor; copy++) {
    for (const line of lines) {
      const clone = line.cloneNode(true) as Element;
      const id = lineIdElement(clone, syntax);
      if (renumber && id) setText(id, String(next));
      next++;
      last.parentNode!.insertBefore(clone, anchor);
    }
  }
  if (fixTotals) {
    // Scaling every amount outside the lines by the factor keeps the (linear) totals consistent,
    // allowances and charges included; only VAT rounding may drift by cents.
    for (const e of descendants(rootOf(doc))) {
      if (!e.localName!.endsWith("Amount") || !isNumeric(e) || insideLine(e)) continue;
      const value = parseDec(textOf(e))!;
      setText(e, formatDec(mulDec(value, { units: BigInt(factor), scale: 0 }), value.scale));
    }
  }
  return `lines x${factor}${renumber ? "" : " (ids kept)"}${fixTotals ? " totals fixed" : ""}`;
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CII_DATE = /^(\d{4})(\d{2})(\d{2})$/;

function shiftDate(text: string, days: number, syntax: Syntax): string | null {
  const m = (syntax === "ubl" ? ISO_DATE : CII_DATE).exec(text);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * 86_400_000);
  const [y, mo, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()].map((v, i) => String(v).padStart(i === 0 ? 4 : 2, "0"));
  return syntax === "ubl" ? `${y}-${mo}-${d}` : `${y}${mo}${d}`;
}

const INVALID_DATES = {
  ubl: ["2024-02-30", "2023-13-01", "20240101", "", "2024-1-1", "2024-02-29", "0000-00-00", "2024-06-31Z", "2024-06-01+01:00"],
  cii: ["20240230", "2024-01-01", "202401", "20231301", "", "20240229", "00000000", "2024013"],
};

function dateElements(doc: Document, syntax: Syntax): Element[] {
  const all = descendants(rootOf(doc));
  return syntax === "ubl"
    ? all.filter((e) => e.localName!.endsWith("Date") && ISO_DATE.test(textOf(e).trim()))
    : all.filter((e) => (e.localName === "DateTimeString" || e.localName === "DateString") && CII_DATE.test(textOf(e).trim()));
}

function issueAndDue(doc: Document, syntax: Syntax): [Element, Element] | null {
  const root = rootOf(doc);
  if (syntax === "ubl") {
    const issue = child(root, "IssueDate");
    const due = child(root, "DueDate") ?? byLocal(root, "PaymentDueDate")[0];
    return issue && due ? [issue, due] : null;
  }
  const issue = byLocal(root, "IssueDateTime").map((e) => child(e, "DateTimeString")).find(Boolean);
  const due = byLocal(root, "DueDateDateTime").map((e) => child(e, "DateTimeString")).find(Boolean);
  return issue && due ? [issue, due] : null;
}

const moveDate: Operator = (doc, syntax, rng) => {
  const dates = dateElements(doc, syntax);
  if (!dates.length) return null;
  const mode = rng.next();
  const pair = issueAndDue(doc, syntax);
  if (mode < 0.2 && pair && textOf(pair[0]).trim() !== textOf(pair[1]).trim()) {
    const [a, b] = [textOf(pair[0]), textOf(pair[1])];
    setText(pair[0], b);
    setText(pair[1], a);
    return `swap issue/due ${a.trim()}<->${b.trim()}`;
  }
  const target = rng.pick(dates);
  const before = textOf(target).trim();
  if (mode < 0.4) {
    const after = rng.pick(INVALID_DATES[syntax]);
    setText(target, after);
    return `${qname(target)} ${before}->invalid "${after}"`;
  }
  const days = (rng.chance(0.5) ? 1 : -1) * rng.pick([1, 2, 7, 30, 31, 59, 365, 366, rng.int(1, 4000)]);
  const after = shiftDate(before, days, syntax)!;
  setText(target, after);
  return `${qname(target)} ${before}->${after} (${days > 0 ? "+" : ""}${days}d)`;
};

export const OPERATORS: Record<string, { weight: number; apply: Operator }> = {
  nudge: { weight: 4, apply: nudgeAmount },
  rate: { weight: 2, apply: swapRate },
  code: { weight: 3, apply: swapCode },
  remove: { weight: 3, apply: removeElement },
  duplicate: { weight: 2, apply: duplicateElement },
  lines: { weight: 1, apply: multiplyLines },
  date: { weight: 2, apply: moveDate },
};

function pickOperator(rng: Rng, exclude: Set<string>): string {
  const names = Object.keys(OPERATORS).filter((name) => !exclude.has(name));
  const total = names.reduce((sum, name) => sum + OPERATORS[name].weight, 0);
  let roll = rng.next() * total;
  for (const name of names) {
    roll -= OPERATORS[name].weight;
    if (roll < 0) return name;
  }
  return names[names.length - 1];
}

export interface Mutant {
  /** `<source>#<n>:<operators>` */
  id: string;
  source: string;
  n: number;
  operators: string[];
  /** What each operator did, for reading a difference without regenerating the mutant. */
  details: string[];
  xml: string;
}

/**
 * Mutant number `n` of the document `xml`, named `source` (use a stable label such as the
 * corpus-relative path: it seeds the PRNG). One operator, or two (about one time in six).
 */
export function mutate(xml: string, source: string, n: number): Mutant {
  const rng = new Rng(`${source}#${n}`);
  // xmldom reports a byte order mark as content before the root; the mutant is written as UTF-8 without one.
  const doc = parseXml(xml.replace(/^\uFEFF/, ""));
  const syntax = syntaxOf(doc);
  const wanted = rng.chance(0.17) ? 2 : 1;
  const operators: string[] = [];
  const details: string[] = [];
  const tried = new Set<string>();
  while (operators.length < wanted && tried.size < Object.keys(OPERATORS).length) {
    const name = pickOperator(rng, tried);
    tried.add(name);
    const detail = OPERATORS[name].apply(doc, syntax, rng);
    if (detail === null) continue;
    operators.push(name);
    details.push(detail);
  }
  return { id: `${source}#${n}:${operators.join("+")}`, source, n, operators, details, xml: serialize(doc) };
}
