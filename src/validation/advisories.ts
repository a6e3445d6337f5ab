import type { DocumentFacts } from "./facts";
import type { ValidationFinding } from "./result";

/**
 * BR-CO-25 (amount due positive needs a due date or payment terms) left the CEN rules in 1.3.16.
 * Where no artifact that ran enforces it, the service says so instead of staying silent. Factur-X
 * BASIC and BASIC WL enforce it without a rule id the scan can see (spec, Validation result).
 */
const ENFORCED_WITHOUT_ID = new Set(["facturx_schematron/1.09/facturx-basic/Factur-X_1.09_BASIC.xsl", "facturx_schematron/1.09/Factur-X/BASICWL/2xslt/FACTUR-X_BASIC-WL.xslt"]);

export function brCo25Advisory(
  artifacts: { path: string; ruleIds: readonly string[] }[],
  facts: DocumentFacts,
  creditNote: boolean,
): ValidationFinding | undefined {
  if (creditNote || artifacts.length === 0) return undefined;
  if (artifacts.some((a) => a.ruleIds.includes("BR-CO-25") || ENFORCED_WITHOUT_ID.has(a.path))) return undefined;
  const due = Number(facts.amountDue);
  if (!(due > 0) || facts.dueDate || facts.paymentTerms) return undefined;
  return {
    ruleId: "EN16931_BR_CO_25_NOT_ENFORCED",
    severity: "info",
    message:
      "The amount due for payment (BT-115) is positive but neither a payment due date (BT-9) nor payment terms (BT-20) is given. Rule BR-CO-25 requires one of them; none of the rule files that ran enforces it any more, so this is advice and does not change the verdict.",
  };
}
