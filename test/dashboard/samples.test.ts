// The playground offers a sample invoice for every standard and profile: each must generate, as
// XML and as PDF, and pass its own validation.

import { describe, expect, test } from "bun:test";
import { startValidatingHarness } from "../support/harness";
import { buildMissing, cannotRun } from "../support/requirements";
import { playgroundCatalogue } from "../../src/dashboard/samples";
import { STANDARDS } from "../../src/profiles/ids";

describe.skipIf(cannotRun("the playground's samples", buildMissing()))("the playground's samples", () => {
  const h = startValidatingHarness();

  test("cover every standard, and each generates valid XML and PDF under its profile", async () => {
    const catalogue = playgroundCatalogue();
    expect(catalogue.map((s) => s.standard)).toEqual([...STANDARDS]);
    // A live key on the largest plan: its burst allowance holds every sample at once.
    const key = await h.key(await h.org("samples", "scale"), "live");
    for (const { standard, profiles } of catalogue) {
      for (const { profile, invoice } of profiles) {
        for (const output of ["xml", "pdf"]) {
          const body = { standard, profile, output, invoice, ...(output === "pdf" && { template: "standard" }) };
          const res = await h.post("/v1/generate", JSON.stringify(body), { authorization: `Bearer ${key}`, "content-type": "application/json" });
          expect([standard, profile, output, res.status]).toEqual([standard, profile, output, 200]);
          expect(res.headers.get("x-validation")).toStartWith("pass");
        }
      }
    }
  }, 120_000);
});
