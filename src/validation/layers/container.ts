// The container layer of a hybrid PDF: the BR-HYBRID rules, judged on what extraction read from the
// PDF and on the record of the profile the embedded XML declares. It judges the PDF, not the XML, so
// it runs even when the XML could not be read.

import { hybridFindings } from "../hybrid-rules";
import type { Layer } from "./layer";
import type { JudgeState } from "./state";

export const containerLayer: Layer<Pick<JudgeState, "extraction" | "detection">> = {
  kind: "container",
  name: "BR-HYBRID",
  run(s) {
    if (!s.extraction) return { status: "skipped", reason: "the body is XML, not a hybrid PDF" };
    return { status: "ran", findings: hybridFindings(s.extraction, s.detection.record) };
  },
};
