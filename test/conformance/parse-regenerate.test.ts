// "A parsed invoice can be edited and regenerated" (interface spec, POST /v1/parse), held over the
// whole corpus: every document of the EN 16931 family that parses answers an invoice the generate
// request schema accepts, unless a warning says which required field it cannot (src/invoice/
// generate-ready.ts); and every such document the corpus calls valid, regenerated under the
// profile that fits it, is valid again.

import { describe, expect, test } from "bun:test";
import { GenerateRequest, type GenerateRequestInput } from "../../src/generate/request.ts";
import { generateXml } from "../../src/generate/generate.ts";
import { parseDocument, type Parsed } from "../../src/generate/parse.ts";
import { checkSchema } from "../../src/api/schema-check.ts";
import { validateDocument } from "../../src/validation/validate.ts";
import { createEngine } from "../../src/validation/engine.ts";
import { rulesetBundle } from "../../src/assets/bundle.ts";
import { DomainError } from "../../src/errors/domain-error.ts";
import { corpusFile, corpusMissing, corpusRows, type CorpusRow } from "../support/corpus.ts";
import { buildMissing, cannotRun } from "../support/requirements.ts";

const skip = cannotRun("parse -> generate over the corpus", corpusMissing ?? buildMissing());

const FACTURX_LEVEL = /(minimum|basicwl|basic|extended|en16931)$/;

/**
 * The generate target that fits what parse detected: XRechnung in the syntax it came in; other UBL
 * is Peppol BIS (its Romanian and Dutch CIUS where detected), the one UBL standard besides
 * XRechnung; other CII (plain EN 16931, Factur-X at any level, ZUGFeRD) is Factur-X at the detected
 * level, EN 16931 when none is named.
 */
function targetOf(parsed: Parsed): Omit<GenerateRequestInput, "invoice"> {
  const detected = parsed.profileDetected ?? "";
  if (detected.includes("xrechnung")) return { standard: "xrechnung", syntax: parsed.format, output: "xml" };
  if (parsed.format === "ubl") {
    const profile = detected === "romania-ro-cius" || detected === "netherlands-nlcius" ? detected : "peppol";
    return { standard: "peppol-bis", profile, output: "xml" };
  }
  const level = FACTURX_LEVEL.exec(detected)?.[1] as GenerateRequestInput["profile"] | undefined;
  return { standard: "facturx", profile: level ?? "en16931", output: "xml" };
}

interface Case {
  row: CorpusRow;
  parsed: Parsed;
  request: GenerateRequestInput;
}

/** Documents parse refused because they leave a term every invoice states empty (src/generate/parse.ts). */
const unstated: { path: string; fields: string[] }[] = [];

async function parsedCorpus(): Promise<Case[]> {
  const cases: Case[] = [];
  for (const row of corpusRows()) {
    const bytes = corpusFile(row);
    if (!bytes) throw new Error(`corpus file missing: ${row.path}`);
    let parsed: Parsed;
    try {
      parsed = await parseDocument(bytes);
    } catch (error) {
      // Refusing a document (PARSE_FAILED) is parse's answer for what it cannot read; only its answers are held here.
      if (!(error instanceof DomainError)) throw error;
      const fields = error.details?.fields as { path: string }[] | undefined;
      if (fields) unstated.push({ path: row.path, fields: fields.map((f) => f.path) });
      continue;
    }
    cases.push({ row, parsed, request: { ...targetOf(parsed), invoice: parsed.invoice } });
  }
  return cases;
}

const kept = (c: Case) => c.parsed.warnings.filter((w) => w.action === "kept");
const omittedLines = (c: Case) => c.parsed.warnings.filter((w) => w.action === "omitted" && /^\/lines\/\d+$/.test(w.path));

describe.skipIf(skip)("parse output is generate input", () => {
  let cases: Case[] = [];

  test("every parsed invoice passes the generate request schema, or a kept warning names each field that does not", async () => {
    cases = await parsedCorpus();
    let schemaPass = 0;
    for (const c of cases) {
      let refused: string[] = [];
      try {
        checkSchema(GenerateRequest, c.request, "body");
        schemaPass++;
      } catch (error) {
        const fields = ((error as DomainError).details?.fields ?? []) as { path: string }[];
        refused = fields.map((f) => f.path.replace(/^\/invoice/, ""));
      }
      const named = new Set(kept(c).map((w) => w.path));
      // A kept warning is the only way an invoice generate refuses may leave parse.
      expect({ path: c.row.path, unnamed: refused.filter((p) => !named.has(p)) }).toEqual({ path: c.row.path, unnamed: [] });
      expect({ path: c.row.path, schemaPass: refused.length === 0 }).toEqual({ path: c.row.path, schemaPass: kept(c).length === 0 });
    }
    const warnings = cases.reduce((n, c) => n + c.parsed.warnings.length, 0);
    const keptDocs = cases.filter((c) => kept(c).length > 0);
    const linesLeftOut = cases.filter((c) => omittedLines(c).length > 0);
    console.log(
      `parse -> generate schema: ${cases.length} documents parsed, ${schemaPass} pass the generate schema, ` +
        `${keptDocs.length} have no line the API invoice can carry; ${warnings} warnings; ` +
        `${linesLeftOut.length} documents lose ${linesLeftOut.reduce((n, c) => n + omittedLines(c).length, 0)} lines (negative quantities); ` +
        `${unstated.length} refused for an empty term every invoice states`,
    );
    for (const c of keptDocs) console.log(`  no line: ${c.row.path}${omittedLines(c).length ? ` (all ${omittedLines(c).length} left out)` : ""}`);
    for (const u of unstated) console.log(`  refused: ${u.path}: ${u.fields.join(", ")}`);
    // Only what Factur-X MINIMUM and BASIC WL do not carry (lines, the buyer's address) may stay
    // unfilled, or lines when every line was left out; any other required term is refused.
    for (const c of keptDocs) {
      const minimal = /facturx:(minimum|basicwl)$/.test(c.row.profile) || omittedLines(c).length > 0;
      expect({ path: c.row.path, minimal, kept: kept(c).every((w) => ["/lines", "/buyer/address/countryCode"].includes(w.path)) }).toEqual({ path: c.row.path, minimal: true, kept: true });
    }
    for (const u of unstated) expect({ path: u.path, lines: u.fields.includes("/lines") }).toEqual({ path: u.path, lines: false });
    expect(cases.length).toBeGreaterThan(500);
  }, 300_000);

  test("every parsed invoice the corpus calls valid, regenerated under its profile, is valid", async () => {
    const engine = createEngine(rulesetBundle());
    const valid = cases.filter((c) => c.row.expectedValid === true);
    const failures: { path: string; why: string }[] = [];
    let regenerated = 0;
    // The corpus's verdicts are its sources' own; some sources break rules published since, which no regeneration mends.
    const sourceInvalid = new Set<string>();
    for (const c of valid) {
      const source = await validateDocument(engine, { bytes: corpusFile(c.row)! });
      if (!source.ok || !source.result.valid) sourceInvalid.add(c.row.path);
    }
    for (const c of valid) {
      const fail = (why: string) => failures.push({ path: c.row.path, why });
      if (kept(c).length > 0) {
        fail(`not generate input (${kept(c).map((w) => w.path).join(", ")})`);
        continue;
      }
      if (omittedLines(c).length > 0) {
        fail(`lines left out by parse (${omittedLines(c).map((w) => w.path).join(", ")}), so the totals no longer add up`);
        continue;
      }
      const target = `${c.request.standard}/${c.request.profile ?? c.request.syntax}`;
      try {
        const out = generateXml(c.request, { livemode: true });
        const outcome = await validateDocument(engine, { bytes: out.bytes, record: out.record });
        if (!outcome.ok) throw new Error(outcome.message);
        if (outcome.result.valid) regenerated++;
        else fail(`as ${target}: ${outcome.result.errors.map((e) => e.ruleId).join(", ")}`);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        fail(`as ${target}: ${error.code} ${error.message}`);
      }
    }
    const mendable = failures.filter((f) => !sourceInvalid.has(f.path));
    console.log(
      `parse -> generate -> validate: ${valid.length} documents the corpus calls valid (${valid.length - sourceInvalid.size} of them valid under our own rules), ` +
        `${regenerated} valid again; ${mendable.length} not valid again although their source is`,
    );
    for (const f of failures) console.log(`  not valid again${sourceInvalid.has(f.path) ? " (source invalid too)" : ""}: ${f.path} ${f.why}`);
    expect(regenerated + failures.length).toBe(valid.length);
    // A floor, not a target: the documents listed above fail for what the API invoice cannot carry (docs/generate.md).
    expect(regenerated).toBeGreaterThanOrEqual(83);
  }, 900_000);
});
