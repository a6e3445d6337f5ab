// What the concept files share: the header containers a reader looks into, and the containers a
// writer contributes to. CII scatters one concept over several containers (payment over settlement
// and payment terms, references over agreement, delivery and settlement), so each concept names
// where its parts go and write.ts assembles them.

import type { Element } from "@xmldom/xmldom";
import { first } from "./dom.ts";
import type { XmlNode } from "./node.ts";

export interface Header {
  context?: Element;
  document?: Element;
  transaction?: Element;
  agreement?: Element;
  delivery?: Element;
  settlement?: Element;
}

export function headerOf(root: Element): Header {
  const transaction = first(root, "rsm:SupplyChainTradeTransaction");
  return {
    context: first(root, "rsm:ExchangedDocumentContext"),
    document: first(root, "rsm:ExchangedDocument"),
    transaction,
    agreement: first(transaction, "ram:ApplicableHeaderTradeAgreement"),
    delivery: first(transaction, "ram:ApplicableHeaderTradeDelivery"),
    settlement: first(transaction, "ram:ApplicableHeaderTradeSettlement"),
  };
}

export type Slot = "context" | "document" | "lines" | "agreement" | "delivery" | "settlement";
export type Part = XmlNode | undefined | false;
export type Contribution = Partial<Record<Slot, Part[]>>;
