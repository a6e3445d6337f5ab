import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SCENARIOS, scenarioFor, VOCABULARIES, sandboxMarkdown } from "../../src/transmission/sandbox/scenarios";
import { statusOfAnswer } from "../../src/transmission/provider";
import { normalised } from "../../src/transmission/identifiers";
import { sandboxProvider } from "../../src/transmission/sandbox/provider";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { NETWORKS } from "../../src/transmission/states";
import { duration } from "../../src/transmission/sandbox/clock";

test("docs/transmission.md holds the sandbox tables as scenarios.ts renders them", () => {
  expect(readFileSync(join(import.meta.dir, "../../docs/transmission.md"), "utf8")).toContain(sandboxMarkdown());
});

test("the scenario is the end of the identifier as compared, whatever its spelling; anything else delivers", () => {
  expect(scenarioFor(normalised({ scheme: "0060", id: "ACME.Slow" }).id).name).toBe("slow");
  expect(scenarioFor(normalised({ scheme: "0060", id: "acme-lookup-timeout" }).id).name).toBe("lookuptimeout");
  expect(scenarioFor("4000001000012").name).toBe("delivers");
  expect(new Set(SCENARIOS.map((s) => s.suffix)).size).toBe(SCENARIOS.length);
});

test("every answer of every network and plan maps to one of our statuses (the French ones through the provider's rows)", () => {
  const provider = sandboxProvider(openSqliteStorage(":memory:"), () => new Date());
  for (const network of NETWORKS) {
    const vocabulary = VOCABULARIES[network];
    expect(statusOfAnswer(provider, network, { code: vocabulary.accepted })).toBe("submitted");
    for (const plan of ["deliver", "deliver_late", "refuse", "negative", "none"] as const) {
      for (const pa of [false, true]) for (const step of vocabulary.plans(plan, pa)) expect(() => statusOfAnswer(provider, network, step)).not.toThrow();
    }
  }
});

test("durations for the sandbox clock", () => {
  expect([duration("90m"), duration("2h"), duration("15d"), duration("1d12h"), duration("30s")]).toEqual([5_400_000, 7_200_000, 1_296_000_000, 129_600_000, 30_000]);
  for (const bad of ["", "9x", "1.5h", "h", "2h junk"]) expect(duration(bad)).toBeNull();
});
