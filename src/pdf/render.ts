// The visible pages of an invoice, drawn from the EN 16931 model: the `standard` template. Without
// a template the document gets one blank page (interface specification: a hybrid's visible page is
// blank unless a template is asked for). Test-key output gets the watermark under every page.
//
// An organization's stored design (design.ts) adjusts the standard template: a
// logo above the seller, an accent colour for headings, rules and table headers, a footer text on
// every page, the language, and blocks left out. Everything stays opaque (PDF/A: no transparency).

import { rgb, type Color, type PDFDocument, type PDFImage } from "pdf-lib";
import { decimal, type Address, type Invoice, type InvoiceLine } from "../model/index.ts";
import type { TemplateDefinitionInput } from "./design.ts";
import type { Fonts } from "./fonts.ts";
import { formatAmount, formatDate, formatNumber } from "./format.ts";
import { languageFor, type Labels, type Language } from "./labels.ts";
import { A4, Flow, INK, MUTED, RULE, drawString, leading, textWidth, wrap, type Style } from "./layout.ts";
import { decodeLogo } from "./logo.ts";
import { drawWatermark } from "./watermark.ts";
import { DomainError } from "../errors/domain-error.ts";

export type Template = "standard";

interface RenderOptions {
  template?: Template;
  livemode: boolean;
  /**
   * A stored template definition; implies `standard`. Throws PDF_TEMPLATE_INVALID when it cannot
   * be drawn (a logo with transparency, a damaged image, a colour that is none).
   */
  design?: TemplateDefinitionInput;
}

const MARGIN = { top: 48, right: 48, bottom: 56, left: 48 };
const SUB_LINE_INDENT = 12;
const GAP = 14;
const MM = 72 / 25.4;
const LOGO_WIDTH_MM = 40;
/** A tall logo is shrunk (aspect kept) so the header stays a header. */
const LOGO_MAX_HEIGHT_MM = 30;
/** Footer text lines at most; the text is 500 characters at most, but may be all line breaks. */
const FOOTER_MAX_LINES = 8;
/** Baseline of the page-number line. */
const PAGE_LINE_Y = MARGIN.bottom / 2;

interface Show {
  notes: boolean;
  paymentDetails: boolean;
  itemIds: boolean;
  delivery: boolean;
}

interface Ctx {
  flow: Flow;
  model: Invoice;
  lang: Language;
  l: Labels;
  styles: Record<"body" | "bold" | "small" | "smallBold" | "muted" | "heading" | "name" | "title" | "section" | "tableHead", Style>;
  /** Heavy rules (under table headers, above the amount due); INK without a design. */
  accent: Color;
  /** Table header background; none without an accent colour. */
  headFill?: Color;
  show: Show;
  logo?: { image: PDFImage; width: number; height: number };
  footer: string[];
}

/** Draws the document's pages into `doc` (which must have none yet). */
export async function renderInvoice(doc: PDFDocument, fonts: Fonts, model: Invoice, options: RenderOptions): Promise<void> {
  const underlay = options.livemode ? undefined : (page: Parameters<typeof drawWatermark>[0]) => drawWatermark(page, fonts.bold);
  const design = options.design;
  if (!options.template && !design) {
    const page = doc.addPage(A4);
    underlay?.(page);
    return;
  }
  const accent = design?.accentColor === undefined ? undefined : parseColor(design.accentColor);
  // Text in the accent colour only while it reads on white; rules and fills take any colour.
  const accentText = accent && luminance(accent) <= 0.6 ? accent : undefined;
  const lang = languageFor(model.seller.address.countryCode, design?.language);
  const styles: Ctx["styles"] = {
    body: { font: fonts.regular, size: 9 },
    bold: { font: fonts.bold, size: 9 },
    small: { font: fonts.regular, size: 7.5 },
    smallBold: { font: fonts.bold, size: 7.5 },
    muted: { font: fonts.regular, size: 7.5, color: MUTED },
    heading: { font: fonts.bold, size: 10.5 },
    name: { font: fonts.bold, size: 12 },
    title: { font: fonts.bold, size: 20, ...(accentText && { color: accentText }) },
    section: { font: fonts.bold, size: 10.5, ...(accentText && { color: accentText }) },
    tableHead: { font: fonts.bold, size: 7.5, ...(accentText && { color: accentText }) },
  };
  const width = A4[0] - MARGIN.left - MARGIN.right;
  const footer = design?.footerText?.trim() ? footerLines(design.footerText, styles.muted, width) : [];
  const bottom = MARGIN.bottom + (footer.length ? footer.length * leading(styles.muted) + 8 : 0);
  const ctx: Ctx = {
    flow: new Flow(doc, { margin: { ...MARGIN, bottom }, underlay }),
    model,
    lang,
    l: lang.labels,
    styles,
    accent: accent ?? INK,
    headFill: accent && tint(accent, 0.12),
    show: {
      notes: design?.show?.notes !== false,
      paymentDetails: design?.show?.paymentDetails !== false,
      itemIds: design?.show?.itemIds !== false,
      delivery: design?.show?.delivery !== false,
    },
    logo: design?.logo && (await embedLogo(doc, design.logo)),
    footer,
  };
  header(ctx);
  linesTable(ctx);
  vatBreakdown(ctx);
  totals(ctx);
  if (ctx.show.paymentDetails) payment(ctx);
  if (ctx.show.notes) notes(ctx);
  footers(ctx);
}

// --- design: colour, logo, footer text -----------------------------------------------------------

/** The caller's stored design is at fault, not the renderer: a refusal, never an engine fault. */
const unusable = (problem: string) =>
  new DomainError(422, "PDF_TEMPLATE_INVALID", `the stored PDF template cannot be used: ${problem}`, { problems: [problem] });

function parseColor(hex: string): Color {
  const m = /^#([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})([0-9A-Fa-f]{2})$/.exec(hex);
  if (!m) throw unusable(`accentColor ${JSON.stringify(hex)} is not a colour like #1F4E79`);
  // Three decimals resolve 8-bit channels and keep the content stream short and readable.
  const [r, g, b] = m.slice(1).map((h) => Math.round((parseInt(h, 16) / 255) * 1000) / 1000);
  return rgb(r, g, b);
}

const channels = (c: Color) => ("red" in c ? [c.red, c.green, c.blue] : [0, 0, 0]);

/** WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white). */
function luminance(c: Color): number {
  const [r, g, b] = channels(c).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The colour at `share` strength on white: an opaque stand-in for a translucent fill. */
function tint(c: Color, share: number): Color {
  const [r, g, b] = channels(c).map((v) => Math.round((1 - share * (1 - v)) * 1000) / 1000);
  return rgb(r, g, b);
}

async function embedLogo(doc: PDFDocument, logo: NonNullable<TemplateDefinitionInput["logo"]>): Promise<Ctx["logo"]> {
  const decoded = decodeLogo(logo);
  if (!decoded.ok) throw unusable(`logo refused: ${decoded.message}`);
  let image: PDFImage;
  try {
    image = logo.mediaType === "image/png" ? await doc.embedPng(decoded.bytes) : await doc.embedJpg(decoded.bytes);
  } catch (error) {
    throw unusable(`logo refused: the image cannot be read (${(error as Error).message})`);
  }
  let width = (logo.widthMm ?? LOGO_WIDTH_MM) * MM;
  let height = (width * decoded.height) / decoded.width;
  if (height > LOGO_MAX_HEIGHT_MM * MM) {
    width *= (LOGO_MAX_HEIGHT_MM * MM) / height;
    height = LOGO_MAX_HEIGHT_MM * MM;
  }
  return { image, width, height };
}

function footerLines(text: string, style: Style, width: number): string[] {
  const lines = wrap(text.trim(), style, width);
  if (lines.length <= FOOTER_MAX_LINES) return lines;
  const kept = lines.slice(0, FOOTER_MAX_LINES);
  kept[FOOTER_MAX_LINES - 1] = wrap(`${kept[FOOTER_MAX_LINES - 1]} …`, style, width)[0];
  return kept;
}

// --- header: parties and references ------------------------------------------------------------

const addressLines = (a: Address) =>
  [a.line1, a.line2, a.line3, [a.postCode, a.city].filter(Boolean).join(" "), [a.countrySubdivision, a.countryCode].filter(Boolean).join(" ")].filter(
    (s): s is string => Boolean(s),
  );

/** A block of wrapped lines in a column; returns the y below it. */
function column(ctx: Ctx, x: number, width: number, top: number, rows: [string, Style][]): number {
  let y = top;
  for (const [text, style] of rows) {
    for (const line of wrap(text, style, width)) {
      drawString(ctx.flow.page, line, x, y - style.size, style);
      y -= leading(style);
    }
  }
  return y;
}

function header(ctx: Ctx): void {
  const { flow, model: m, l, lang, styles: s } = ctx;
  const split = flow.left + flow.width * 0.55;
  const leftWidth = split - flow.left - GAP;
  const seller = m.seller;
  const sellerRows: [string, Style][] = [
    [seller.name, s.name],
    ...(seller.tradingName ? [[seller.tradingName, s.body] as [string, Style]] : []),
    ...addressLines(seller.address).map((t): [string, Style] => [t, s.body]),
    ...labelled(l.vatId, seller.vatId, s.small),
    ...labelled(l.taxId, seller.taxRegistrationId, s.small),
    ...labelled(l.registration, seller.legalRegistrationId?.value, s.small),
    ...labelled(l.contact, [seller.contact?.name, seller.contact?.telephone, seller.contact?.email].filter(Boolean).join(" · ") || undefined, s.small),
    ...(seller.additionalLegalInfo ? [[seller.additionalLegalInfo, s.muted] as [string, Style]] : []),
  ];
  const top = flow.y;
  let sellerTop = top;
  if (ctx.logo) {
    const { image, width, height } = ctx.logo;
    flow.page.drawImage(image, { x: flow.left, y: top - height, width, height });
    sellerTop = top - height - GAP;
  }
  let leftY = column(ctx, flow.left, leftWidth, sellerTop, sellerRows) - GAP * 1.5;

  const buyer = m.buyer;
  leftY = column(ctx, flow.left, leftWidth, leftY, [
    [l.buyer, s.muted],
    [buyer.name, s.heading],
    ...addressLines(buyer.address).map((t): [string, Style] => [t, s.body]),
    ...labelled(l.vatId, buyer.vatId, s.small),
    ...labelled(l.contact, [buyer.contact?.name, buyer.contact?.email].filter(Boolean).join(" · ") || undefined, s.small),
  ]);
  const delivery = m.delivery;
  const deliverTo = [delivery?.partyName, ...(delivery?.address ? addressLines(delivery.address) : []), delivery?.locationId?.value].filter((t): t is string => Boolean(t));
  if (ctx.show.delivery && deliverTo.length) {
    leftY = column(ctx, flow.left, leftWidth, leftY - GAP, [[l.deliverTo, s.muted], ...deliverTo.map((t): [string, Style] => [t, s.body])]);
  }

  const title = m.kind === "creditNote" ? l.creditNote : l.invoice;
  drawString(flow.page, title, split, top - s.title.size, s.title);
  const date = (d?: string) => (d ? formatDate(d, lang) : undefined);
  const period = m.invoicingPeriod && [date(m.invoicingPeriod.startDate), date(m.invoicingPeriod.endDate)].filter(Boolean).join(" – ");
  const references: [string, string | undefined][] = [
    [l.number, m.invoiceNumber],
    [l.issueDate, date(m.issueDate)],
    [l.dueDate, date(m.dueDate)],
    [l.deliveryDate, ctx.show.delivery ? date(m.delivery?.actualDeliveryDate) : undefined],
    [l.period, period || undefined],
    [l.buyerReference, m.buyerReference],
    [l.orderReference, m.purchaseOrderReference],
    [l.contractReference, m.contractReference],
    [l.projectReference, m.projectReference],
    [l.precedingInvoice, m.precedingInvoices.map((p) => [p.number, date(p.issueDate)].filter(Boolean).join(", ")).join("; ") || undefined],
    [l.currency, m.currencyCode],
  ];
  const shown = references.filter((r): r is [string, string] => Boolean(r[1]));
  const columnWidth = flow.right - split;
  // As wide as the longest label (languages differ a lot here), but never more than half the column.
  const labelWidth = Math.min(Math.max(...shown.map(([label]) => textWidth(label, s.small.font, s.small.size))) + 8, columnWidth / 2);
  let rightY = top - leading(s.title) - 8;
  for (const [label, value] of shown) {
    const labelLines = wrap(label, s.small, labelWidth - 8);
    labelLines.forEach((line, i) =>
      drawString(flow.page, line, split, rightY - s.small.size - 1 - i * leading(s.small), s.muted),
    );
    const valueLines = wrap(value, s.bold, columnWidth - labelWidth);
    const valueTop = rightY;
    for (const line of valueLines) {
      drawString(flow.page, line, split + labelWidth, rightY - s.bold.size, s.bold);
      rightY -= leading(s.bold);
    }
    rightY = Math.min(rightY, valueTop - labelLines.length * leading(s.small) - 1);
  }
  flow.y = Math.min(leftY, rightY) - GAP * 1.5;
}

function labelled(label: string, value: string | undefined, style: Style): [string, Style][] {
  return value ? [[`${label}: ${value}`, style]] : [];
}

// --- lines table -------------------------------------------------------------------------------

interface Column {
  width: number;
  align: "left" | "right";
}

/** Pos, description, quantity, unit, unit price, VAT %, amount; the description takes what is left. */
const FIXED = { pos: 32, qty: 44, unit: 44, price: 64, rate: 38, amount: 72 };

function columns(width: number): Column[] {
  const fixed = Object.values(FIXED).reduce((a, b) => a + b, 0);
  return [
    { width: FIXED.pos, align: "left" },
    { width: width - fixed, align: "left" },
    { width: FIXED.qty, align: "right" },
    { width: FIXED.unit, align: "left" },
    { width: FIXED.price, align: "right" },
    { width: FIXED.rate, align: "right" },
    { width: FIXED.amount, align: "right" },
  ];
}

const PAD = 4;

/**
 * One table row: each cell a list of styled lines. A row taller than half a page may start on
 * this page and continue on the next (a 1000-character description must not run off the page).
 */
function row(ctx: Ctx, cols: Column[], cells: [string, Style][][], offsets: number[] = [], fill?: Color): void {
  const { flow } = ctx;
  const wrapped = cells.map((cell, i) =>
    cell.flatMap(([text, style]) => wrap(text, style, cols[i].width - 2 * PAD - (offsets[i] ?? 0)).map((t): [string, Style] => [t, style])),
  );
  const height = (lines: [string, Style][]) => lines.reduce((h, [, s]) => h + leading(s), 0);
  let taken = wrapped.map(() => 0);
  // Rows that fit on a page are kept whole; only taller ones are split.
  const whole = Math.max(...wrapped.map(height)) + PAD;
  flow.ensure(whole <= flow.pageHeight / 2 ? whole : leading(ctx.styles.body) + PAD);
  // Only for header rows, which never split: the band from the rule above to the rule below.
  if (fill) flow.page.drawRectangle({ x: flow.left, y: flow.y + PAD / 2 - whole, width: flow.width, height: whole, color: fill });
  while (taken.some((t, i) => t < wrapped[i].length)) {
    const room = flow.y - flow.bottom - PAD;
    let x = flow.left;
    let used = 0;
    taken = taken.map((from, i) => {
      let y = 0;
      let to = from;
      while (to < wrapped[i].length && y + leading(wrapped[i][to][1]) <= room) y += leading(wrapped[i][to++][1]);
      let dy = PAD / 2;
      for (const [text, style] of wrapped[i].slice(from, to)) {
        const at = cols[i].align === "right" ? x + cols[i].width - PAD : x + PAD + (offsets[i] ?? 0);
        flow.text(text, at, style, cols[i].align, dy);
        dy += leading(style);
      }
      used = Math.max(used, height(wrapped[i].slice(from, to)));
      x += cols[i].width;
      return to;
    });
    flow.y -= used + PAD;
    if (taken.some((t, i) => t < wrapped[i].length)) flow.newPage();
  }
  flow.rule(flow.y + PAD / 2);
}

function linesTable(ctx: Ctx): void {
  const { flow, l, styles: s } = ctx;
  // Factur-X MINIMUM and BASIC WL carry no lines; an empty table would suggest missing content.
  if (!ctx.model.lines.length) return;
  const cols = columns(flow.width);
  const head = () => {
    const titles = [l.position, l.description, l.quantity, l.unit, l.unitPrice, l.vatRate, `${l.amount} (${ctx.model.currencyCode})`];
    row(ctx, cols, titles.map((t) => [[t, s.tableHead]]), [], ctx.headFill);
    flow.rule(flow.y + PAD / 2, ctx.accent, 0.8);
  };
  head();
  flow.continuation = head;
  const visit = (line: InvoiceLine, depth: number) => {
    lineRow(ctx, cols, line, depth);
    for (const sub of line.subLines ?? []) visit(sub, depth + 1);
  };
  for (const line of ctx.model.lines) visit(line, 0);
  flow.continuation = undefined;
  flow.y -= GAP;
}

function lineRow(ctx: Ctx, cols: Column[], line: InvoiceLine, depth: number): void {
  const { lang, styles: s } = ctx;
  const main = depth === 0 ? s.body : { ...s.body, color: MUTED };
  const detail: [string, Style][] = [];
  if (line.item.description) detail.push([line.item.description, s.muted]);
  if (line.item.sellerId && ctx.show.itemIds) detail.push([`# ${line.item.sellerId}`, s.muted]);
  if (line.note) detail.push([line.note, s.muted]);
  if (line.period) detail.push([[line.period.startDate, line.period.endDate].filter(Boolean).map((d) => formatDate(d!, lang)).join(" – "), s.muted]);
  for (const a of line.allowances) detail.push([`${a.reason ?? ctx.l.allowances}: -${formatAmount(a.amount, lang)}`, s.muted]);
  for (const c of line.charges) detail.push([`${c.reason ?? ctx.l.charges}: +${formatAmount(c.amount, lang)}`, s.muted]);
  const base = line.price.baseQuantity && !isOne(line.price.baseQuantity) ? ` / ${formatNumber(line.price.baseQuantity, lang)}` : "";
  row(
    ctx,
    cols,
    [
      [[line.id, main]],
      [[line.item.name, main], ...detail],
      [[formatNumber(line.quantity, lang), main]],
      [[line.unitCode, main]],
      [[formatAmount(line.price.netPrice, lang) + base, main]],
      [[line.vat.rate !== undefined ? formatNumber(line.vat.rate, lang) : line.vat.categoryCode, main]],
      [[formatAmount(line.netAmount, lang), main]],
    ],
    [0, depth * SUB_LINE_INDENT],
  );
}

const isOne = (value: string) => /^0*1(\.0*)?$/.test(value);

// --- VAT, totals, payment, notes ----------------------------------------------------------------

function vatBreakdown(ctx: Ctx): void {
  const { flow, l, lang, styles: s, model } = ctx;
  if (!model.vatBreakdown.length) return;
  flow.ensure(leading(s.heading) + 3 * leading(s.body));
  flow.text(l.vatBreakdown, flow.left, s.section);
  flow.y -= leading(s.heading);
  const w = flow.width;
  const cols: Column[] = [
    { width: w - 3 * 90, align: "left" },
    { width: 90, align: "right" },
    { width: 90, align: "right" },
    { width: 90, align: "right" },
  ];
  row(ctx, cols, [l.vatCategory, l.vatRate, l.taxableAmount, l.vatAmount].map((t) => [[t, s.tableHead]]), [], ctx.headFill);
  for (const v of model.vatBreakdown) {
    const reason = [v.exemptionReasonCode, v.exemptionReason].filter(Boolean).join(" ");
    row(ctx, cols, [
      [[v.categoryCode, s.body], ...(reason ? [[reason, s.muted] as [string, Style]] : [])],
      [[v.rate !== undefined ? formatNumber(v.rate, lang) : "", s.body]],
      [[formatAmount(v.taxableAmount, lang), s.body]],
      [[formatAmount(v.taxAmount, lang), s.body]],
    ]);
  }
  flow.y -= GAP;
}

function totals(ctx: Ctx): void {
  const { flow, l, lang, styles: s, model } = ctx;
  const t = model.totals;
  const minus = (v?: string) => (v && decimal.isDecimal(v) ? decimal.negate(v) : v);
  const rows: { label: string; value?: string; style: Style; currency?: string }[] = [
    { label: l.lineNetTotal, value: t.lineNetTotal, style: s.body },
    { label: l.allowances, value: minus(t.allowanceTotal), style: s.body },
    { label: l.charges, value: t.chargeTotal, style: s.body },
    { label: l.taxExclusiveTotal, value: t.taxExclusiveTotal, style: s.body },
    { label: l.vatTotal, value: t.vatTotal, style: s.body },
    { label: l.vatTotal, value: t.vatTotalInAccountingCurrency, style: s.body, currency: model.taxCurrencyCode },
    { label: l.taxInclusiveTotal, value: t.taxInclusiveTotal, style: s.bold },
    { label: l.prepaid, value: minus(t.prepaidAmount), style: s.body },
    { label: l.rounding, value: t.roundingAmount, style: s.body },
    { label: l.payable, value: t.payableAmount, style: s.heading },
  ];
  const shown = rows.filter((r) => r.value);
  flow.ensure(shown.reduce((h, r) => h + leading(r.style) + 2, 0));
  const labelX = flow.left + flow.width * 0.5;
  for (const { label, value, style, currency } of shown) {
    if (style === s.heading) flow.rule(flow.y + 1, ctx.accent, 0.8);
    flow.text(label, labelX, style);
    flow.text(`${formatAmount(value!, lang)} ${currency ?? model.currencyCode}`, flow.right, style, "right");
    flow.y -= leading(style) + 2;
  }
  flow.y -= GAP;
}

function payment(ctx: Ctx): void {
  const { l, lang, model } = ctx;
  const p = model.paymentInstructions;
  const lines: string[] = [];
  if (p?.meansText) lines.push(p.meansText);
  for (const ct of p?.creditTransfers ?? []) {
    lines.push(["IBAN " + ct.accountId, ct.serviceProviderId && `BIC ${ct.serviceProviderId}`].filter(Boolean).join(" · "));
    if (ct.accountName) lines.push(`${l.accountHolder}: ${ct.accountName}`);
  }
  if (p?.remittanceInformation) lines.push(`${l.paymentReference}: ${p.remittanceInformation}`);
  if (p?.card) lines.push(`**** ${p.card.primaryAccountNumber}${p.card.holderName ? ` · ${p.card.holderName}` : ""}`);
  if (p?.directDebit) {
    const dd = p.directDebit;
    lines.push([dd.mandateReference && `${l.mandate}: ${dd.mandateReference}`, dd.creditorId, dd.debitedAccountId && `IBAN ${dd.debitedAccountId}`].filter(Boolean).join(" · "));
  }
  if (model.dueDate) lines.push(`${l.dueDate}: ${formatDate(model.dueDate, lang)}`);
  if (model.paymentTerms) lines.push(`${l.paymentTerms}: ${model.paymentTerms}`);
  section(ctx, l.payment, lines.filter(Boolean));
}

function notes(ctx: Ctx): void {
  section(ctx, ctx.l.notes, ctx.model.notes.map((n) => n.text));
}

function section(ctx: Ctx, title: string, paragraphs: string[]): void {
  const { flow, styles: s } = ctx;
  if (!paragraphs.length) return;
  flow.ensure(leading(s.heading) + 2 * leading(s.body));
  flow.text(title, flow.left, s.section);
  flow.y -= leading(s.section) + 2;
  for (const text of paragraphs) flow.paragraph(text, s.body);
  flow.y -= GAP;
}

/**
 * Invoice number and "page x of y" on every page, once the page count is known; a design's footer
 * text above that line, under a rule.
 */
function footers(ctx: Ctx): void {
  const { flow, l, styles: s, model, footer } = ctx;
  const pages = flow.pages;
  const lead = leading(s.muted);
  pages.forEach((page, i) => {
    const y = PAGE_LINE_Y;
    footer.forEach((line, j) => drawString(page, line, flow.left, y + 12 + (footer.length - 1 - j) * lead, s.muted));
    if (footer.length) {
      const ruleY = y + 12 + (footer.length - 1) * lead + s.muted.size + 4;
      page.drawLine({ start: { x: flow.left, y: ruleY }, end: { x: flow.right, y: ruleY }, thickness: 0.5, color: ctx.accent === INK ? RULE : ctx.accent });
    }
    const left = `${model.seller.name} · ${model.invoiceNumber}`;
    drawString(page, wrap(left, s.muted, flow.width * 0.7)[0], flow.left, y, s.muted);
    const right = `${l.page} ${i + 1} ${l.of} ${pages.length}`;
    drawString(page, right, flow.right - textWidth(right, s.muted.font, s.muted.size), y, s.muted);
  });
}
