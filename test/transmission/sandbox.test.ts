import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCENARIOS, scenarioFor, VOCABULARIES, sandboxMarkdown } from "../../src/transmission/sandbox/scenarios";
import { statusOfAnswer } from "../../src/transmission/provider";
import { normalised } from "../../src/transmission/identifiers";
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

test("every answer of every network and plan maps to one of our statuses (states.ts NETWORK_CODES)", () => {
  for (const network of NETWORKS) {
    const vocabulary = VOCABULARIES[network];
    expect(statusOfAnswer(network, { code: vocabulary.accepted })).toBe("submitted");
    for (const plan of ["deliver", "deliver_late", "refuse", "negative", "none"] as const) {
      for (const pa of [false, true]) for (const step of vocabulary.plans(plan, pa)) expect(() => statusOfAnswer(network, step)).not.toThrow();
    }
  }
});

test("durations for the sandbox clock", () => {
  expect([duration("90m"), duration("2h"), duration("15d"), duration("1d12h"), duration("30s")]).toEqual([5_400_000, 7_200_000, 1_296_000_000, 129_600_000, 30_000]);
  for (const bad of ["", "9x", "1.5h", "h", "2h junk"]) expect(duration(bad)).toBeNull();
});

test("einvoice sandbox advance and clock move and show an organization's sandbox clock", () => {
  const db = join(mkdtempSync(join(tmpdir(), "sandbox-cli-")), "e.db");
  const run = (...args: string[]) => Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), ...args, "--db", db]);
  expect(run("orgs", "create", "--name", "acme").exitCode).toBe(0);
  expect(run("sandbox", "advance", "--org", "acme", "--by", "90m").stdout.toString()).toContain("1.5 h ahead");
  expect(run("sandbox", "advance", "--org", "acme", "--by", "1d").stdout.toString()).toContain("25.5 h ahead");
  expect(run("sandbox", "clock", "--org", "acme").stdout.toString()).toContain("25.5 h ahead");
  const bad = run("sandbox", "advance", "--org", "acme", "--by", "soon");
  expect([bad.exitCode, bad.stderr.toString()]).toEqual([2, expect.stringContaining("--by DURATION")]);
});
