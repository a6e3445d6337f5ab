// What the sandbox network does, as data. The recipient's identifier chooses the scenario (the
// end of its normalised id, so `0060:acme-slow` and `0060:ACME.SLOW` both play `slow`); each
// network answers in its own vocabulary (the codes of states.ts NETWORK_CODES, and for the French
// platforms the rows below). docs/transmission.md "Sandbox" renders the same tables.

import type { Network } from "../states";
import type { LookupAnswer } from "../provider";

/** How a confirmation waits in `slow`, and how long a public administration has before SDI's DT. */
const HOUR = 3_600_000;
const SLOW_DELAY_MS = 2 * HOUR;
const PA_ANSWER_MS = 24 * HOUR;
const PA_LAPSE_MS = 15 * 24 * HOUR;

type Plan = "deliver" | "deliver_late" | "refuse" | "negative" | "none";

export interface Scenario {
  name: string;
  /** The normalised recipient id ends with it; the first match wins, `delivers` when none does. */
  suffix: string | null;
  lookup: LookupAnswer;
  /** accept; refuse at submission; silent: takes it and the answer times out; crash: takes it and the connection dies; lose_first: the first attempt never arrives; busy_first: the first attempt is answered "busy, later". */
  submit: "accept" | "refuse" | "silent" | "crash" | "lose_first" | "busy_first";
  plan: Plan;
  meaning: string;
}

export const SCENARIOS: readonly Scenario[] = [
  { name: "slow", suffix: "slow", lookup: "reachable", submit: "accept", plan: "deliver_late", meaning: "delivers; the confirmation comes 2 h (sandbox clock) after the receipt" },
  { name: "rejects", suffix: "rejects", lookup: "reachable", submit: "refuse", plan: "refuse", meaning: "refused with reasons (Peppol: by the access point at submission; elsewhere by the network after taking it)" },
  { name: "negative", suffix: "negative", lookup: "reachable", submit: "accept", plan: "negative", meaning: "technically accepted, then a negative message-level answer (MLS RE, PA NE EC02, KSeF refusal, platform refusal)" },
  { name: "notlisted", suffix: "notlisted", lookup: "not_in_directory", submit: "accept", plan: "deliver", meaning: "the lookup finds no such participant" },
  { name: "notserved", suffix: "notserved", lookup: "not_served", submit: "accept", plan: "deliver", meaning: "registered, but no access point serves it" },
  { name: "nodoctype", suffix: "nodoctype", lookup: "doctype_not_published", submit: "accept", plan: "deliver", meaning: "reachable, but does not publish the document type" },
  { name: "lookuptimeout", suffix: "lookuptimeout", lookup: "lookup_failed", submit: "accept", plan: "deliver", meaning: "the lookup does not answer; the document is delivered when sent anyway" },
  { name: "silent", suffix: "silent", lookup: "reachable", submit: "silent", plan: "none", meaning: "takes the document, the answer times out, and no receipt ever follows" },
  { name: "crash", suffix: "crash", lookup: "reachable", submit: "crash", plan: "deliver", meaning: "records the document, then the connection dies before the answer; delivers" },
  { name: "lost", suffix: "lost", lookup: "reachable", submit: "lose_first", plan: "deliver", meaning: "the first attempt is lost before it arrives (no answer); the next one delivers" },
  { name: "busy", suffix: "busy", lookup: "reachable", submit: "busy_first", plan: "deliver", meaning: "the first attempt is answered busy (nothing taken); the next one delivers" },
  { name: "delivers", suffix: null, lookup: "reachable", submit: "accept", plan: "deliver", meaning: "any other recipient: accepted, receipt and confirmation at once" },
];

export function scenarioFor(normalisedId: string): Scenario {
  return SCENARIOS.find((s) => s.suffix !== null && normalisedId.endsWith(s.suffix)) ?? SCENARIOS[SCENARIOS.length - 1];
}

/** One answer the network gives `afterMs` after it received the document. */
export interface Step {
  code: string;
  kind: string;
  afterMs: number;
  recipient?: "pa" | "business";
  reasons?: string[];
}

interface Vocabulary {
  /** The code of the submission taken. */
  accepted: string;
  /** The answers of each plan; `pa` for SDI addressees that are public administrations. */
  plans(plan: Plan, pa: boolean): Step[];
  /** Proofs as the network writes them. */
  format: "xml" | "json";
}

export const REFUSAL_REASONS = ["BR-CO-15: invoice total with VAT does not equal total without VAT plus VAT (sandbox)"];
const NEGATIVE = ["the recipient refused the invoice: unknown order reference (sandbox)"];
const step = (code: string, kind: string, afterMs = 0, extra: Partial<Step> = {}): Step => ({ code, kind, afterMs, ...extra });

export const VOCABULARIES: Record<Network, Vocabulary> = {
  peppol: {
    accepted: "provider_accepted",
    format: "xml",
    plans: (plan) =>
      ({
        deliver: [step("AS4_RECEIPT", "transport"), step("MLS_AP", "message_level")],
        deliver_late: [step("AS4_RECEIPT", "transport"), step("MLS_AB", "message_level", SLOW_DELAY_MS)],
        refuse: [],
        negative: [step("AS4_RECEIPT", "transport"), step("MLS_RE", "message_level", 10 * 60_000, { reasons: NEGATIVE })],
        none: [],
      })[plan],
  },
  sdi: {
    accepted: "IdentificativoSdI",
    format: "xml",
    plans: (plan, pa) => {
      const recipient = pa ? "pa" : "business";
      return {
        deliver: pa ? [step("RC", "delivery_receipt", 0, { recipient }), step("NE_EC01", "outcome", PA_ANSWER_MS)] : [step("RC", "delivery_receipt", 0, { recipient })],
        // A PA that never answers: SDI closes the matter with DT after 15 days.
        deliver_late: pa ? [step("RC", "delivery_receipt", 0, { recipient }), step("DT", "lapse", PA_LAPSE_MS)] : [step("RC", "delivery_receipt", SLOW_DELAY_MS, { recipient })],
        refuse: [step("NS", "discard", 5 * 60_000, { reasons: REFUSAL_REASONS })],
        // Only a PA answers on the merits, so the negative plan addresses one.
        negative: [step("RC", "delivery_receipt", 0, { recipient: "pa" }), step("NE_EC02", "outcome", PA_ANSWER_MS, { reasons: NEGATIVE })],
        none: [],
      }[plan];
    },
  },
  ksef: {
    accepted: "accepted",
    format: "json",
    plans: (plan) =>
      ({
        deliver: [step("UPO", "official_receipt")],
        deliver_late: [step("UPO", "official_receipt", SLOW_DELAY_MS)],
        refuse: [step("refused", "refusal", 0, { reasons: REFUSAL_REASONS })],
        // KSeF has no answer from the buyer: the negative case is a refusal after processing.
        negative: [step("refused", "refusal", 10 * 60_000, { reasons: NEGATIVE })],
        none: [],
      })[plan],
  },
  ppf_pdp: {
    accepted: "200_DEPOSEE",
    format: "xml",
    plans: (plan) =>
      ({
        deliver: [step("202_RECUE", "lifecycle"), step("203_MISE_A_DISPOSITION", "lifecycle")],
        deliver_late: [step("202_RECUE", "lifecycle"), step("203_MISE_A_DISPOSITION", "lifecycle", SLOW_DELAY_MS)],
        refuse: [step("213_REJETEE", "lifecycle", 0, { reasons: REFUSAL_REASONS })],
        negative: [step("202_RECUE", "lifecycle"), step("210_REFUSEE", "lifecycle", HOUR, { reasons: NEGATIVE })],
        none: [],
      })[plan],
  },
  choruspro: {
    accepted: "DEPOSEE",
    format: "json",
    plans: (plan) =>
      ({
        deliver: [step("MISE_A_DISPOSITION", "lifecycle")],
        deliver_late: [step("MISE_A_DISPOSITION", "lifecycle", SLOW_DELAY_MS)],
        refuse: [step("REJETEE", "lifecycle", 0, { reasons: REFUSAL_REASONS })],
        negative: [step("A_RECYCLER", "lifecycle", HOUR, { reasons: NEGATIVE })],
        none: [],
      })[plan],
  },
};

const after = (ms: number) => (ms === 0 ? "" : ms % (24 * HOUR) === 0 ? ` +${ms / (24 * HOUR)} d` : ms % HOUR === 0 ? ` +${ms / HOUR} h` : ` +${ms / 60_000} min`);
const steps = (list: Step[]) => (list.length ? list.map((s) => `\`${s.code}\`${after(s.afterMs)}`).join(", ") : "-");

/** The "Sandbox" tables of docs/transmission.md (a test holds the file to them). */
export function sandboxMarkdown(): string {
  const lines = ["| recipient id ends with | scenario | lookup | submission |", "|---|---|---|---|"];
  for (const s of SCENARIOS) lines.push(`| ${s.suffix === null ? "anything else" : `\`${s.suffix}\``} | ${s.meaning} | \`${s.lookup}\` | ${s.submit.replace("_", " ")} |`);
  const plans: [string, Plan][] = [
    ["delivers, lookuptimeout, crash, lost, busy", "deliver"],
    ["slow", "deliver_late"],
    ["rejects", "refuse"],
    ["negative", "negative"],
    ["silent", "none"],
  ];
  lines.push("", "| network | submission answered | scenarios | answers after it (sandbox clock) |", "|---|---|---|---|");
  for (const [network, vocabulary] of Object.entries(VOCABULARIES)) {
    for (const [names, plan] of plans) {
      const pa = network === "sdi" && (plan === "deliver" || plan === "deliver_late") ? `; to a PA (ICD 0201): ${steps(vocabulary.plans(plan, true))}` : "";
      const atSubmission = network === "peppol" && plan === "refuse";
      lines.push(`| ${network} | ${atSubmission ? "refused with reasons" : `\`${vocabulary.accepted}\``} | ${names} | ${atSubmission ? "-" : steps(vocabulary.plans(plan, false)) + pa} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
