import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  billedOn,
  canTransition,
  type Direction,
  eventFor,
  INBOUND_STATUSES,
  type InboundStatus,
  isTerminal,
  NETWORK_CODES,
  NETWORKS,
  OUTBOUND_STATUSES,
  type OutboundStatus,
  statesMarkdown,
  statusForCode,
  TRANSITIONS,
} from "../../src/transmission/states.ts";

const nonTerminal = (network: (typeof NETWORKS)[number]) => OUTBOUND_STATUSES.filter((s) => !isTerminal("outbound", s, network));

describe("spec: outbound statuses", () => {
  // status, terminal (by network), event: the spec's status table and its "Events" table
  const rows: [OutboundStatus, "no" | "yes" | "ksef", string | null][] = [
    ["queued", "no", "transmission.queued"],
    ["submitting", "no", null],
    ["submitted", "no", "transmission.submitted"],
    ["cleared", "ksef", "transmission.cleared"],
    ["delivered", "yes", "transmission.delivered"],
    ["rejected", "yes", "transmission.rejected"],
    ["failed", "yes", "transmission.failed"],
  ];
  test.each(rows)("%s: terminal %s, event %s", (status, terminal, event) => {
    for (const network of NETWORKS) {
      expect(isTerminal("outbound", status, network)).toBe(terminal === "yes" || (terminal === "ksef" && network === "ksef"));
    }
    expect(eventFor("outbound", status)).toBe(event as never);
  });
  test("exactly the spec's statuses", () => expect([...OUTBOUND_STATUSES]).toEqual(rows.map((r) => r[0])));
});

describe("spec: outbound transitions", () => {
  test("(none) → queued when send or transmissions create is accepted, firing transmission.queued", () => {
    for (const network of NETWORKS) expect(canTransition("outbound", null, "queued", network)).toBe(true);
    expect(eventFor("outbound", "queued")).toBe("transmission.queued");
    for (const status of OUTBOUND_STATUSES.filter((s) => s !== "queued")) expect(canTransition("outbound", null, status, "peppol")).toBe(false);
  });

  test("any non-terminal, recipient not served or lookup unanswered → unchanged", () => {
    for (const network of NETWORKS) for (const status of nonTerminal(network)) expect(canTransition("outbound", status, status, network)).toBe(true);
    const triggers = TRANSITIONS.outbound.filter((r) => r.from === "non-terminal" && r.to === "same").map((r) => r.trigger);
    expect(triggers).toEqual(["recipient_not_served", "lookup_unanswered"]);
  });

  test("non-terminal, deadline passed with the recipient unresolved → failed", () => {
    for (const network of NETWORKS) for (const status of nonTerminal(network)) expect(canTransition("outbound", status, "failed", network)).toBe(true);
    expect(TRANSITIONS.outbound.find((r) => r.trigger === "deadline_passed")).toMatchObject({ from: "non-terminal", to: "failed", basis: "spec" });
  });

  test("submitting, attempt ends without an answer → submitting", () => {
    expect(canTransition("outbound", "submitting", "submitting", "peppol")).toBe(true);
    expect(TRANSITIONS.outbound.find((r) => r.trigger === "attempt_unanswered")).toMatchObject({ from: "submitting", to: "same", basis: "spec" });
  });

  test("delivered, or terminal cleared, is billed once; rejected and failed never; nothing else", () => {
    for (const network of NETWORKS) {
      const billed = OUTBOUND_STATUSES.filter((s) => billedOn(network, s));
      expect({ network, billed }).toEqual({ network, billed: network === "ksef" ? ["cleared", "delivered"] : ["delivered"] });
    }
  });
});

describe("spec: inbound statuses and transitions", () => {
  const rows: [InboundStatus, boolean, string | null][] = [
    ["received", false, null],
    ["validated", false, null],
    ["available", true, "transmission.received"],
    ["failed", true, "transmission.failed"],
  ];
  test.each(rows)("%s: terminal %p, event %s", (status, terminal, event) => {
    for (const network of NETWORKS) expect(isTerminal("inbound", status, network)).toBe(terminal);
    expect(eventFor("inbound", status)).toBe(event as never);
  });
  test("exactly the spec's statuses", () => expect([...INBOUND_STATUSES]).toEqual(rows.map((r) => r[0])));

  test("validated, failing verdict → available", () => {
    expect(canTransition("inbound", "validated", "available", "peppol")).toBe(true);
    expect(TRANSITIONS.inbound.find((r) => r.trigger === "verdict_failing")).toMatchObject({ from: "validated", to: "available", basis: "spec" });
  });

  test("received, validator unavailable → stays received, never failed for it", () => {
    expect(canTransition("inbound", "received", "received", "sdi")).toBe(true);
    expect(TRANSITIONS.inbound.find((r) => r.trigger === "validator_unavailable")).toMatchObject({ from: "received", to: "same", basis: "spec" });
  });
});

describe("chosen transitions", () => {
  const moves = (direction: Direction, network: (typeof NETWORKS)[number]) => {
    const statuses: readonly string[] = direction === "outbound" ? OUTBOUND_STATUSES : INBOUND_STATUSES;
    const allowed: string[] = [];
    for (const from of [null, ...statuses]) {
      for (const to of statuses) {
        if (from !== to && canTransition(direction, from as never, to as never, network)) allowed.push(`${from ?? "(new)"}→${to}`);
      }
    }
    return allowed;
  };

  test("outbound, every network but KSeF: exactly these moves", () => {
    const expected = [
      "(new)→queued",
      "queued→submitting",
      "queued→failed",
      "submitting→queued",
      "submitting→submitted",
      "submitting→rejected",
      "submitting→failed",
      "submitted→cleared",
      "submitted→delivered",
      "submitted→rejected",
      "submitted→failed",
      "cleared→delivered",
      "cleared→rejected",
      "cleared→failed",
    ];
    for (const network of NETWORKS.filter((n) => n !== "ksef")) expect({ network, moves: moves("outbound", network) }).toEqual({ network, moves: expected });
  });

  test("outbound on KSeF: cleared is terminal, so nothing leaves it", () => {
    expect(moves("outbound", "ksef")).toEqual(moves("outbound", "peppol").filter((m) => !m.startsWith("cleared")));
  });

  test("inbound: exactly these moves", () => {
    expect(moves("inbound", "peppol")).toEqual(["(new)→received", "received→validated", "received→failed", "validated→available"]);
  });

  test("no move of any kind out of a terminal status, not even to itself", () => {
    for (const network of NETWORKS) {
      for (const direction of ["outbound", "inbound"] as const) {
        const statuses: readonly string[] = direction === "outbound" ? OUTBOUND_STATUSES : INBOUND_STATUSES;
        for (const from of statuses.filter((s) => isTerminal(direction, s as never, network))) {
          for (const to of statuses) expect({ network, from, to, ok: canTransition(direction, from as never, to as never, network) }).toEqual({ network, from, to, ok: false });
        }
      }
    }
  });

  test("every row says why", () => {
    for (const row of [...TRANSITIONS.outbound, ...TRANSITIONS.inbound]) expect(row.note.length).toBeGreaterThan(20);
  });
});

describe("network answers (research §3.3)", () => {
  const expected: [(typeof NETWORKS)[number], string, "pa" | "business" | undefined, OutboundStatus | null][] = [
    ["peppol", "provider_accepted", undefined, "submitted"],
    ["peppol", "AS4_RECEIPT", undefined, "cleared"],
    ["peppol", "MLS_AP", undefined, "delivered"],
    ["peppol", "MLS_AB", undefined, "delivered"],
    ["peppol", "MLS_RE", undefined, "rejected"],
    ["peppol", "AS4_ERROR", undefined, "rejected"],
    ["sdi", "IdentificativoSdI", undefined, "submitted"],
    ["sdi", "MC", undefined, "cleared"],
    ["sdi", "RC", "business", "delivered"],
    ["sdi", "RC", "pa", "cleared"],
    ["sdi", "NE_EC01", "pa", "delivered"],
    ["sdi", "DT", "pa", "delivered"],
    ["sdi", "NS", undefined, "rejected"],
    ["sdi", "NE_EC02", "pa", "rejected"],
    ["sdi", "AT", "pa", "failed"],
    ["sdi", "EC", undefined, null],
    ["sdi", "SE", undefined, null],
    ["sdi", "MT", undefined, null],
    ["ksef", "accepted", undefined, "submitted"],
    ["ksef", "UPO", undefined, "cleared"],
    ["ksef", "refused", undefined, "rejected"],
    ["ppf_pdp", "200_DEPOSEE", undefined, "submitted"],
    ["ppf_pdp", "202_RECUE", undefined, "cleared"],
    ["ppf_pdp", "203_MISE_A_DISPOSITION", undefined, "delivered"],
    ["ppf_pdp", "210_REFUSEE", undefined, "rejected"],
    ["ppf_pdp", "213_REJETEE", undefined, "rejected"],
    ["choruspro", "DEPOSEE", undefined, "submitted"],
    ["choruspro", "MISE_A_DISPOSITION", undefined, "delivered"],
    ["choruspro", "REJETEE", undefined, "rejected"],
    ["choruspro", "A_RECYCLER", undefined, "rejected"],
  ];
  test.each(expected)("%s %s (%s) → %s", (network, code, recipient, status) => {
    expect(statusForCode(network, code, recipient)).toBe(status);
  });

  test("the table holds exactly these answers", () => {
    const key = (network: string, code: string) => `${network} ${code}`;
    expect(new Set(NETWORK_CODES.map((r) => key(r.network, r.code)))).toEqual(new Set(expected.map(([n, c]) => key(n, c))));
  });

  test("an answer the table does not know is a provider's bug, not a status", () => {
    expect(() => statusForCode("sdi", "XX")).toThrow("no mapping for sdi answer XX");
    expect(() => statusForCode("choruspro", "RC")).toThrow("no mapping for choruspro answer RC");
  });

  test("every answer's status is reachable from the status before it", () => {
    for (const row of NETWORK_CODES) {
      if (row.to === null) continue;
      const from = row.to === "submitted" ? "submitting" : "submitted";
      expect({ row: `${row.network} ${row.code}`, ok: canTransition("outbound", from, row.to, row.network) }).toEqual({ row: `${row.network} ${row.code}`, ok: true });
    }
  });
});

test("docs/transmission.md shows the tables as the code has them", () => {
  const doc = readFileSync(join(import.meta.dir, "../../docs/transmission.md"), "utf8");
  expect(doc).toContain(statesMarkdown());
});
