/** Convert in-process with its target validation, as a worker runs it: a typical invoice and a 500-line one. */
import { convertDocument } from "../src/convert/convert";
import { generateXml } from "../src/generate/generate";
import { createEngine } from "../src/validation/engine";
import { validateDocument } from "../src/validation/validate";
import { rulesetBundle } from "../src/assets/bundle";
import { invoiceWithLines } from "./generate";

export interface ConvertFigure {
  lines: number;
  p50ms: number;
  p95ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** XRechnung CII to UBL (read, write, read back, XSD and both rule files); `runs` after a warm-up. */
export async function convertTimings(runs = 40): Promise<ConvertFigure[]> {
  const engine = createEngine(rulesetBundle());
  const judge = (request: Parameters<typeof validateDocument>[1]) => validateDocument(engine, request);
  const figures: ConvertFigure[] = [];
  for (const lines of [2, 500]) {
    const bytes = generateXml({ standard: "xrechnung", syntax: "cii", invoice: invoiceWithLines(lines) }, { livemode: true }).bytes;
    const once = () => convertDocument({ bytes, query: { targetFormat: "ubl" }, livemode: true, judge: { ruleset: undefined }, now: new Date() }, { judge });
    for (let i = 0; i < 5; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < (lines > 100 ? runs / 4 : runs); i++) {
      const start = performance.now();
      await once();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    figures.push({ lines, p50ms: percentile(times, 50), p95ms: percentile(times, 95) });
  }
  return figures;
}
