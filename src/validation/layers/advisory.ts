// Advisory layers: what the verdict does not weigh, but a reader should hear about, reported as
// findings that never change `valid`. Two kinds: where an authority dropped a rule the standard
// still states (BR-CO-25), drawn only when no rule file that ran carries the rule (read from the
// files themselves, not from a list of files believed to enforce it); and where a national
// authority refuses documents the schema accepts (SDI, FACe), each format's checks a rule table in
// ../national-advisories/. A record lists the advisories that concern it.

import type { AdvisoryKey } from "../../profiles/record";
import type { ValidationFinding } from "../result";
import { FACTURAE_RULES } from "../national-advisories/facturae";
import { FATTURAPA_RULES } from "../national-advisories/fatturapa";
import { runRules } from "../national-advisories/rule";
import type { Layer, LayerRun } from "./layer";
import { factsOf, syntaxOf, type JudgeState } from "./state";

/**
 * BR-CO-25 (amount due positive needs a due date or payment terms) left the CEN rules in 1.3.16.
 * The pinned Factur-X 1.09 BASIC and BASIC WL files have no such rule either, whatever the
 * specification's prose says, so their invoices draw the advisory too; EXTENDED carries it.
 */
function brCo25(s: JudgeState): ValidationFinding | undefined {
  if (s.detection.documentType === "creditnote") return undefined;
  if (s.ruleIdsRan.some((ids) => ids.includes("BR-CO-25"))) return undefined;
  const facts = factsOf(s);
  const due = Number(facts.amountDue);
  if (!(due > 0) || facts.dueDate || facts.paymentTerms) return undefined;
  return {
    ruleId: "EN16931_BR_CO_25_NOT_ENFORCED",
    severity: "info",
    message:
      "The amount due for payment (BT-115) is positive but neither a payment due date (BT-9) nor payment terms (BT-20) is given. Rule BR-CO-25 requires one of them; none of the rule files that ran enforces it any more, so this is advice and does not change the verdict.",
  };
}

const ADVISORIES: Record<AdvisoryKey, (s: JudgeState) => LayerRun> = {
  "BR-CO-25"(s) {
    if (!syntaxOf(s)) return { status: "skipped", reason: "the document is in no EN 16931 syntax" };
    const finding = brCo25(s);
    return { status: "ran", findings: finding ? [finding] : [] };
  },
  "fatturapa-sdi": (s) => runRules(FATTURAPA_RULES, s.xml),
  "facturae-face": (s) => runRules(FACTURAE_RULES, s.xml),
};

export function advisoryLayer(advisory: AdvisoryKey): Layer<JudgeState> {
  return { kind: "advisory", name: advisory, run: ADVISORIES[advisory] };
}
