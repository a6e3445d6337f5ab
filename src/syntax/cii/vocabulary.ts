// CII names the binding files share: the four namespaces and the lookup reader bound to their
// prefixes (`rsm:`, `ram:`, `udt:`, `qdt:`), which the writer also declares on the root.

import { createReader } from "../xml-reader.ts";

export const NAMESPACES = {
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
} as const;

export type { Element } from "../xml-reader.ts";

export const cii = createReader(NAMESPACES);
