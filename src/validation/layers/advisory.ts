import type { DocumentFacts } from "./facts";
import type { ValidationFinding } from "./result";

/**
 * BR-CO-25 (amount due positive needs a due date or payment terms) left the CEN rules in 1.3.16.
 * Where no rule file that ran carries it (the rule ids the engine read from the file itself), the
 * service says so instead of staying silent. The pinned Factur-X 1.09 BASIC and BASIC WL files have
 * no such rule, whatever the specification's prose says, so their invoices draw the advisory too.
 */
export function brCo25Advisory(
  artifacts: { ruleIds: readonly string[] }[],
  facts: DocumentFacts,
  creditNote: boolean,
): ValidationFinding | undefined {
  if (creditNote || artifacts.length === 0) return undefined;
  if (artifacts.some((a) => a.ruleIds.includes("BR-CO-25"))) return undefined;
  const due = Number(facts.amountDue);
  if (!(due > 0) || facts.dueDate || facts.paymentTerms) return undefined;
  return {
    ruleId: "EN16931_BR_CO_25_NOT_ENFORCED",
    severity: "info",
    message:
      "The amount due for payment (BT-115) is positive but neither a payment due date (BT-9) nor payment terms (BT-20) is given. Rule BR-CO-25 requires one of them; none of the rule files that ran enforces it any more, so this is advice and does not change the verdict.",
  };
}
