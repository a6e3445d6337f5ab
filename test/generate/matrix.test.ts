// Every standard and profile of the table x realistic invoices: each output is valid under its own
// pipeline, deterministic, and parses back to the request for every field the target carries.

import { describe, expect, test } from "bun:test";
import { generateXml } from "../../src/generate/generate.ts";
import { parseDocument } from "../../src/generate/parse.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";
import { matrix, TARGETS } from "./matrix.ts";

const skip = cannotRun("generation matrix", buildMissing());

/** Removes a dotted path (`*` = every array element) from a JSON value. */
function omit(value: unknown, path: string[]): void {
  if (value === null || typeof value !== "object" || path.length === 0) return;
  const [head, ...rest] = path;
  const targets = head === "*" ? Object.values(value) : [(value as Record<string, unknown>)[head!]];
  if (rest.length === 0) {
    if (head !== "*") delete (value as Record<string, unknown>)[head!];
    return;
  }
  for (const t of targets) omit(t, rest);
}

/** Client float noise is read as the decimal meant (0.1 + 0.2 -> 0.3); compare on that footing. */
const denoise = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_k, v) => (typeof v === "number" ? Number(v.toPrecision(15)) : v));

function carried(invoice: unknown, drops: string[]): unknown {
  const copy = denoise(invoice);
  for (const d of drops) omit(copy, d.split("."));
  return copy;
}

const rows = [...matrix()];

test("the matrix covers every standard x profile the table can write", () => {
  const labels = new Set(TARGETS.map((t) => t.label));
  expect([...labels].length).toBe(22);
  console.log(`generation matrix: ${rows.length} documents over ${labels.size} targets`);
  expect(rows.length).toBeGreaterThanOrEqual(90);
});

describe.skipIf(skip)("generation matrix", () => {
  const engine = createEngine(rulesetBundle());

  test("test-mode output (marked with a comment) gets the same verdict", async () => {
    for (const { input } of rows.filter((r) => r.scenario === "domestic, one rate").slice(0, 3)) {
      const marked = generateXml(input, { livemode: false });
      const outcome = await validateDocument(engine, { bytes: marked.bytes, record: marked.record });
      expect(outcome.ok && outcome.result.valid).toBe(true);
    }
  }, 60_000);

  for (const { target, scenario, input } of rows) {
    test(`${target.label}: ${scenario}`, async () => {
      const first = generateXml(input, { livemode: true });
      const second = generateXml(structuredClone(input), { livemode: true });
      expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);

      const outcome = await validateDocument(engine, { bytes: first.bytes, record: first.record });
      if (!outcome.ok) throw new Error(outcome.message);
      const errors = outcome.result.errors.map((e) => `${e.ruleId}: ${e.message.slice(0, 160)}`);
      expect(errors).toEqual([]);
      expect(outcome.result.valid).toBe(true);

      const parsed = await parseDocument(first.bytes);
      expect(parsed.format as string).toBe(first.syntax);
      expect(carried(parsed.invoice, target.drops)).toEqual(carried(input.invoice, target.drops));
    }, 30_000);
  }
});
