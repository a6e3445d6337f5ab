import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { canonicalJson, type JsonValue } from "../../src/transmission/canonical-json.ts";
import { type ChainEvent, genesisHash, nextEvent, verifyChain } from "../../src/transmission/event-chain.ts";

const TXN = "txn_01JCHAIN";
const T0 = Date.parse("2026-11-26T10:00:00.000Z");

function chain(n: number, transmissionId = TXN): ChainEvent[] {
  const events: ChainEvent[] = [];
  const statuses = ["queued", "submitting", "submitted", "cleared", "delivered"];
  for (let i = 0; i < n; i++) {
    const head = events.length ? events[events.length - 1] : null;
    events.push(
      nextEvent(head, transmissionId, {
        type: `step_${i + 1}`,
        status: statuses[i % statuses.length],
        at: new Date(T0 + i * 1500),
        data: { attempt: i, note: i % 2 ? "ünïcödé ✓" : null, nested: { z: [i, "a"], a: true } },
      }),
    );
  }
  return events;
}

const head = (events: ChainEvent[]) => events[events.length - 1].hash;

describe("canonical JSON", () => {
  test("object keys sorted at every depth, arrays keep their order, no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, 2], c: "x" } })).toBe('{"a":{"c":"x","d":[3,1,2]},"b":1}');
    expect(canonicalJson([{ b: 2, a: 1 }, [], {}])).toBe('[{"a":1,"b":2},[],{}]');
  });

  test("keys sort by UTF-16 code units, whatever order they were inserted in", () => {
    expect(canonicalJson({ "é": 1, Z: 2, a: 3, "10": 4, "9": 5 })).toBe('{"10":4,"9":5,"Z":2,"a":3,"é":1}');
  });

  test("unicode kept as is; control characters escaped as JSON does", () => {
    expect(canonicalJson({ s: "Zürich ✓ 😀" })).toBe('{"s":"Zürich ✓ 😀"}');
    expect(canonicalJson("a\nb\"\\")).toBe('"a\\nb\\"\\\\"');
  });

  test("numbers and literals as JSON prints them", () => {
    expect(canonicalJson([0, -1.5, 1e21, 0.1, true, false, null])).toBe("[0,-1.5,1e+21,0.1,true,false,null]");
  });

  test("no undefined, NaN, Infinity or class instances: each names where it is", () => {
    expect(() => canonicalJson({ a: { b: undefined } } as unknown as JsonValue)).toThrow("$.a.b: undefined has no JSON form");
    expect(() => canonicalJson([1, Number.NaN])).toThrow("$[1]: NaN has no JSON form");
    expect(() => canonicalJson({ x: Infinity })).toThrow("$.x: Infinity has no JSON form");
    expect(() => canonicalJson({ d: new Date(0) } as unknown as JsonValue)).toThrow("$.d: object has no JSON form");
    expect(() => canonicalJson([1, , 3] as unknown as JsonValue)).toThrow("$[1]: undefined has no JSON form");
  });
});

describe("event chain", () => {
  test("a fixed event hashes to a fixed value (a change of canonical form or genesis fails here)", () => {
    const first = nextEvent(null, "txn_vector", {
      type: "accepted",
      status: "queued",
      at: new Date("2026-01-02T03:04:05.678Z"),
      data: { b: [2, 1], a: "é" },
    });
    const expectedJson =
      '{"at":"2026-01-02T03:04:05.678Z","data":{"a":"é","b":[2,1]},' +
      `"prevHash":"${genesisHash("txn_vector")}","seq":1,"status":"queued","transmissionId":"txn_vector","type":"accepted"}`;
    expect(first.hash).toBe(createHash("sha256").update(expectedJson).digest("hex"));
    expect(genesisHash("txn_vector")).toBe(createHash("sha256").update("einvoice.transmission-events.v1:txn_vector").digest("hex"));
    expect(genesisHash("txn_vector")).toBe("a084e4fc4b63d690b3c08d5ee99a7f170410468fde2c3d5ef98c6da5a1ce5aa1");
    expect(first.hash).toBe("995d8b27a24e163384efd6b0e94b973e565ce4146ad560985bd1657bbb2af60d");
  });

  test("seq counts from 1, each event points at the one before, seq 1 at the transmission's genesis", () => {
    const events = chain(3);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(events[0].prevHash).toBe(genesisHash(TXN));
    expect(events[1].prevHash).toBe(events[0].hash);
    expect(events[0].at).toBe("2026-11-26T10:00:00.000Z");
    expect(genesisHash(TXN)).not.toBe(genesisHash("txn_other"));
  });

  test("an untouched chain verifies, and so does an empty one with no head", () => {
    for (const n of [1, 2, 7, 40]) {
      const events = chain(n);
      expect(verifyChain(TXN, events, head(events))).toEqual({ chainOk: true });
    }
    expect(verifyChain(TXN, [], null)).toEqual({ chainOk: true });
  });

  test("editing any field of any event breaks the chain at that event", () => {
    const events = chain(5);
    const edits: Record<keyof ChainEvent, (e: ChainEvent) => ChainEvent> = {
      transmissionId: (e) => ({ ...e, transmissionId: "txn_other" }),
      seq: (e) => ({ ...e, seq: e.seq + 10 }),
      type: (e) => ({ ...e, type: `${e.type}x` }),
      status: (e) => ({ ...e, status: "delivered!" }),
      at: (e) => ({ ...e, at: e.at.replace("2026-", "2025-") }),
      data: (e) => ({ ...e, data: { ...e.data, attempt: 99 } }),
      prevHash: (e) => ({ ...e, prevHash: "0".repeat(64) }),
      hash: (e) => ({ ...e, hash: "f".repeat(64) }),
    };
    for (const [field, edit] of Object.entries(edits)) {
      for (let i = 0; i < events.length; i++) {
        const edited = events.map((e, j) => (j === i ? edit(e) : e));
        const verdict = verifyChain(TXN, edited, head(events));
        expect({ field, i, verdict: { chainOk: verdict.chainOk, brokenAt: "brokenAt" in verdict ? verdict.brokenAt : 0 } }).toEqual({
          field,
          i,
          verdict: { chainOk: false, brokenAt: i + 1 },
        });
      }
    }
  });

  test("a nested edit inside data is caught, and a re-hashed edit breaks the next link", () => {
    const events = chain(4);
    const nested = events.map((e, j) => (j === 1 ? { ...e, data: { ...e.data, nested: { z: [1, "b"], a: true } } } : e));
    expect(verifyChain(TXN, nested, head(events))).toEqual({ chainOk: false, brokenAt: 2, reason: "hash" });
    const forged = nextEvent(events[0], TXN, { type: "forged", status: "delivered", at: new Date(T0), data: {} });
    expect(verifyChain(TXN, [events[0], forged, events[2], events[3]], head(events))).toEqual({ chainOk: false, brokenAt: 3, reason: "prev_hash" });
  });

  test("a removed middle event is found where it is missing", () => {
    const events = chain(6);
    expect(verifyChain(TXN, [...events.slice(0, 2), ...events.slice(3)], head(events))).toEqual({ chainOk: false, brokenAt: 3, reason: "seq" });
  });

  test("two events swapped are found at the first of them", () => {
    const events = chain(6);
    const swapped = [...events];
    [swapped[1], swapped[4]] = [swapped[4], swapped[1]];
    expect(verifyChain(TXN, swapped, head(events))).toEqual({ chainOk: false, brokenAt: 2, reason: "seq" });
  });

  test("swapped seq numbers too (a storage that re-sorts) still break a link", () => {
    const events = chain(4);
    const renumbered = [events[0], { ...events[2], seq: 2 }, { ...events[1], seq: 3 }, events[3]];
    expect(verifyChain(TXN, renumbered, head(events))).toEqual({ chainOk: false, brokenAt: 2, reason: "prev_hash" });
  });

  test("a dropped tail is found against the head the transmission keeps", () => {
    const events = chain(6);
    expect(verifyChain(TXN, events.slice(0, 4), head(events))).toEqual({ chainOk: false, brokenAt: 5, reason: "truncated" });
    expect(verifyChain(TXN, [], head(events))).toEqual({ chainOk: false, brokenAt: 1, reason: "truncated" });
    expect(verifyChain(TXN, events, null)).toEqual({ chainOk: false, brokenAt: 7, reason: "truncated" });
  });

  test("events past the head (appended without moving it) are not trusted", () => {
    const events = chain(5);
    expect(verifyChain(TXN, events, events[2].hash)).toEqual({ chainOk: false, brokenAt: 4, reason: "beyond_head" });
  });

  test("a whole chain moved to another transmission does not verify there", () => {
    const events = chain(3, "txn_a");
    expect(verifyChain("txn_b", events, head(events))).toEqual({ chainOk: false, brokenAt: 1, reason: "transmission" });
    const relabelled = events.map((e) => ({ ...e, transmissionId: "txn_b" }));
    expect(verifyChain("txn_b", relabelled, head(events))).toEqual({ chainOk: false, brokenAt: 1, reason: "prev_hash" });
  });
});
