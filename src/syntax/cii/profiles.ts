// The CII targets we write: D16B (plain CII, XRechnung) and the five Factur-X 1.09 (D22B) profiles.
// What each carries, and in which order, is the schema table generated from its XSD (schemas.ts);
// this file names the targets and finds the one a source document was written for.

import { recordForId } from "../detect.ts";
import type { FacturxLevel } from "../../profiles/ids.ts";
import type { Writing } from "../../profiles/record.ts";
import type { SchemaTable } from "./schemas.gen.ts";
import { SCHEMAS } from "./schemas.ts";

export type CiiTarget = { version: "D16B" } | { version: "D22B"; profile: FacturxLevel };

export interface TargetFacts {
  schema: SchemaTable;
  /** Schema id of src/validation/xsd.ts that judges the written document. */
  xsd: "cii-d16b" | `facturx-${FacturxLevel}`;
  /**
   * Whether logistics service fees (BT-X-272, `ram:SpecifiedLogisticsServiceCharge`) are written as
   * such: only Factur-X EXTENDED counts them in its totals. D16B declares the element too, but
   * EN 16931 discourages it (CII-SR-195) and leaves it out of BT-108, so it gets plain charges.
   */
  logisticsServiceCharges: boolean;
}

export function targetFacts(target: CiiTarget): TargetFacts {
  if (target.version === "D16B") return { schema: SCHEMAS.D16B, xsd: "cii-d16b", logisticsServiceCharges: false };
  return { schema: SCHEMAS[target.profile], xsd: `facturx-${target.profile}`, logisticsServiceCharges: target.profile === "extended" };
}

/**
 * The target a document declares by its guideline id (BT-24): Factur-X / ZUGFeRD levels are D22B;
 * everything else (EN 16931, XRechnung, Peppol, national CIUS) is D16B, except that the bare
 * EN 16931 id inside a hybrid PDF is the Factur-X EN16931 level.
 */
export function targetOf(guidelineId: string, options: { hybrid?: boolean } = {}): CiiTarget {
  return writtenTarget(recordForId(guidelineId, "cii", options)?.write?.cii);
}

/** The target a record's writing facts name: D22B at its Factur-X level, otherwise D16B. */
export function writtenTarget(written: Writing["cii"]): CiiTarget {
  return written?.version === "D22B" ? { version: "D22B", profile: written.level } : { version: "D16B" };
}

export function targetLabel(target: CiiTarget): string {
  return target.version === "D16B" ? "D16B" : `D22B ${target.profile}`;
}
