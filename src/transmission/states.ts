// The transmission statuses and the moves between them, as data: the spec's "States and
// transitions" tables (rows marked `spec`) and the moves the spec leaves "not shown" that a
// working pipeline needs (rows marked `chosen`, each with its reason). A repository asks
// canTransition before its compare-and-set `UPDATE … WHERE status = $from` and appends the event
// eventFor names in the same transaction. docs/transmission.md "States" is rendered from these
// tables (statesMarkdown; a test holds the file to it).

export const NETWORKS = ["peppol", "ksef", "sdi", "ppf_pdp", "choruspro"] as const;
export type Network = (typeof NETWORKS)[number];

export type Direction = "outbound" | "inbound";
export const OUTBOUND_STATUSES = ["queued", "submitting", "submitted", "cleared", "delivered", "rejected", "failed"] as const;
export const INBOUND_STATUSES = ["received", "validated", "available", "failed"] as const;
export type OutboundStatus = (typeof OUTBOUND_STATUSES)[number];
export type InboundStatus = (typeof INBOUND_STATUSES)[number];
export type StatusOf<D extends Direction> = D extends "outbound" ? OutboundStatus : InboundStatus;

/** Spec "Events": one per status a webhook announces, and at_risk, which is a flag, not a status. */
export type TransmissionEvent =
  | "transmission.queued"
  | "transmission.submitted"
  | "transmission.cleared"
  | "transmission.delivered"
  | "transmission.rejected"
  | "transmission.failed"
  | "transmission.at_risk"
  | "transmission.received";
export const AT_RISK_EVENT: TransmissionEvent = "transmission.at_risk";

interface StatusRow<S> {
  status: S;
  /** `true`, `false`, or the networks where it is terminal (cleared ends a KSeF transmission only). */
  terminal: boolean | readonly Network[];
  /** Billed once on reaching it where it is terminal (spec: delivered, or terminal cleared; never rejected or failed). */
  billable: boolean;
  /** The webhook event a move into this status fires. */
  event: TransmissionEvent | null;
}

export const STATUSES: { [D in Direction]: readonly StatusRow<StatusOf<D>>[] } = {
  outbound: [
    { status: "queued", terminal: false, billable: false, event: "transmission.queued" },
    { status: "submitting", terminal: false, billable: false, event: null },
    { status: "submitted", terminal: false, billable: false, event: "transmission.submitted" },
    { status: "cleared", terminal: ["ksef"], billable: true, event: "transmission.cleared" },
    { status: "delivered", terminal: true, billable: true, event: "transmission.delivered" },
    { status: "rejected", terminal: true, billable: false, event: "transmission.rejected" },
    { status: "failed", terminal: true, billable: false, event: "transmission.failed" },
  ],
  inbound: [
    { status: "received", terminal: false, billable: false, event: null },
    { status: "validated", terminal: false, billable: false, event: null },
    { status: "available", terminal: true, billable: false, event: "transmission.received" },
    // Spec "Events" ties transmission.failed to the status alone, so an inbound failure fires it too.
    { status: "failed", terminal: true, billable: false, event: "transmission.failed" },
  ],
};

interface TransitionRow<S> {
  /** null: the transmission is created in `to`; "non-terminal": any status not terminal on the network. */
  from: S | null | "non-terminal";
  trigger: string;
  /** "same": the status does not change; the trigger is recorded as an event. */
  to: S | "same";
  basis: "spec" | "chosen";
  /** For spec rows the condition and side effects; for chosen rows why the move exists. */
  note: string;
}

export const TRANSITIONS: { [D in Direction]: readonly TransitionRow<StatusOf<D>>[] } = {
  outbound: [
    { from: null, trigger: "accepted", to: "queued", basis: "spec", note: "send or transmissions create accepted: document valid, sender registered, no duplicate; 202" },
    { from: "non-terminal", trigger: "recipient_not_served", to: "same", basis: "spec", note: "lookup answers not in directory, registered but not served, or type not published; stays open, escalated, not rejected" },
    { from: "non-terminal", trigger: "lookup_unanswered", to: "same", basis: "spec", note: "the recipient lookup itself does not answer; the send proceeds" },
    { from: "non-terminal", trigger: "deadline_passed", to: "failed", basis: "spec", note: "recipient still unresolved when deadline and grace window have elapsed; escalated" },
    { from: "submitting", trigger: "attempt_unanswered", to: "same", basis: "spec", note: "the attempt ends without an answer; the next attempt asks the provider before sending again" },
    { from: "queued", trigger: "attempt_started", to: "submitting", basis: "chosen", note: "a worker claims the transmission; the attempt id is written before the provider is called" },
    { from: "submitting", trigger: "attempt_retryable", to: "queued", basis: "chosen", note: "the provider answered with a temporary error; the next attempt waits for its backoff in the queue" },
    { from: "submitting", trigger: "provider_acknowledged", to: "submitted", basis: "chosen", note: "the provider took the submission; nothing is network-confirmed yet" },
    { from: "submitting", trigger: "provider_refused", to: "rejected", basis: "chosen", note: "the provider's own verdict refuses the document at submission; only such a verdict rejects, other errors stay resendable" },
    { from: "submitted", trigger: "network_receipt", to: "cleared", basis: "chosen", note: "the network confirms technical acceptance (AS4 receipt, KSeF UPO, SDI MC or PA RC)" },
    { from: "submitted", trigger: "recipient_confirmed", to: "delivered", basis: "chosen", note: "a delivery confirmation can come with no receipt step before it (SDI RC to a business)" },
    { from: "cleared", trigger: "recipient_confirmed", to: "delivered", basis: "chosen", note: "message-level confirmation after the receipt (MLS AP/AB, PA NE EC01 or DT); never on KSeF, where cleared is terminal" },
    { from: "submitted", trigger: "network_refused", to: "rejected", basis: "chosen", note: "the network refuses the document (SDI NS, KSeF refusal, MLS RE before any receipt)" },
    { from: "cleared", trigger: "recipient_refused", to: "rejected", basis: "chosen", note: "a negative message-level response after technical acceptance (MLS RE, PA NE EC02)" },
    { from: "non-terminal", trigger: "permanent_failure", to: "failed", basis: "chosen", note: "a permanent transport failure or a recipient the network cannot route to, whatever the step reached" },
  ],
  inbound: [
    { from: null, trigger: "arrived", to: "received", basis: "chosen", note: "the document arrived, recorded and deduplicated: the first status's meaning" },
    { from: "received", trigger: "validator_unavailable", to: "same", basis: "spec", note: "a service-side outage: retried, operators alerted, never failed" },
    { from: "received", trigger: "validated", to: "validated", basis: "chosen", note: "validated and parsed; the verdict is stored" },
    { from: "validated", trigger: "verdict_failing", to: "available", basis: "spec", note: "a failing verdict does not block availability; the document comes with its verdict" },
    { from: "validated", trigger: "verdict_passing", to: "available", basis: "chosen", note: "a passing verdict makes it available as a failing one does" },
    { from: "received", trigger: "unprocessable", to: "failed", basis: "chosen", note: "the document itself is unreadable or unparseable; its bytes are kept" },
  ],
};

const rowOf = <D extends Direction>(direction: D, status: StatusOf<D>): StatusRow<StatusOf<D>> => {
  const row = (STATUSES[direction] as readonly StatusRow<StatusOf<D>>[]).find((r) => r.status === status);
  if (!row) throw new Error(`no ${direction} status ${status}`);
  return row;
};

export function isTerminal<D extends Direction>(direction: D, status: StatusOf<D>, network: Network): boolean {
  const { terminal } = rowOf(direction, status);
  return typeof terminal === "boolean" ? terminal : terminal.includes(network);
}

/**
 * Whether a move is one of the table's: `from` null for creation, `to === from` for a recorded
 * trigger that leaves the status as it is. Nothing leaves a terminal status.
 */
export function canTransition<D extends Direction>(direction: D, from: StatusOf<D> | null, to: StatusOf<D>, network: Network): boolean {
  if (from !== null && isTerminal(direction, from, network)) return false;
  return (TRANSITIONS[direction] as readonly TransitionRow<StatusOf<D>>[]).some(
    (row) =>
      (row.from === from || (row.from === "non-terminal" && from !== null)) &&
      (row.to === to || (row.to === "same" && to === from)),
  );
}

/** The webhook event a move into `to` fires; null for a status no event announces (and for no move). */
export const eventFor = <D extends Direction>(direction: D, to: StatusOf<D>): TransmissionEvent | null => rowOf(direction, to).event;

/** Whether reaching `status` bills the transmission's one unit on this network. */
export const billedOn = (network: Network, status: OutboundStatus): boolean =>
  rowOf("outbound", status).billable && isTerminal("outbound", status, network);

interface NetworkCode {
  network: Network;
  /** The network's own name for the answer. */
  code: string;
  meaning: string;
  /** null: recorded as a receipt, the status does not move. */
  to: OutboundStatus | null;
  /** SDI answers a public administration (PA) and a business differently to the same RC. */
  recipient?: "pa" | "business";
}

/**
 * Each network's answers onto our outbound statuses (research wave 2 §3.3). Peppol has three
 * levels (AS4 receipt, MLS, business response) and receivers may send MLS only on failure, so a
 * missing MLS never means "not delivered". A PA invoice on SDI stays `cleared` after RC until the
 * PA's outcome (NE EC01/EC02) or the 15-day lapse (DT), because `delivered` is terminal and the PA
 * can still refuse. ppf_pdp: the lifecycle statuses of the French e-invoicing reform (XP Z12-012:
 * 200 deposited … 213 rejected); choruspro: Chorus Pro's own.
 */
export const NETWORK_CODES: readonly NetworkCode[] = [
  { network: "peppol", code: "provider_accepted", meaning: "our access point (C2) took the submission", to: "submitted" },
  { network: "peppol", code: "AS4_RECEIPT", meaning: "signed AS4 receipt from the receiving access point (C3): transport", to: "cleared" },
  { network: "peppol", code: "AS4_ERROR", meaning: "C3 answered the document itself with an AS4 error", to: "rejected" },
  { network: "peppol", code: "MLS_AP", meaning: "message level status: accepted", to: "delivered" },
  { network: "peppol", code: "MLS_AB", meaning: "message level status: acknowledged, handed on to the receiver", to: "delivered" },
  { network: "peppol", code: "MLS_RE", meaning: "message level status: rejected", to: "rejected" },
  { network: "sdi", code: "IdentificativoSdI", meaning: "SDI took the file and assigned its id", to: "submitted" },
  { network: "sdi", code: "NS", meaning: "notifica di scarto: SDI discarded the file", to: "rejected" },
  { network: "sdi", code: "MC", meaning: "mancata consegna: not delivered, issued and left in the buyer's reserved area", to: "cleared" },
  { network: "sdi", code: "RC", recipient: "business", meaning: "ricevuta di consegna: delivered to the buyer", to: "delivered" },
  { network: "sdi", code: "RC", recipient: "pa", meaning: "ricevuta di consegna: delivered to the PA, whose outcome is still to come", to: "cleared" },
  { network: "sdi", code: "NE_EC01", meaning: "notifica di esito: the PA accepted", to: "delivered" },
  { network: "sdi", code: "NE_EC02", meaning: "notifica di esito: the PA refused", to: "rejected" },
  { network: "sdi", code: "DT", meaning: "decorrenza termini: the PA did not answer within 15 days", to: "delivered" },
  { network: "sdi", code: "AT", meaning: "attestazione: transmitted, but delivery to the PA proved impossible", to: "failed" },
  { network: "sdi", code: "EC", meaning: "esito committente: the PA's outcome sent to SDI; reaches us as NE", to: null },
  { network: "sdi", code: "SE", meaning: "scarto esito committente: sent to the PA, not to us", to: null },
  { network: "sdi", code: "MT", meaning: "file metadati: sent to the recipient with the invoice", to: null },
  { network: "ksef", code: "accepted", meaning: "KSeF took the invoice into the session; processing goes on", to: "submitted" },
  { network: "ksef", code: "UPO", meaning: "urzędowe poświadczenie odbioru: official receipt, KSeF number assigned", to: "cleared" },
  { network: "ksef", code: "refused", meaning: "KSeF refused the invoice (schema, semantics or duplicate)", to: "rejected" },
  { network: "ppf_pdp", code: "200_DEPOSEE", meaning: "déposée: the platform took the invoice", to: "submitted" },
  { network: "ppf_pdp", code: "202_RECUE", meaning: "reçue par la plateforme: the buyer's platform received it", to: "cleared" },
  { network: "ppf_pdp", code: "203_MISE_A_DISPOSITION", meaning: "mise à disposition: made available to the buyer", to: "delivered" },
  { network: "ppf_pdp", code: "210_REFUSEE", meaning: "refusée: the buyer refused it", to: "rejected" },
  { network: "ppf_pdp", code: "213_REJETEE", meaning: "rejetée: the platform rejected it on validation", to: "rejected" },
  { network: "choruspro", code: "DEPOSEE", meaning: "deposited on Chorus Pro", to: "submitted" },
  { network: "choruspro", code: "MISE_A_DISPOSITION", meaning: "made available to the public entity", to: "delivered" },
  { network: "choruspro", code: "REJETEE", meaning: "rejected by Chorus Pro on validation", to: "rejected" },
  { network: "choruspro", code: "A_RECYCLER", meaning: "returned by the public entity for correction", to: "rejected" },
];

/** Our status for a network's answer; throws on an answer the table does not know, a provider's bug. */
export function statusForCode(network: Network, code: string, recipient: "pa" | "business" = "business"): OutboundStatus | null {
  const rows = NETWORK_CODES.filter((r) => r.network === network && r.code === code);
  const row = rows.find((r) => r.recipient === undefined || r.recipient === recipient);
  if (!row) throw new Error(`no mapping for ${network} answer ${code}`);
  return row.to;
}

const cell = (value: string | null) => (value === null ? "-" : `\`${value}\``);
const terminalCell = (terminal: boolean | readonly Network[]) =>
  typeof terminal === "boolean" ? (terminal ? "yes" : "no") : `only on ${terminal.join(", ")}`;

/** The "States" tables of docs/transmission.md. */
export function statesMarkdown(): string {
  const lines: string[] = [];
  for (const direction of ["outbound", "inbound"] as const) {
    lines.push(`### ${direction === "outbound" ? "Outbound" : "Inbound"} statuses`, "", "| status | terminal | billed | event |", "|---|---|---|---|");
    for (const row of STATUSES[direction]) {
      const billed = row.billable ? (row.terminal === true ? "yes" : "where terminal") : "no";
      lines.push(`| ${cell(row.status)} | ${terminalCell(row.terminal)} | ${billed} | ${cell(row.event)} |`);
    }
    lines.push("", `### ${direction === "outbound" ? "Outbound" : "Inbound"} transitions`, "", "| from | trigger | to | basis | note |", "|---|---|---|---|---|");
    for (const row of TRANSITIONS[direction]) {
      const from = row.from === null ? "(new)" : row.from === "non-terminal" ? "any non-terminal" : cell(row.from);
      const to = row.to === "same" ? "unchanged" : cell(row.to);
      lines.push(`| ${from} | \`${row.trigger}\` | ${to} | ${row.basis} | ${row.note} |`);
    }
    lines.push("");
  }
  lines.push("### Network answers", "", "| network | answer | means | status |", "|---|---|---|---|");
  for (const row of NETWORK_CODES) {
    const code = row.recipient ? `\`${row.code}\` (${row.recipient === "pa" ? "to a PA" : "to a business"})` : `\`${row.code}\``;
    lines.push(`| ${row.network} | ${code} | ${row.meaning} | ${row.to === null ? "unchanged" : cell(row.to)} |`);
  }
  return `${lines.join("\n")}\n`;
}
