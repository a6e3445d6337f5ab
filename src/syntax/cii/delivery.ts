// Delivery information (BG-13, with the deliver-to address BG-15) and the invoicing period (BG-14).

import type { Delivery, Period } from "../../model/index.ts";
import { group, type XmlNode } from "../xml-writer.ts";
import type { Contribution, Header } from "./context.ts";
import { ADDRESS_TERMS } from "../terms.ts";
import { readAddress, readPartyId, writeAddress, writePartyId } from "./party.ts";
import { readDate, term, unlessEmpty, writeDate } from "./values.ts";
import { cii, type Element } from "./vocabulary.ts";

export function readDelivery(h: Header): Delivery | undefined {
  const party = cii.one(h.delivery, "ram:ShipToTradeParty");
  return unlessEmpty<Delivery>({
    partyName: cii.text(party, "ram:Name"),
    locationId: readPartyId(party),
    actualDeliveryDate: readDate(h.delivery, "ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime"),
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
        term("ram:Name", d.partyName, "BT-70"),
        writeAddress(d.address, ADDRESS_TERMS.deliverTo),
      ),
      group("ram:ActualDeliverySupplyChainEvent", writeDate("ram:OccurrenceDateTime", d.actualDeliveryDate, "BT-72")),
    ],
  };
}

export function readPeriod(parent: Element | undefined): Period | undefined {
  const p = cii.one(parent, "ram:BillingSpecifiedPeriod");
  return unlessEmpty({ startDate: readDate(p, "ram:StartDateTime"), endDate: readDate(p, "ram:EndDateTime") });
}

export function writePeriod(p: Period | undefined, [start, end]: readonly [string, string]): XmlNode | undefined {
  if (!p) return undefined;
  return group("ram:BillingSpecifiedPeriod", writeDate("ram:StartDateTime", p.startDate, start), writeDate("ram:EndDateTime", p.endDate, end));
}

export const readInvoicingPeriod = (h: Header) => readPeriod(h.settlement);

export const writeInvoicingPeriod = (p: Period | undefined): Contribution => ({ settlement: [writePeriod(p, ["BT-73", "BT-74"])] });
