// Reads SVRL (Schematron Validation Report Language) output into findings, in document order.

import { DOMParser, type Element } from "@xmldom/xmldom";
import type { FindingCaps } from "./finding-caps";
import { ruleIdOf, type Finding } from "../schematron/finding";

export const SVRL_NS = "http://purl.oclc.org/dsdl/svrl";

/** One entry per rule id and flag for the findings `caps` left out (see {@link Finding.omitted}). */
export function omittedFindings(caps: FindingCaps): Finding[] {
  return caps.tallies().map((t) => ({ ruleId: t.ruleId, flag: t.grade, location: null, message: "", omitted: t.count }));
}

/** The findings of an SVRL report in document order; with `caps`, those past them are counted instead, after the rest. */
export function parseSvrl(svrl: string, caps?: FindingCaps): Finding[] {
  let doc;
  try {
    // Throwing from onError makes xmldom stop on errors it would otherwise recover from.
    doc = new DOMParser({
      onError: (level, msg) => {
        if (level !== "warning") throw new Error(msg);
      },
    }).parseFromString(svrl, "text/xml");
  } catch (e) {
    throw new Error(`SVRL is not well-formed XML: ${(e as Error).message}`);
  }
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== SVRL_NS || root.localName !== "schematron-output") {
    throw new Error(`not an SVRL report: root element is ${root ? `{${root.namespaceURI}}${root.localName}` : "missing"}`);
  }
  const findings: Finding[] = [];
  // Findings are children of the root in every SVRL producer we run (ISO skeleton, SchXslt).
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const el = n as Element;
    if (el.namespaceURI !== SVRL_NS || (el.localName !== "failed-assert" && el.localName !== "successful-report")) continue;
    const finding = { ruleId: el.getAttribute("id") || null, flag: el.getAttribute("flag") || null, message: normalizeSpace(textOf(el)) };
    if (caps && !caps.keep(ruleIdOf(finding), finding.flag)) continue;
    findings.push({ ruleId: finding.ruleId, flag: finding.flag, location: el.getAttribute("location") ?? null, message: finding.message });
  }
  return caps ? [...findings, ...omittedFindings(caps)] : findings;
}

function textOf(el: Element): string {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === SVRL_NS && (n as Element).localName === "text") {
      return n.textContent ?? "";
    }
  }
  return "";
}

function normalizeSpace(s: string): string {
  return s.replace(/[ \t\r\n]+/g, " ").trim();
}
