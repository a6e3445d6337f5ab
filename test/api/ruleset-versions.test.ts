import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { envelope, startHarness, startValidatingHarness } from "../support/harness";
import { CORPUS_DIR, corpusMissing, mirrorMissing, RULESETS_DIR } from "../support/corpus";
import { rulesetSha256 } from "../../src/rulesets/seal";
import { setRulesetChannel } from "../../src/accounts/orgs";
import { RulesetLifecycle } from "../../src/rulesets/lifecycle";
import { versions } from "../../src/rulesets/pins";
import { runDriftCheck } from "../../src/rulesets/drift";
import { pinReader } from "../../src/rulesets/sync";
import { cannotRun } from "../support/requirements";

const h = startValidatingHarness({ now: new Date("2026-11-22T10:00:00Z") });
const org = await h.org("versions", "scale");
const key = await h.key(org, "live");

const XRECHNUNG_UBL = "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml";
const PEPPOL = "peppol-bis3/rules/examples/Allowance-example.xml";
const corpus = (path: string) => readFileSync(CORPUS_DIR + path);
const validate = (path: string, ruleset?: string) =>
  h.post("/v1/validate", corpus(path), { authorization: `Bearer ${key}`, "content-type": "application/xml", ...(ruleset !== undefined ? { "service-ruleset": ruleset } : {}) });
const versionsOf = (data: { rulesetArtifacts: { key: string; version: string }[] }) => Object.fromEntries(data.rulesetArtifacts.map((r) => [r.key, r.version]));
const catalogueArtifacts = async () => (await envelope(await fetch(h.base + "/v1/rulesets"))).data.artifacts;

async function expectSealVerifies(data: { rulesetSha256: string; rulesetArtifacts: object[] }) {
  expect(rulesetSha256(data.rulesetArtifacts as never)).toBe(data.rulesetSha256);
  const artifacts = await catalogueArtifacts();
  for (const { key, version, fileSha256 } of data.rulesetArtifacts as { key: string; version: string; fileSha256: string }[]) expect(artifacts).toContainEqual({ key, version, fileSha256 });
}

describe.skipIf(cannotRun("channels and pins over HTTP", corpusMissing ?? mirrorMissing))("channels and pins over HTTP", () => {
  test("latest and previous judge the same document with two different version sets, each seal verifiable", async () => {
    const latest = await validate(XRECHNUNG_UBL, "latest");
    const previous = await validate(XRECHNUNG_UBL, "previous");
    const a = (await envelope(latest)).data;
    const b = (await envelope(previous)).data;
    // One KoSIT configuration is pinned, so both channels apply its levels.
    expect(versionsOf(a)).toEqual({ ubl_xsd: "2.1", xrechnung_severity_overrides: "2026-01-31", en16931_ubl_schematron: "1.3.16", xrechnung_schematron: "2.5.0" });
    expect(versionsOf(b)).toEqual({ ubl_xsd: "2.1", xrechnung_severity_overrides: "2026-01-31", en16931_ubl_schematron: "1.3.15", xrechnung_schematron: "2.4.0" });
    expect(a).toMatchObject({ valid: true, rulesetChannel: "latest", rulesetFellBack: false });
    expect(a.rulesetSunsetsOn).toBeUndefined();
    expect(b).toMatchObject({ valid: true, rulesetChannel: "previous", rulesetFellBack: false, rulesetSunsetsOn: "2027-01-31", schematronVersion: "1.3.15", ciusVersion: "2.4.0" });
    expect(latest.headers.get("service-ruleset-resolved")).toBe("latest");
    expect(previous.headers.get("service-ruleset-resolved")).toBe("previous");
    expect(a.rulesetSha256).not.toBe(b.rulesetSha256);
    await expectSealVerifies(a);
    await expectSealVerifies(b);
  }, 60_000);

  test("over corpus documents of every family with a retained release, latest and previous seal different, verifiable version sets", async () => {
    const documents = [
      "xrechnung-testsuite/src/test/business-cases/standard/01.02a-INVOICE_uncefact.xml",
      "en16931-cen/ubl/examples/ubl-tc434-example1.xml",
      "en16931-cen/cii/examples/CII_business_example_01.xml",
      "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml",
    ];
    const artifacts = await catalogueArtifacts();
    for (const path of documents) {
      const [latest, previous] = [(await envelope(await validate(path, "latest"))).data, (await envelope(await validate(path, "previous"))).data];
      expect(latest.rulesetSha256).not.toBe(previous.rulesetSha256);
      expect(previous.rulesetFellBack).toBe(false);
      for (const result of [latest, previous]) {
        expect(rulesetSha256(result.rulesetArtifacts)).toBe(result.rulesetSha256);
        for (const { key, version, fileSha256 } of result.rulesetArtifacts) expect(artifacts).toContainEqual({ key, version, fileSha256 });
      }
      const versions = (r: typeof latest) => r.rulesetArtifacts.filter((a: { key: string }) => a.key.startsWith("en16931")).map((a: { version: string }) => a.version);
      expect(versions(latest)).toEqual(["1.3.16"]);
      expect(versions(previous)).toEqual(["1.3.15"]);
    }
  }, 120_000);

  test("previous falls back per artifact when the successor is mandatory, and can mix with a retained one", async () => {
    // Peppol 3.0.19 became mandatory on 2025-08-25: 3.0.18 is no longer reachable through previous.
    const peppol = await validate(PEPPOL, "previous");
    const p = (await envelope(peppol)).data;
    expect(versionsOf(p).peppol_bis_schematron).toBe("3.0.19");
    expect(p).toMatchObject({ rulesetChannel: "previous", rulesetFellBack: true });
    expect(peppol.headers.get("service-ruleset-resolved")).toBe("latest");
    // On 2027-02-15 XRechnung 2.4.0 is past its retention but CEN 1.3.15 is not.
    h.clock.now = new Date("2027-02-15T10:00:00Z");
    try {
      const mixed = await validate(XRECHNUNG_UBL, "previous");
      const m = (await envelope(mixed)).data;
      expect(versionsOf(m)).toMatchObject({ en16931_ubl_schematron: "1.3.15", xrechnung_schematron: "2.5.0" });
      expect(m).toMatchObject({ rulesetFellBack: true, rulesetSunsetsOn: "2027-04-10" });
      expect(mixed.headers.get("service-ruleset-resolved")).toBe("previous");
    } finally {
      h.clock.now = new Date("2026-11-22T10:00:00Z");
    }
  }, 60_000);

  test("before the successor's mandatory date previous still reaches the retained Peppol rules", async () => {
    h.clock.now = new Date("2025-08-20T10:00:00Z");
    try {
      const res = await validate(PEPPOL, "previous");
      const data = (await envelope(res)).data;
      expect(versionsOf(data).peppol_bis_schematron).toBe("3.0.18");
      expect(data).toMatchObject({ rulesetFellBack: false, rulesetSunsetsOn: "2025-08-24", peppolVersion: "3.0.18" });
      await expectSealVerifies(data);
    } finally {
      h.clock.now = new Date("2026-11-22T10:00:00Z");
    }
  }, 60_000);

  test("an exact pin reproduces a verdict until retainedUntil, then is a 422; a malformed value is a 400", async () => {
    const pinned = await validate(XRECHNUNG_UBL, "xrechnung_schematron:2.4.0");
    const data = (await envelope(pinned)).data;
    expect(versionsOf(data)).toMatchObject({ en16931_ubl_schematron: "1.3.16", xrechnung_schematron: "2.4.0" });
    expect(data.rulesetSunsetsOn).toBe("2027-01-31");
    expect(data.rulesetChannel).toBeUndefined();
    expect(pinned.headers.get("service-ruleset-resolved")).toBe("previous");
    h.clock.now = new Date("2027-02-01T10:00:00Z");
    try {
      const gone = await validate(XRECHNUNG_UBL, "xrechnung_schematron:2.4.0");
      expect(gone.status).toBe(422);
      const { error } = await envelope(gone);
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.message).toContain("2027-01-31");
    } finally {
      h.clock.now = new Date("2026-11-22T10:00:00Z");
    }
    const malformed = await validate(XRECHNUNG_UBL, "xrechnung 2.4.0");
    expect(malformed.status).toBe(400);
    expect((await envelope(malformed)).error.code).toBe("VALIDATION_ERROR");
  }, 60_000);

  test("the organization default applies without a header; the header wins over it", async () => {
    const other = await h.org("prefers-previous", "scale");
    const otherKey = await h.key(other, "live");
    await setRulesetChannel(h.storage, other, "previous");
    expect((await envelope(await h.get("/v1/me", otherKey))).data.org.rulesetChannel).toBe("previous");
    const post = (header?: string) =>
      h.post("/v1/validate", corpus(XRECHNUNG_UBL), { authorization: `Bearer ${otherKey}`, "content-type": "application/xml", ...(header ? { "service-ruleset": header } : {}) });
    const byDefault = await post();
    const d = (await envelope(byDefault)).data;
    expect(d.rulesetChannel).toBe("previous");
    expect(versionsOf(d).xrechnung_schematron).toBe("2.4.0");
    expect(byDefault.headers.get("service-ruleset-resolved")).toBeNull();
    const overridden = (await envelope(await post("latest"))).data;
    expect(overridden.rulesetChannel).toBe("latest");
    expect(versionsOf(overridden).xrechnung_schematron).toBe("2.5.0");
  }, 60_000);

  test("driftCheckedAt appears only when every file that judged matched on its newest check", async () => {
    const before = (await envelope(await validate(XRECHNUNG_UBL))).data;
    expect(before.driftCheckedAt).toBeUndefined();
    const files = ["ubl_xsd", "xrechnung_severity_overrides", "en16931_ubl_schematron", "xrechnung_schematron"];
    const { pins } = await import("../../src/rulesets/pins");
    await runDriftCheck(h.storage, () => new Date("2026-11-22T02:00:00Z"), pinReader(RULESETS_DIR), pins.filter((p) => files.includes(p.key)));
    // The drift state is re-read at most once a minute.
    h.clock.advance(61_000);
    const after = (await envelope(await validate(XRECHNUNG_UBL))).data;
    expect(after.driftCheckedAt).toBe("2026-11-22T02:00:00.000Z");
    expect(Object.keys(after).indexOf("driftCheckedAt")).toBe(Object.keys(after).indexOf("rulesetArtifacts") + 1);
    // A document judged by a file never checked gets none.
    const cii = (await envelope(await validate("xrechnung-testsuite/src/test/business-cases/standard/01.02a-INVOICE_uncefact.xml"))).data;
    expect(cii.driftCheckedAt).toBeUndefined();
  }, 60_000);
});

describe("scheduled changes in the catalogue", () => {
  const announced = new RulesetLifecycle([
    ...versions,
    { key: "xrechnung_schematron", version: "2.6.0", releaseDate: "2026-11-01", servingFrom: "2027-01-15", noticePublishedOn: "2026-11-10", supersededMandatoryOn: null },
  ]);
  const s = startHarness({ now: new Date("2026-11-22T10:00:00Z"), lifecycle: announced });
  afterAll(() => s.close());

  test("a breaking bump is listed from its notice to its effective date; latest keeps the outgoing version until then", async () => {
    const before = (await envelope(await fetch(s.base + "/v1/rulesets"))).data;
    expect(before.scheduledChanges).toEqual([
      { versionKey: "xrechnung_schematron", formats: ["ubl", "cii"], capabilities: [], from: "2.5.0", to: "2.6.0", effectiveOn: "2027-01-15", noticePublishedOn: "2026-11-10", retiredOn: null },
    ]);
    const row = before.rulesets.find((r: { versionKey: string }) => r.versionKey === "xrechnung_schematron");
    expect(row.rulesetVersion).toBe("2.5.0");
    expect(row.retained.map((r: { version: string }) => r.version)).toEqual(["2.4.0"]);
    s.clock.now = new Date("2027-01-15T00:00:01Z");
    const after = (await envelope(await fetch(s.base + "/v1/rulesets"))).data;
    expect(after.scheduledChanges).toEqual([]);
    const now = after.rulesets.find((r: { versionKey: string }) => r.versionKey === "xrechnung_schematron");
    expect(now.rulesetVersion).toBe("2.6.0");
    expect(now.retained.map((r: { version: string; retainedUntil: string }) => [r.version, r.retainedUntil])).toEqual([
      ["2.4.0", "2027-01-31"],
      ["2.5.0", "2028-01-15"],
    ]);
  });
});
