// What the concept files share: the header containers a reader looks into, and the containers a
// writer contributes to. CII scatters one concept over several containers (payment over settlement
// and payment terms, references over agreement, delivery and settlement), so each concept names
// where its parts go and write.ts assembles them.

import type { XmlNode } from "../xml-writer.ts";
import { cii, type Element } from "./vocabulary.ts";

export interface Header {
  context?: Element;
  document?: Element;
  transaction?: Element;
  agreement?: Element;
  delivery?: Element;
  settlement?: Element;
}

export function headerOf(root: Element): Header {
  const transaction = cii.one(root, "rsm:SupplyChainTradeTransaction");
  return {
    context: cii.one(root, "rsm:ExchangedDocumentContext"),
    document: cii.one(root, "rsm:ExchangedDocument"),
    transaction,
    agreement: cii.one(transaction, "ram:ApplicableHeaderTradeAgreement"),
    delivery: cii.one(transaction, "ram:ApplicableHeaderTradeDelivery"),
    settlement: cii.one(transaction, "ram:ApplicableHeaderTradeSettlement"),
  };
}

export type Slot = "context" | "document" | "lines" | "agreement" | "delivery" | "settlement";
export type Part = XmlNode | undefined | false;
export type Contribution = Partial<Record<Slot, Part[]>>;
