// `einvoice convert` runs as a process, offline, as users run it: the converted file, the loss
// report, and the exit code are the contract.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS_DIR, corpusMissing } from "../support/corpus";
import { buildMissing, cannotRun } from "../support/requirements";

const skip = cannotRun("einvoice convert on corpus files", corpusMissing ?? buildMissing());
const SLOW = 30_000;
const dir = mkdtempSync(join(tmpdir(), "cli-convert-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const main = new URL("../../src/main.ts", import.meta.url).pathname;

function run(args: string[]) {
  const proc = Bun.spawnSync([process.execPath, main, "convert", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

const XRECHNUNG_CII = `${CORPUS_DIR}xrechnung-testsuite/src/test/business-cases/standard/01.04a-INVOICE_uncefact.xml`;
/** A buyer contact's fax number, which no EN 16931 term and no UBL place carries. */
const WITH_FAX = `${CORPUS_DIR}zugferd-corpus/ZUGFeRDv2/correct/Mustangproject/testout-ZF2PushReverseCharge.xml`;

describe.skipIf(skip)("einvoice convert", () => {
  test("usage errors exit 2", () => {
    expect(run([XRECHNUNG_CII]).code).toBe(2);
    expect(run([XRECHNUNG_CII, "--to", "fatturapa"]).err).toContain("--to must be one of");
    expect(run(["missing.xml", "--to", "ubl"]).code).toBe(2);
  });

  test("converts to --out with the loss report on stderr, exit 0", () => {
    const out = join(dir, "out.xml");
    const { code, err } = run([XRECHNUNG_CII, "--to", "ubl", "--out", out]);
    expect(code).toBe(0);
    expect(err).toContain("xrechnung -> ubl, 0 element(s) not carried");
    expect(readFileSync(out, "utf8")).toContain("urn:oasis:names:specification:ubl:schema:xsd:Invoice-2");
  }, SLOW);

  test("a loss it may not accept is refused, exit 1, each place named", () => {
    const { code, err } = run([WITH_FAX, "--to", "ubl"]);
    expect(code).toBe(1);
    expect(err).toContain("CONVERSION_LOSSY_FAILCLOSED");
    expect(err).toContain('cannot carry /rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:DefinedTradeContact/ram:FaxUniversalCommunication/ram:CompleteNumber = "0911623562"');
  }, SLOW);

  test("--json gives the whole outcome on stdout", () => {
    const { code, out } = run([XRECHNUNG_CII, "--to", "facturx", "--profile", "extended", "--json"]);
    expect(code).toBe(0);
    const outcome = JSON.parse(out);
    expect(outcome).toMatchObject({ sourceFormat: "xrechnung", targetFormat: "facturx", facturxProfile: "extended", lost: [], result: { valid: true } });
    expect(Buffer.from(outcome.output, "base64").toString()).toContain("urn:factur-x.eu:1p0:extended");
  }, SLOW);
});
