import { describe, expect, test } from "bun:test";
import { RulesetLifecycle, type VersionFacts } from "../../src/rulesets/lifecycle";
import { checkPins, resolveArtifact, rulesetRequest, selectionReport } from "../../src/rulesets/selection";
import { DomainError } from "../../src/errors/domain-error";

/** The refusal `run` throws, for its status and code. */
function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const pinned = new RulesetLifecycle();

describe("lifecycle of the pinned versions", () => {
  test("a superseded version is retained 12 months after its successor starts serving", () => {
    expect(pinned.find("en16931_ubl_schematron", "1.3.15")).toMatchObject({ servingFrom: "2025-10-20", retainedUntil: "2027-04-10" });
    expect(pinned.find("en16931_ubl_schematron", "1.3.16")).toMatchObject({ servingFrom: "2026-04-10", retainedUntil: null });
    // Month-only release dates serve from the first of the month; the authority's mandatory date is kept.
    expect(pinned.find("peppol_bis_schematron", "3.0.18")).toMatchObject({ servingFrom: "2024-11-01", retainedUntil: "2026-05-21", supersededMandatoryOn: "2025-08-25" });
  });

  test("previous reaches the retained version only before the successor's mandatory date and its retainedUntil", () => {
    expect(pinned.previous("peppol_bis_schematron", "2025-08-24")?.version).toBe("3.0.18");
    expect(pinned.previous("peppol_bis_schematron", "2025-08-25")).toBeUndefined();
    expect(pinned.previous("xrechnung_schematron", "2026-11-22")?.version).toBe("2.4.0");
    expect(pinned.previous("xrechnung_schematron", "2027-01-31")?.version).toBe("2.4.0");
    expect(pinned.previous("xrechnung_schematron", "2027-02-01")).toBeUndefined();
    // Before the successor served, there was nothing previous to reach.
    expect(pinned.previous("xrechnung_schematron", "2025-12-01")).toBeUndefined();
    expect(pinned.latest("xrechnung_schematron", "2025-12-01").version).toBe("2.4.0");
  });

  test("an exact pin resolves until retainedUntil, even after the mandatory date", () => {
    const old = pinned.find("peppol_bis_schematron", "3.0.18")!;
    expect(pinned.pinReachable(old, "2026-05-21")).toBe(true);
    expect(pinned.pinReachable(old, "2026-05-22")).toBe(false);
  });
});

describe("Service-Ruleset", () => {
  test("parses channels and pins; anything else is malformed", () => {
    expect(rulesetRequest("previous", "latest")).toMatchObject({ channel: "previous", channelSelected: true, headerSent: true });
    expect(rulesetRequest(null, "previous")).toMatchObject({ channel: "previous", channelSelected: true, headerSent: false });
    expect(rulesetRequest(null, "latest")).toMatchObject({ channel: "latest", channelSelected: false });
    expect(rulesetRequest("en16931_ubl_schematron:1.3.15, xrechnung_schematron:2.4.0", "latest").pins).toEqual({
      en16931_ubl_schematron: "1.3.15",
      xrechnung_schematron: "2.4.0",
    });
    for (const bad of ["", "oldest", "en16931_ubl_schematron", "en16931_ubl_schematron:", "a:1,a:2", "Key:1"]) {
      expect(refusal(() => rulesetRequest(bad, "latest"))).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    }
  });

  test("the header overrides the organization default", () => {
    expect(rulesetRequest("latest", "previous")).toMatchObject({ channel: "latest", channelSelected: true });
  });

  test("a pin past retainedUntil or of an unknown version is not served", () => {
    expect(refusal(() => checkPins(pinned, rulesetRequest("peppol_bis_schematron:3.0.18", "latest"), "2026-11-22"))).toMatchObject({ status: 422, code: "VALIDATION_ERROR" });
    expect(() => checkPins(pinned, rulesetRequest("peppol_bis_schematron:9.9.9", "latest"), "2026-11-22")).toThrow(/not a pinned/);
    expect(() => checkPins(pinned, rulesetRequest("peppol_bis_schematron:3.0.18", "latest"), "2026-05-01")).not.toThrow();
  });

  test("previous can mix a retained artifact with one that fell back, and says so", () => {
    const request = rulesetRequest("previous", "latest");
    const day = "2026-11-22";
    const resolved = ["en16931_ubl_schematron", "peppol_bis_schematron", "ubl_xsd"].map((key) => resolveArtifact(pinned, key, request, day));
    expect(resolved.map((r) => [r.version, r.via, r.fellBack])).toEqual([
      ["1.3.15", "previous", false],
      ["3.0.19", "latest", true],
      ["2.1", "latest", false],
    ]);
    expect(selectionReport(request, resolved)).toEqual({
      fields: { rulesetChannel: "previous", rulesetFellBack: true, rulesetSunsetsOn: "2027-04-10" },
      resolvedHeader: "previous",
    });
  });

  test("previous with nothing retained falls back wholly and resolves to latest", () => {
    const request = rulesetRequest("previous", "latest");
    const resolved = [resolveArtifact(pinned, "fatturapa_xsd", request, "2026-11-22")];
    expect(selectionReport(request, resolved)).toEqual({ fields: { rulesetChannel: "previous", rulesetFellBack: true }, resolvedHeader: "latest" });
  });

  test("a pin reports its own deadline", () => {
    const request = rulesetRequest("xrechnung_schematron:2.4.0", "latest");
    const resolved = [resolveArtifact(pinned, "xrechnung_schematron", request, "2026-11-22"), resolveArtifact(pinned, "en16931_ubl_schematron", request, "2026-11-22")];
    expect(resolved.map((r) => r.version)).toEqual(["2.4.0", "1.3.16"]);
    expect(selectionReport(request, resolved)).toEqual({ fields: { rulesetSunsetsOn: "2027-01-31" }, resolvedHeader: "previous" });
  });
});

describe("scheduled changes", () => {
  const facts: VersionFacts[] = [
    { key: "demo_rules", version: "1.0", releaseDate: "2025-01-10", supersededMandatoryOn: "2027-03-01" },
    { key: "demo_rules", version: "2.0", releaseDate: "2026-10-01", servingFrom: "2027-01-15", noticePublishedOn: "2026-11-01", supersededMandatoryOn: null, formats: ["ubl"] },
  ];
  const demo = new RulesetLifecycle(facts);

  test("a breaking bump is announced from its notice date until it takes effect, while latest keeps the outgoing version", () => {
    expect(demo.scheduled("2026-10-31")).toEqual([]);
    expect(demo.scheduled("2026-11-22").map(({ from, to }) => [from.version, to.version, to.servingFrom])).toEqual([["1.0", "2.0", "2027-01-15"]]);
    expect(demo.latest("demo_rules", "2027-01-14").version).toBe("1.0");
    expect(demo.previous("demo_rules", "2027-01-14")).toBeUndefined();
  });

  test("on the effective date the new version is latest and the old one is reachable through previous", () => {
    expect(demo.scheduled("2027-01-15")).toEqual([]);
    expect(demo.latest("demo_rules", "2027-01-15").version).toBe("2.0");
    expect(demo.previous("demo_rules", "2027-01-15")?.version).toBe("1.0");
    expect(demo.previous("demo_rules", "2027-03-01")).toBeUndefined();
    expect(demo.find("demo_rules", "1.0")!.retainedUntil).toBe("2028-01-15");
  });

  test("a non-breaking bump rolls into latest and keeps no previous", () => {
    const safe = new RulesetLifecycle([
      { key: "k", version: "1", releaseDate: "2025-01-01", supersededMandatoryOn: null },
      { key: "k", version: "1.1", releaseDate: "2025-06-01", supersededMandatoryOn: null, breaking: false },
    ]);
    expect(safe.latest("k", "2025-07-01").version).toBe("1.1");
    expect(safe.previous("k", "2025-07-01")).toBeUndefined();
  });
});
