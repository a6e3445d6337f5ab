// Delivery information (BG-13, BG-15) <-> cac:Delivery, and periods (BG-14, BG-26) <-> cac:InvoicePeriod.

import type { Delivery, Period } from "../../model/index.ts";
import { always, group, leaf, type XmlNode } from "../xml-writer.ts";
import { readAddress, writeAddress } from "./address.ts";
import { readIdentifier, writeIdentifier } from "./values.ts";
import { ubl, type Element } from "./vocabulary.ts";

export function readDelivery(root: Element): Delivery | undefined {
  const delivery = ubl.one(root, "cac:Delivery");
  if (!delivery) return undefined;
  const location = ubl.one(delivery, "cac:DeliveryLocation");
  return {
    partyName: ubl.text(delivery, "cac:DeliveryParty/cac:PartyName/cbc:Name"),
    locationId: location && readIdentifier(location, "cbc:ID"),
    actualDeliveryDate: ubl.text(delivery, "cbc:ActualDeliveryDate"),
    address: location && readAddress(ubl.one(location, "cac:Address")),
  };
}

export function writeDelivery(delivery: Delivery | undefined): XmlNode | undefined {
  if (!delivery) return undefined;
  return always(
    "cac:Delivery",
    leaf("cbc:ActualDeliveryDate", delivery.actualDeliveryDate),
    group("cac:DeliveryLocation", writeIdentifier("cbc:ID", delivery.locationId), writeAddress("cac:Address", delivery.address)),
    group("cac:DeliveryParty", group("cac:PartyName", leaf("cbc:Name", delivery.partyName))),
  );
}

/** The period of a document or line; `descriptionCode` is BT-8, carried by the document period only. */
export function readPeriod(el: Element | undefined): Period | undefined {
  if (!el) return undefined;
  const period = { startDate: ubl.text(el, "cbc:StartDate"), endDate: ubl.text(el, "cbc:EndDate") };
  return period.startDate === undefined && period.endDate === undefined ? undefined : period;
}

export function writePeriod(period: Period | undefined, descriptionCode?: string): XmlNode | undefined {
  return group(
    "cac:InvoicePeriod",
    leaf("cbc:StartDate", period?.startDate),
    leaf("cbc:EndDate", period?.endDate),
    leaf("cbc:DescriptionCode", descriptionCode),
  );
}
