import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { driftCheckedAt, latestChecks, runDriftCheck, checkHistory } from "../../src/rulesets/drift";
import { pinReader } from "../../src/rulesets/sync";
import { pins } from "../../src/rulesets/pins";
import { mirrorMissing, RULESETS_DIR } from "../support/corpus";
import { cannotRun } from "../support/requirements";

const dir = mkdtempSync(join(tmpdir(), "drift-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(cannotRun("drift check", mirrorMissing))("drift check", () => {
  const store = openSqliteStorage(":memory:");
  const xrechnungPins = pins.filter((p) => p.key === "xrechnung_schematron" || p.key === "ubl_xsd");
  const mirror = join(dir, "mirror");
  // In a hook, not the describe body: a skipped describe still runs its body.
  beforeAll(() => {
    for (const pin of xrechnungPins) cpSync(join(RULESETS_DIR, pin.path), join(mirror, pin.path));
  });
  const altered = xrechnungPins.find((p) => p.path.endsWith("2.5.0/schematron/ubl/XRechnung-UBL-validation.xsl"))!;
  const row = (key: string, version: string) => ({ key, version, fileSha256: "x" });

  test("a clean mirror records a match for every file, and results get the oldest check time", async () => {
    let t = Date.parse("2026-11-20T02:00:00Z");
    const summary = await runDriftCheck(store, () => new Date((t += 1000)), pinReader(mirror), xrechnungPins);
    expect(summary).toMatchObject({ checked: xrechnungPins.length, matched: xrechnungPins.length, mismatched: [], failed: [] });
    const latest = await latestChecks(store);
    expect(driftCheckedAt(latest, [row("ubl_xsd", "2.1"), row("xrechnung_schematron", "2.5.0")])).toBe("2026-11-20T02:00:01.000Z");
    // An artifact never checked leaves the field out.
    expect(driftCheckedAt(latest, [row("ubl_xsd", "2.1"), row("en16931_ubl_schematron", "1.3.16")])).toBeUndefined();
  });

  test("one altered file is a mismatch: logged, kept in history, and verdicts using it lose driftCheckedAt", async () => {
    writeFileSync(join(mirror, altered.path), "<tampered/>");
    const logged: string[] = [];
    const original = console.error;
    console.error = (line: string) => logged.push(line);
    try {
      const summary = await runDriftCheck(store, () => new Date("2026-11-21T02:00:00Z"), pinReader(mirror), xrechnungPins);
      expect(summary.mismatched.map((p) => p.path)).toEqual([altered.path]);
    } finally {
      console.error = original;
    }
    expect(logged.some((l) => l.includes("ruleset-drift") && l.includes(altered.path))).toBe(true);
    const latest = await latestChecks(store);
    expect(driftCheckedAt(latest, [row("xrechnung_schematron", "2.5.0")])).toBeUndefined();
    expect(driftCheckedAt(latest, [row("xrechnung_schematron", "2.4.0")])).toBe("2026-11-21T02:00:00.000Z");
    expect((await checkHistory(store, altered.path)).map((h) => h.outcome)).toEqual(["mismatch", "match"]);
  });

  test("an unreadable source is recorded as an error, not as a match", async () => {
    const summary = await runDriftCheck(store, () => new Date("2026-11-22T02:00:00Z"), pinReader(join(dir, "nowhere")), xrechnungPins.slice(0, 1));
    expect(summary.failed).toHaveLength(1);
    expect((await latestChecks(store)).get(xrechnungPins[0].path)?.outcome).toBe("error");
  });
});
