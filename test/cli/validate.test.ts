import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";
import { cannotRun } from "../support/requirements";

const noCorpus = cannotRun("einvoice validate on corpus files", corpusMissing);

// The offline CLI runs as a process, as users run it: exit codes and stdout are the contract.
// Each run loads the ruleset bundle and its stylesheets afresh, hence the generous timeouts.
const SLOW = 30_000;
const dir = mkdtempSync(join(tmpdir(), "cli-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const main = new URL("../../src/main.ts", import.meta.url).pathname;

function run(args: string[]) {
  const proc = Bun.spawnSync([process.execPath, main, "validate", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

const VALID_UBL = `${CORPUS_DIR}xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml`;
const INVALID_UBL = `${CORPUS_DIR}en16931-cen/test/CreditNote-unit-UBL/BR-02/BR-02_t02.xml`;
const HYBRID_PDF = `${CORPUS_DIR}akretion-factur-x/tests/fixtures/pdf/invoice_EN16931.pdf`;

async function plainPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const path = join(dir, "plain.pdf");
  writeFileSync(path, await doc.save());
  return path;
}

describe("einvoice validate", () => {
  test("usage errors exit 2", () => {
    expect(run([]).code).toBe(2);
    const badFormat = run(["--format", "xml", "x.xml"]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.err).toContain("--format must be one of");
  }, SLOW);

  test("a missing file exits 2 with an error entry", () => {
    const human = run(["missing.xml"]);
    expect(human.code).toBe(2);
    expect(human.out).toContain("ERROR missing.xml: cannot read missing.xml: ENOENT");
    const json = run(["missing.xml", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual([{ file: "missing.xml", error: "cannot read missing.xml: ENOENT" }]);
  }, SLOW);

  test("a PDF without invoice XML cannot be judged: exit 2", async () => {
    const pdf = await plainPdf();
    const json = run([pdf, "--json"]);
    expect(json.code).toBe(2);
    const [entry] = JSON.parse(json.out);
    expect(entry.file).toBe(pdf);
    expect(entry.error).toContain("a hybrid PDF must embed its invoice");
  }, SLOW);

  test.skipIf(noCorpus)("a valid invoice exits 0, with its profile and counts", () => {
    const human = run([VALID_UBL]);
    expect(human.code).toBe(0);
    expect(human.out.split("\n")[0]).toMatch(/^PASS \S+01\.01a-INVOICE_ubl\.xml \(xrechnung, 0 errors, \d+ warnings?\)$/);
  }, SLOW);

  test.skipIf(noCorpus)("a hybrid PDF is judged through its embedded XML", () => {
    const json = run([HYBRID_PDF, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)[0].result).toMatchObject({ valid: true, format: "cii", profileDetected: "facturx:en16931" });
  }, SLOW);

  test.skipIf(noCorpus)("any invalid file makes exit 1; JSON lists every file in order with its findings", () => {
    const json = run([VALID_UBL, INVALID_UBL, "--json"]);
    expect(json.code).toBe(1);
    const verdicts = JSON.parse(json.out);
    expect(verdicts.map((v: { file: string }) => v.file)).toEqual([VALID_UBL, INVALID_UBL]);
    expect(verdicts[0].result.valid).toBe(true);
    expect(verdicts[1].result.valid).toBe(false);
    expect(verdicts[1].result.errors.map((e: { ruleId: string }) => e.ruleId)).toContain("BR-02");
    const human = run([INVALID_UBL]);
    expect(human.code).toBe(1);
    expect(human.out).toMatch(/^FAIL \S+BR-02_t02\.xml \(ubl, \d+ errors, 0 warnings\)\n/);
    expect(human.out).toContain("\n  fatal BR-02: [BR-02]-An Invoice shall have an Invoice number (BT-1).");
  }, SLOW);

  test.skipIf(noCorpus)("a missing file among judged ones still exits 2", () => {
    expect(run([VALID_UBL, "missing.xml"]).code).toBe(2);
  });
});
