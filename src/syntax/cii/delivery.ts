// Delivery information (BG-13, with the deliver-to address BG-15) and the invoicing period (BG-14).

import type { Delivery, Period } from "../../model/index.ts";
import type { Element } from "@xmldom/xmldom";
import type { Contribution, Header } from "./context.ts";
import { date, first, text, unlessEmpty } from "./dom.ts";
import { date102, group, leaf, type XmlNode } from "./node.ts";
import { ADDRESS_TERMS, readAddress, readPartyIds, writeAddress, writePartyId } from "./party.ts";

export function readDelivery(h: Header): Delivery | undefined {
  const party = first(h.delivery, "ram:ShipToTradeParty");
  return unlessEmpty<Delivery>({
    partyName: text(party, "ram:Name"),
    locationId: readPartyIds(party)[0],
    actualDeliveryDate: date(h.delivery, "ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime"),
    address: readAddress(party),
  });
}

export function writeDelivery(d: Delivery | undefined): Contribution {
  if (!d) return {};
  return {
    delivery: [
      group(
        "ram:ShipToTradeParty",
        writePartyId(d.locationId, "BT-71"),
        leaf("ram:Name", d.partyName, "BT-70"),
        writeAddress(d.address, ADDRESS_TERMS.deliverTo),
      ),
      group("ram:ActualDeliverySupplyChainEvent", date102("ram:OccurrenceDateTime", d.actualDeliveryDate, "BT-72")),
    ],
  };
}

export function readPeriod(parent: Element | undefined): Period | undefined {
  const p = first(parent, "ram:BillingSpecifiedPeriod");
  return unlessEmpty({ startDate: date(p, "ram:StartDateTime"), endDate: date(p, "ram:EndDateTime") });
}

export function writePeriod(p: Period | undefined, [start, end]: readonly [string, string]): XmlNode | undefined {
  if (!p) return undefined;
  return group("ram:BillingSpecifiedPeriod", date102("ram:StartDateTime", p.startDate, start), date102("ram:EndDateTime", p.endDate, end));
}

export const readInvoicingPeriod = (h: Header) => readPeriod(h.settlement);

export const writeInvoicingPeriod = (p: Period | undefined): Contribution => ({ settlement: [writePeriod(p, ["BT-73", "BT-74"])] });
