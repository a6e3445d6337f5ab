// Delivery information (BG-13) and the periods (BG-14 invoicing period, BG-26 line period).

import type { Address, Identifier, IsoDate } from "./common.ts";

/** BG-14 INVOICING PERIOD and BG-26 INVOICE LINE PERIOD. */
export interface Period {
  /** BT-73 / BT-134: start date. */
  startDate?: IsoDate;
  /** BT-74 / BT-135: end date. */
  endDate?: IsoDate;
}

/** BG-13 DELIVERY INFORMATION. */
export interface Delivery {
  /** BT-70: deliver to party name. */
  partyName?: string;
  /** BT-71 (0..1): deliver to location identifier, with scheme (BT-71-1). */
  locationId?: Identifier;
  /** BT-72: actual delivery date. */
  actualDeliveryDate?: IsoDate;
  /** BG-15 (0..1): deliver to address. */
  address?: Address;
}
