// CIUS-RO: amounts in another currency also state the VAT in RON; Romanian and deliver-to
// addresses name their county. Checks only: the overlay writes nothing, so parse has nothing to undo.

import type { FieldError } from "../errors/domain-error.ts";
import { missing, taxCurrency } from "../invoice/field-errors.ts";
import { ROLES, type Overlay } from "./overlay.ts";

export const romania: Overlay = {
  check(invoice) {
    const errors: FieldError[] = [];
    if (invoice.currencyCode !== "RON" && invoice.taxCurrencyCode !== "RON") {
      errors.push(taxCurrency("must be RON (with taxTotalInAccountingCurrency in RON) when a Romanian invoice is not in RON"));
    }
    for (const role of ROLES) {
      const address = invoice[role].address;
      if (address.countryCode === "RO" && address.countrySubentity === undefined) errors.push(missing(`/invoice/${role}/address`, "countrySubentity"));
    }
    // BR-RO-211: a deliver-to address names its subdivision (BT-79), whatever its country.
    const delivery = invoice.delivery?.address;
    if (delivery && delivery.countrySubentity === undefined) errors.push(missing("/invoice/delivery/address", "countrySubentity"));
    return errors;
  },
};
