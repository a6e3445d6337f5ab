// What a conversion did not carry, as the convert answer reports it (LostElement), and the few
// losses the interface specification accepts. Every other loss fails closed: nothing leaves the
// service changed without the caller being told, and only the spec's list is told in a 200.

/** A convert audit entry (spec, LostElement). */
export interface LostElement {
  /** XPath of the element or attribute in the source, with positions. */
  path: string;
  value: string | null;
  /** What it was (its BT or BG id where it has one) and why the target does not carry it. */
  reason: string;
  /** Always `info` today (spec). */
  severity: "info" | "warning";
  /** True for the spec's acceptable losses, the only ones a 200 carries. */
  acceptableLoss: boolean;
}

/**
 * The acceptable losses (spec, POST /v1/convert): a Peppol BIS source's party endpoints on a plain
 * UBL target, a hybrid PDF's envelope on an XML target, and a France CTC business process code on
 * a UBL target when the caller opted in with `dropFranceCtcOverlay`.
 */
export const ACCEPTABLE_LOSSES = {
  "peppol-endpoint": "Peppol endpoint (BT-34 seller / BT-49 buyer electronic address), stripped on the way to plain EN 16931 UBL",
  "pdf-envelope": "the hybrid PDF envelope (visible pages, XMP metadata, attachment) is not carried by an XML target",
  "france-ctc-process": "France CTC business process code (BT-23), dropped on a UBL target as dropFranceCtcOverlay asked",
} as const;

export type AcceptableLoss = keyof typeof ACCEPTABLE_LOSSES;

export const acceptable = (kind: AcceptableLoss, path: string, value: string | null): LostElement => ({
  path,
  value,
  reason: ACCEPTABLE_LOSSES[kind],
  severity: "info",
  acceptableLoss: true,
});

export const unmappable = (path: string, value: string | null, reason: string): LostElement => ({ path, value, reason, severity: "info", acceptableLoss: false });
