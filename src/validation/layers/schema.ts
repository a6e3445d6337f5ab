// The schema layer: the document read by libxml2 against its pinned XSD, then decoded by the
// reading policy for the rule engines. A document that cannot be read (refused by the policy, or not
// well-formed) stops here: every later layer is skipped and the verdict carries no seal, since no
// rule file judged it.

import { decodeXml } from "../../syntax/decode";
import { XmlRefused } from "../../syntax/xml-refused";
import { XSD_SCHEMAS } from "../../profiles/schemas";
import { pinByPath } from "../../rulesets/pins";
import { resolveArtifact } from "../../rulesets/selection";
import type { ValidationFinding } from "../result";
import type { Layer } from "./layer";
import { sealRow, type JudgeState } from "./state";

const UNREADABLE = { refused: "the reading policy refused the document", malformed: "the document is not well-formed XML" } as const;

export function schemaLayer(state: JudgeState): Layer<JudgeState> {
  const pin = pinByPath(XSD_SCHEMAS[state.schema]);
  if (!pin) throw new Error(`schema ${XSD_SCHEMAS[state.schema]} is not pinned`);
  return {
    kind: "xsd",
    name: state.schema,
    key: pin.key,
    run(s) {
      const xsd = s.xsdElsewhere ?? s.engine.xsd.validate(s.schema, s.xml);
      if (xsd.status === "refused" || xsd.status === "malformed") {
        const ruleId = xsd.status === "refused" ? "XML_REFUSED" : "XML_MALFORMED";
        s.unreadable = UNREADABLE[xsd.status];
        return { status: "stopped", reason: s.unreadable, engine: "libxml2-wasm", findings: xsd.findings.map((f) => ({ ruleId, severity: "fatal", message: f.message, ...(f.location ? { location: f.location } : {}) })) };
      }
      // Each schema key has one pinned version, so its resolution only reports how it was reached.
      s.resolved.push(resolveArtifact(s.ruleset.lifecycle, pin.key, s.ruleset.request, s.ruleset.day));
      const row = sealRow(s, pin, "libxml2-wasm");
      const findings: ValidationFinding[] = xsd.findings.map((f) => ({ ruleId: "XSD", severity: "error", ...(f.location ? { location: f.location } : {}), message: f.message }));
      const omitted = xsd.omitted ? [{ ruleId: "XSD", severity: "error" as const, count: xsd.omitted }] : [];
      if (!s.judge.rules.length) return { status: "ran", row, engine: "libxml2-wasm", findings, omitted };
      try {
        // libxml2 has read the markup and characters by now; the policy's decoding is what can still
        // refuse (an encoding libxml2 knows and the policy does not): the caller's document, a verdict.
        s.text ||= decodeXml(s.xml);
      } catch (error) {
        if (!(error instanceof XmlRefused)) throw error;
        s.unreadable = `the rule engines cannot read the document: ${error.message}`;
        return { status: "stopped", reason: s.unreadable, row, engine: "libxml2-wasm", findings: [...findings, { ruleId: error.ruleId, severity: "fatal", message: error.message }], omitted };
      }
      return { status: "ran", row, engine: "libxml2-wasm", findings, omitted };
    },
  };
}
