// The generate use case as the worker runs it, with the unit and the judge stood in for: its
// refusals come before the unit is spent, and only what the unit pays for comes after.
import { describe, expect, test } from "bun:test";
import { generateInvoice, type InvoiceOrder } from "../../src/generate/generate-invoice";
import { DomainError } from "../../src/errors/domain-error";
import { isPdf } from "../../src/pdf/sniff";
import type { ValidateOutcome, ValidateRequest } from "../../src/validation/validate";
import { LOCALES, SCENARIOS } from "../../fixtures/invoices.ts";

const invoice = SCENARIOS[0].build(LOCALES.de);
const now = new Date("2026-03-10T12:00:00Z");

/** Steps that record what the use case asked of them, in order. */
function recording(spend: () => Promise<void> = async () => {}) {
  const asked: string[] = [];
  const steps = {
    spend: () => {
      asked.push("spend");
      return spend();
    },
    judge: async (request: ValidateRequest): Promise<ValidateOutcome> => {
      asked.push(`judge ${isPdf(request.bytes) ? "pdf" : "xml"} as ${request.record}`);
      return { ok: true, result: { valid: true, format: "cii", sha256: "judged", errors: [], warnings: [] }, layers: [] };
    },
  };
  return { asked, steps };
}

const order = (request: Partial<InvoiceOrder["request"]>, rest: Partial<InvoiceOrder> = {}): InvoiceOrder => ({
  request: { standard: "xrechnung", invoice, ...request },
  livemode: true,
  judge: { ruleset: undefined },
  ...rest,
});

const refusal = (p: Promise<unknown>) => p.then(() => undefined, (error: Error) => error);

describe("refusals cost nothing: they come before the unit", () => {
  test("a PDF the standard cannot give without a template", async () => {
    const { asked, steps } = recording();
    const error = await refusal(generateInvoice(order({}, { pdf: { now } }), steps));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(asked).toEqual([]);
  });

  test("a stored template that no longer fits, before the PDF kind it would also break", async () => {
    const { asked, steps } = recording();
    const stored = { ref: "ABC-DEF", checked: { ok: false as const, problems: ["/accentColor must be string"] } };
    const error = await refusal(generateInvoice(order({}, { pdf: { stored, now } }), steps));
    expect(error).toMatchObject({ status: 422, code: "PDF_TEMPLATE_INVALID", message: "the stored PDF template ABC-DEF cannot be used: /accentColor must be string", details: { problems: ["/accentColor must be string"] } });
    expect(asked).toEqual([]);
  });

  test("an invoice the profile refuses", async () => {
    const { asked, steps } = recording();
    expect(await refusal(generateInvoice(order({ profile: "peppol" }), steps))).toMatchObject({ code: "PROFILE_STANDARD_MISMATCH" });
    expect(asked).toEqual([]);
  });
});

describe("the unit pays for the rest", () => {
  test("a hybrid PDF: the unit once, then the file judged whole under the record that wrote it", async () => {
    const { asked, steps } = recording();
    const made = await generateInvoice(order({ standard: "zugferd" }, { pdf: { now } }), steps);
    expect(made.pdfKind).toBe("hybrid");
    expect(isPdf(made.file)).toBe(true);
    expect(asked).toEqual(["spend", `judge pdf as ${made.generated.record}`]);
    expect(made.result).toMatchObject({ valid: true, verified: true });
  });

  test("verify: false spends the unit and judges nothing; the result says so", async () => {
    const { asked, steps } = recording();
    const made = await generateInvoice(order({}, { judge: undefined }), steps);
    expect(asked).toEqual(["spend"]);
    expect(made.result).toMatchObject({ valid: false, verified: false, errors: [], warnings: [] });
    expect(made.result.rulesetSha256).toBeUndefined();
  });

  test("a unit that cannot be spent ends the job there", async () => {
    const noUnit = new Error("no unit left");
    const { asked, steps } = recording(() => Promise.reject(noUnit));
    expect(await refusal(generateInvoice(order({ standard: "zugferd" }, { pdf: { now } }), steps))).toBe(noUnit);
    expect(asked).toEqual(["spend"]);
  });
});
