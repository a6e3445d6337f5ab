// The Storage contract (src/db/storage.ts), run against every adapter in test/support/storages.ts.
// Tests share one storage per adapter, so each makes its own organizations and counters.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { DriftRow, KeyRow, OrgRow, Storage, TransmissionEventRow, TransmissionRow, WindowOpening } from "../../src/db/storage";
import { cannotRun } from "../support/requirements";
import { storages } from "../support/storages";
import { nextEvent, verifyChain } from "../../src/transmission/event-chain";
import { storedEvent } from "../../src/transmission/first-write";

const unique = () => crypto.randomUUID().slice(0, 8);

function orgRow(overrides: Partial<OrgRow> = {}): OrgRow {
  const id = `org_${unique()}`;
  return { id, name: `Acme ${id}`, plan: "free", billingDay: 1, rulesetChannel: "latest", createdAt: "2026-01-01T00:00:00.000Z", ...overrides };
}

function keyRow(orgId: string, overrides: Partial<KeyRow> = {}): KeyRow {
  const id = `key_${unique()}`;
  return { id, orgId, keyHash: `hash-${id}`, label: null, livemode: true, createdAt: "2026-01-01T00:00:00.000Z", revokedAt: null, ...overrides };
}

const window = (orgId: string, quotaLimit: number): WindowOpening => ({
  orgId,
  mode: "live",
  windowStart: "2026-01-01T00:00:00.000Z",
  windowEnd: "2026-02-01T00:00:00.000Z",
  quotaLimit,
});

function driftRow(path: string, checkedAt: string, outcome: DriftRow["outcome"] = "match"): DriftRow {
  return { key: "cen", version: "1.3.14", path, checkedAt, source: "upstream", expectedSha256: "a".repeat(64), actualSha256: outcome === "error" ? null : "a".repeat(64), outcome, detail: null };
}

function transmissionRow(orgId: string, overrides: Partial<TransmissionRow> = {}): TransmissionRow {
  const id = `txn_${unique()}`;
  return {
    id,
    orgId,
    livemode: true,
    direction: "outbound",
    network: "peppol",
    status: "queued",
    senderScheme: "0088",
    senderId: "1234567890123",
    counterpartyScheme: "0088",
    counterpartyId: "9876543210987",
    format: "ubl",
    documentSha256: "d".repeat(64),
    document: "<Invoice/>",
    customizationId: "urn:cen.eu:en16931:2017",
    processId: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
    documentTypeId: null,
    invoiceNumber: "INV-1",
    deadlineAt: null,
    atRisk: false,
    verdict: '{"valid":true}',
    idempotencyKey: null,
    requestSha256: null,
    headHash: `h-${id}`,
    headSeq: 1,
    nextAttemptAt: "2026-03-01T10:00:00.000Z",
    leaseOwner: null,
    leaseUntil: null,
    attemptCount: 0,
    providerRef: null,
    recipientState: null,
    escalation: null,
    billedAt: null,
    createdAt: "2026-03-01T10:00:00.000Z",
    updatedAt: "2026-03-01T10:00:00.000Z",
    ...overrides,
  };
}

const firstEvent = (row: TransmissionRow): TransmissionEventRow => ({
  transmissionId: row.id,
  seq: 1,
  type: "transmission.queued",
  status: "queued",
  at: row.createdAt,
  data: "{}",
  prevHash: `genesis-${row.id}`,
  hash: row.headHash,
});

for (const adapter of storages) {
  describe.skipIf(cannotRun(`the ${adapter.name} storage`, adapter.missing))(`${adapter.name} storage`, () => {
    let storage: Storage;
    const newOrg = async (overrides: Partial<OrgRow> = {}) => {
      const row = orgRow(overrides);
      expect(await storage.orgs.insert(row)).toBe(true);
      return row;
    };

    beforeAll(async () => {
      storage = await adapter.open();
    });
    afterAll(() => storage?.close());

    describe("orgs", () => {
      test("insert, then found by id and by name as inserted", async () => {
        const org = await newOrg();
        expect(await storage.orgs.byId(org.id)).toEqual(org);
        expect(await storage.orgs.byName(org.name)).toEqual(org);
        expect(await storage.orgs.byId("org_none")).toBeUndefined();
        expect(await storage.orgs.byName("nobody")).toBeUndefined();
      });

      test("a taken name is refused", async () => {
        const org = await newOrg();
        expect(await storage.orgs.insert(orgRow({ name: org.name }))).toBe(false);
      });

      test("list is in creation order", async () => {
        const later = await newOrg({ createdAt: "2026-03-02T00:00:00.000Z" });
        const earlier = await newOrg({ createdAt: "2026-03-01T00:00:00.000Z" });
        const ids = (await storage.orgs.list()).map((o) => o.id);
        expect(ids.indexOf(earlier.id)).toBeLessThan(ids.indexOf(later.id));
      });

      test("an upgrade raises the running window and changes the plan", async () => {
        const org = await newOrg();
        await storage.quota.spend(window(org.id, 100));
        await storage.orgs.changePlan(org.id, "pro", window(org.id, 100), 1000);
        expect(await storage.quota.read(window(org.id, 0))).toEqual({ quotaLimit: 1000, used: 1 });
        expect((await storage.orgs.byId(org.id))!.plan).toBe("pro");
      });

      test("a downgrade never shrinks the running window, opened or not", async () => {
        const spent = await newOrg({ plan: "pro" });
        await storage.quota.spend(window(spent.id, 1000));
        await storage.orgs.changePlan(spent.id, "free", window(spent.id, 1000), 100);
        expect(await storage.quota.read(window(spent.id, 0))).toEqual({ quotaLimit: 1000, used: 1 });

        const idle = await newOrg({ plan: "pro" });
        await storage.orgs.changePlan(idle.id, "free", window(idle.id, 1000), 100);
        expect(await storage.quota.read(window(idle.id, 0))).toEqual({ quotaLimit: 1000, used: 0 });
        expect((await storage.orgs.byId(idle.id))!.plan).toBe("free");
      });

      test("setRulesetChannel", async () => {
        const org = await newOrg();
        await storage.orgs.setRulesetChannel(org.id, "2026.1");
        expect((await storage.orgs.byId(org.id))!.rulesetChannel).toBe("2026.1");
      });
    });

    describe("keys", () => {
      test("insert, byHash, listFor in creation order", async () => {
        const org = await newOrg();
        const second = keyRow(org.id, { createdAt: "2026-01-02T00:00:00.000Z", label: "ci", livemode: false });
        const first = keyRow(org.id);
        await storage.keys.insert(second);
        await storage.keys.insert(first);
        await storage.keys.insert(keyRow((await newOrg()).id));
        expect(await storage.keys.byHash(second.keyHash)).toEqual(second);
        expect(await storage.keys.byHash("no such hash")).toBeUndefined();
        expect(await storage.keys.listFor(org.id)).toEqual([first, second]);
      });

      test("revoke: revoked, then already, and missing for an unknown key", async () => {
        const key = keyRow((await newOrg()).id);
        await storage.keys.insert(key);
        expect(await storage.keys.revoke(key.id, "2026-01-05T00:00:00.000Z")).toBe("revoked");
        expect(await storage.keys.revoke(key.id, "2026-01-06T00:00:00.000Z")).toBe("already");
        expect(await storage.keys.revoke("key_none", "2026-01-06T00:00:00.000Z")).toBe("missing");
        expect((await storage.keys.byHash(key.keyHash))!.revokedAt).toBe("2026-01-05T00:00:00.000Z");
      });
    });

    describe("quota", () => {
      test("spends until the cap, then refuses without counting", async () => {
        const org = await newOrg();
        expect(await storage.quota.read(window(org.id, 3))).toBeUndefined();
        const outcomes = [];
        for (let i = 0; i < 5; i++) outcomes.push(await storage.quota.spend(window(org.id, 3)));
        expect(outcomes).toEqual([
          { ok: true, count: { quotaLimit: 3, used: 1 } },
          { ok: true, count: { quotaLimit: 3, used: 2 } },
          { ok: true, count: { quotaLimit: 3, used: 3 } },
          { ok: false, count: { quotaLimit: 3, used: 3 } },
          { ok: false, count: { quotaLimit: 3, used: 3 } },
        ]);
        expect(await storage.quota.read(window(org.id, 3))).toEqual({ quotaLimit: 3, used: 3 });
      });

      test("the cap is frozen when the window opens", async () => {
        const org = await newOrg();
        await storage.quota.spend(window(org.id, 2));
        expect(await storage.quota.spend(window(org.id, 50))).toEqual({ ok: true, count: { quotaLimit: 2, used: 2 } });
      });

      test("refund without a cap returns units down to zero", async () => {
        const org = await newOrg();
        await storage.quota.spend(window(org.id, 5));
        expect(await storage.quota.refund(window(org.id, 5), null)).toBe(true);
        expect(await storage.quota.refund(window(org.id, 5), null)).toBe(false);
        expect(await storage.quota.read(window(org.id, 5))).toEqual({ quotaLimit: 5, used: 0 });
      });

      test("refund with an hourly cap refuses past it, and counts per hour", async () => {
        const org = await newOrg();
        for (let i = 0; i < 5; i++) await storage.quota.spend(window(org.id, 10));
        const hour = (hourStart: string) => ({ hourStart, cap: 2 });
        const refunds = [];
        for (let i = 0; i < 3; i++) refunds.push(await storage.quota.refund(window(org.id, 10), hour("2026-01-01T10:00:00.000Z")));
        expect(refunds).toEqual([true, true, false]);
        expect(await storage.quota.refund(window(org.id, 10), hour("2026-01-01T11:00:00.000Z"))).toBe(true);
        expect(await storage.quota.read(window(org.id, 10))).toEqual({ quotaLimit: 10, used: 2 });
      });
    });

    describe("counters", () => {
      const t0 = 1_800_000_000_000;

      test("the whole allowance may be taken at once, then refusals say when a slot frees", async () => {
        const counter = `burst:${unique()}`;
        const verdicts = [];
        for (let i = 0; i < 4; i++) verdicts.push(await storage.counters.take(counter, 3, t0));
        expect(verdicts).toEqual([
          { allowed: true, limit: 3, remaining: 2, resetSeconds: 60 },
          { allowed: true, limit: 3, remaining: 1, resetSeconds: 60 },
          { allowed: true, limit: 3, remaining: 0, resetSeconds: 60 },
          { allowed: false, limit: 3, remaining: 0, resetSeconds: 60 },
        ]);
        expect(await storage.counters.take(counter, 3, t0 + 45_500)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 15 });
      });

      test("a slot frees exactly one window after it was taken", async () => {
        const counter = `burst:${unique()}`;
        await storage.counters.take(counter, 2, t0);
        await storage.counters.take(counter, 2, t0 + 30_000);
        expect(await storage.counters.take(counter, 2, t0 + 59_999)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
        expect(await storage.counters.take(counter, 2, t0 + 60_000)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 30 });
      });

      test("a counter idle for a window starts over, and counters are independent", async () => {
        const counter = `burst:${unique()}`;
        await storage.counters.take(counter, 1, t0);
        expect((await storage.counters.take(`other:${unique()}`, 1, t0)).allowed).toBe(true);
        expect(await storage.counters.take(counter, 1, t0 + 120_000)).toEqual({ allowed: true, limit: 1, remaining: 0, resetSeconds: 60 });
      });

      test("an unbounded allowance (the throttle's own rejection count) counts every take", async () => {
        const counter = `rejections:${unique()}`;
        await storage.counters.take(counter, Number.MAX_SAFE_INTEGER, t0);
        const verdict = await storage.counters.take(counter, Number.MAX_SAFE_INTEGER, t0 + 1);
        expect(verdict).toEqual({ allowed: true, limit: Number.MAX_SAFE_INTEGER, remaining: Number.MAX_SAFE_INTEGER - 2, resetSeconds: 60 });
      });

      test("a zero allowance refuses with nothing counted", async () => {
        expect(await storage.counters.take(`burst:${unique()}`, 0, t0)).toEqual({ allowed: false, limit: 0, remaining: 0, resetSeconds: 0 });
      });

      test("counters idle for a window may be swept away without changing any answer", async () => {
        const busy = `burst:${unique()}`;
        for (let i = 0; i < 600; i++) await storage.counters.take(`idle:${unique()}`, 1, t0 + 1_000_000);
        const verdicts = [];
        for (let i = 0; i < 600; i++) verdicts.push(await storage.counters.take(busy, 1000, t0 + 2_000_000 + i));
        expect(verdicts.at(-1)).toEqual({ allowed: true, limit: 1000, remaining: 400, resetSeconds: 60 });
      });
    });

    describe("throttles", () => {
      const t0 = 1_800_000_000_000;

      test("start, active while it lasts, gone once it ends", async () => {
        const counter = `org:${unique()}`;
        expect(await storage.throttles.active(counter, t0)).toBeUndefined();
        await storage.throttles.start(counter, t0, t0 + 300_000);
        expect(await storage.throttles.active(counter, t0 + 299_999)).toEqual({ startedAt: t0, until: t0 + 300_000 });
        expect(await storage.throttles.active(counter, t0 + 300_000)).toBeUndefined();
      });

      test("a start while one is in force leaves that one; after it ended, a new one starts", async () => {
        const counter = `org:${unique()}`;
        await storage.throttles.start(counter, t0, t0 + 300_000);
        await storage.throttles.start(counter, t0 + 1000, t0 + 301_000);
        expect(await storage.throttles.active(counter, t0 + 1000)).toEqual({ startedAt: t0, until: t0 + 300_000 });
        await storage.throttles.start(counter, t0 + 300_000, t0 + 600_000);
        expect(await storage.throttles.active(counter, t0 + 300_000)).toEqual({ startedAt: t0 + 300_000, until: t0 + 600_000 });
      });

      test("extend pushes the end out, never past the cap and never back", async () => {
        const counter = `org:${unique()}`;
        const maxMs = 900_000;
        expect(await storage.throttles.extend(counter, t0, maxMs)).toBeUndefined();
        await storage.throttles.start(counter, t0, t0 + 300_000);
        expect(await storage.throttles.extend(counter, t0 + 400_000, maxMs)).toEqual({ startedAt: t0, until: t0 + 400_000 });
        expect(await storage.throttles.extend(counter, t0 + 350_000, maxMs)).toEqual({ startedAt: t0, until: t0 + 400_000 });
        expect(await storage.throttles.extend(counter, t0 + 2_000_000, maxMs)).toEqual({ startedAt: t0, until: t0 + maxMs });
        expect(await storage.throttles.active(counter, t0 + maxMs - 1)).toEqual({ startedAt: t0, until: t0 + maxMs });
      });
    });

    describe("templates", () => {
      const template = (orgId: string, ref: string, createdAt = "2026-01-01T00:00:00.000Z") => ({ ref, orgId, name: `t ${ref}`, definition: '{"page":"A4"}', createdAt });

      test("insert; a taken ref is refused, whoever holds it", async () => {
        const org = await newOrg();
        const ref = unique().toUpperCase();
        expect(await storage.templates.insert(template(org.id, ref))).toBe(true);
        expect(await storage.templates.insert(template(org.id, ref))).toBe(false);
        expect(await storage.templates.insert(template((await newOrg()).id, ref))).toBe(false);
      });

      test("listFor holds only the organization's own, in creation order", async () => {
        const org = await newOrg();
        const later = template(org.id, unique().toUpperCase(), "2026-01-02T00:00:00.000Z");
        const earlier = template(org.id, unique().toUpperCase());
        for (const row of [later, earlier, template((await newOrg()).id, unique().toUpperCase())]) await storage.templates.insert(row);
        expect(await storage.templates.listFor(org.id)).toEqual([earlier, later]);
      });

      test("another organization's ref is not found and cannot be deleted", async () => {
        const owner = await newOrg();
        const stranger = await newOrg();
        const row = template(owner.id, unique().toUpperCase());
        await storage.templates.insert(row);
        expect(await storage.templates.find(owner.id, row.ref)).toEqual(row);
        expect(await storage.templates.find(stranger.id, row.ref)).toBeUndefined();
        expect(await storage.templates.find(owner.id, "NEVER")).toBeUndefined();
        expect(await storage.templates.delete(stranger.id, row.ref)).toBe(false);
        expect(await storage.templates.delete(owner.id, row.ref)).toBe(true);
        expect(await storage.templates.delete(owner.id, row.ref)).toBe(false);
        expect(await storage.templates.find(owner.id, row.ref)).toBeUndefined();
      });
    });

    describe("drift", () => {
      test("newestFirst holds every check, newest first; history one path's", async () => {
        const [a, b] = [`rules/${unique()}.sch`, `rules/${unique()}.sch`];
        const rows = [driftRow(a, "2030-01-01T00:00:00.000Z"), driftRow(b, "2030-01-03T00:00:00.000Z", "error"), driftRow(a, "2030-01-02T00:00:00.000Z", "mismatch")];
        for (const row of rows) await storage.drift.insert(row);
        expect((await storage.drift.newestFirst()).slice(0, 3)).toEqual([rows[1], rows[2], rows[0]]);
        expect(await storage.drift.history(a)).toEqual([rows[2], rows[0]]);
      });
    });

    describe("participants", () => {
      test("upsert registers and then updates country and confirmation; find, list and remove per organization", async () => {
        const org = await newOrg();
        const other = await newOrg();
        const row = { orgId: org.id, scheme: "0088", identifier: "4000001000005", country: null, confirmed: false, createdAt: "2026-01-01T00:00:00.000Z" };
        await storage.participants.upsert(row);
        expect(await storage.participants.find(org.id, "0088", "4000001000005")).toEqual(row);
        await storage.participants.upsert({ ...row, country: "DE", confirmed: true, createdAt: "2026-02-01T00:00:00.000Z" });
        expect(await storage.participants.find(org.id, "0088", "4000001000005")).toEqual({ ...row, country: "DE", confirmed: true });
        expect(await storage.participants.find(other.id, "0088", "4000001000005")).toBeUndefined();
        await storage.participants.upsert({ ...row, identifier: "1000000000001" });
        expect((await storage.participants.listFor(org.id)).map((p) => p.identifier)).toEqual(["1000000000001", "4000001000005"]);
        expect(await storage.participants.remove(other.id, "0088", "4000001000005")).toBe(false);
        expect(await storage.participants.remove(org.id, "0088", "4000001000005")).toBe(true);
        expect(await storage.participants.find(org.id, "0088", "4000001000005")).toBeUndefined();
      });
    });

    describe("inbox providers", () => {
      test("insert once per id, find, list, rotate secrets, remove", async () => {
        const id = `ap-${unique()}`;
        const row = { id, network: "peppol", secrets: ["whsec_a"], createdAt: "2026-01-01T00:00:00.000Z" };
        expect(await storage.inboxProviders.insert(row)).toBe(true);
        expect(await storage.inboxProviders.insert({ ...row, network: "sdi" })).toBe(false);
        expect(await storage.inboxProviders.find(id)).toEqual(row);
        expect(await storage.inboxProviders.setSecrets(id, ["whsec_b", "whsec_a"])).toBe(true);
        expect((await storage.inboxProviders.find(id))?.secrets).toEqual(["whsec_b", "whsec_a"]);
        expect((await storage.inboxProviders.list()).map((p) => p.id)).toContain(id);
        expect(await storage.inboxProviders.remove(id)).toBe(true);
        expect(await storage.inboxProviders.find(id)).toBeUndefined();
        expect(await storage.inboxProviders.setSecrets(id, [])).toBe(false);
      });

      test("receivers: the confirmed registrations of an identifier, in every organization", async () => {
        const [a, b, c] = [await newOrg(), await newOrg(), await newOrg()];
        const identifier = `id${unique()}`;
        const at = "2026-01-01T00:00:00.000Z";
        await storage.participants.upsert({ orgId: a.id, scheme: "0088", identifier, country: "DE", confirmed: true, createdAt: at });
        await storage.participants.upsert({ orgId: b.id, scheme: "0088", identifier, country: "DE", confirmed: false, createdAt: at });
        await storage.participants.upsert({ orgId: c.id, scheme: "0088", identifier: `${identifier}x`, country: "DE", confirmed: true, createdAt: at });
        expect((await storage.participants.receivers("0088", identifier)).map((p) => p.orgId)).toEqual([a.id]);
      });
    });

    describe("dashboard", () => {
      test("a user per email across organizations", async () => {
        const [a, b] = [await newOrg(), await newOrg()];
        const email = `${unique()}@example.test`;
        const user = { id: `usr_${unique()}`, orgId: a.id, email, passwordHash: "$argon2id$x", createdAt: "2026-01-01T00:00:00.000Z" };
        expect(await storage.dashboard.insertUser(user)).toBe(true);
        expect(await storage.dashboard.insertUser({ ...user, id: `usr_${unique()}`, orgId: b.id })).toBe(false);
        expect(await storage.dashboard.userByEmail(email)).toEqual(user);
        expect(await storage.dashboard.userByEmail(`other-${email}`)).toBeUndefined();
      });

      test("a session is found until it expires, and not after sign-out", async () => {
        const org = await newOrg();
        const row = { tokenHash: `s-${unique()}`, orgId: org.id, userId: null, csrfToken: "c", createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-01T12:00:00.000Z" };
        await storage.dashboard.insertSession(row);
        expect(await storage.dashboard.session(row.tokenHash, "2026-01-01T11:59:59.999Z")).toEqual(row);
        expect(await storage.dashboard.session(row.tokenHash, "2026-01-01T12:00:00.000Z")).toBeUndefined();
        await storage.dashboard.deleteSession(row.tokenHash);
        expect(await storage.dashboard.session(row.tokenHash, "2026-01-01T00:00:00.000Z")).toBeUndefined();
      });

      test("a sign-in link works once, before it expires, even when used concurrently", async () => {
        const org = await newOrg();
        const link = (tokenHash: string) => ({ tokenHash, orgId: org.id, createdAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-01T00:15:00.000Z", usedAt: null });
        const [once, late] = [`l-${unique()}`, `l-${unique()}`];
        await storage.dashboard.insertLink(link(once));
        await storage.dashboard.insertLink(link(late));
        const uses = await Promise.all(Array.from({ length: 5 }, () => storage.dashboard.useLink(once, "2026-01-01T00:01:00.000Z")));
        expect(uses.filter((u) => u === org.id)).toHaveLength(1);
        expect(uses.filter((u) => u === undefined)).toHaveLength(4);
        expect(await storage.dashboard.useLink(late, "2026-01-01T00:15:00.000Z")).toBeUndefined();
        expect(await storage.dashboard.useLink(`l-${unique()}`, "2026-01-01T00:01:00.000Z")).toBeUndefined();
      });

      test("purging removes what expired and keeps the rest", async () => {
        const org = await newOrg();
        const session = (tokenHash: string, expiresAt: string) => ({ tokenHash, orgId: org.id, userId: null, csrfToken: "c", createdAt: "2026-01-01T00:00:00.000Z", expiresAt });
        const [old, live, oldLink, liveLink] = [`s-${unique()}`, `s-${unique()}`, `l-${unique()}`, `l-${unique()}`];
        await storage.dashboard.insertSession(session(old, "2026-02-01T00:00:00.000Z"));
        await storage.dashboard.insertSession(session(live, "2026-02-01T12:00:00.000Z"));
        await storage.dashboard.insertLink({ tokenHash: oldLink, orgId: org.id, createdAt: "2026-02-01T00:00:00.000Z", expiresAt: "2026-02-01T00:15:00.000Z", usedAt: null });
        await storage.dashboard.insertLink({ tokenHash: liveLink, orgId: org.id, createdAt: "2026-02-01T05:00:00.000Z", expiresAt: "2026-02-01T06:15:00.000Z", usedAt: null });
        await storage.dashboard.purgeExpired("2026-02-01T06:00:00.000Z");
        expect(await storage.dashboard.session(old, "2026-01-01T00:00:00.000Z")).toBeUndefined();
        expect(await storage.dashboard.session(live, "2026-02-01T06:00:00.000Z")).toBeDefined();
        expect(await storage.dashboard.useLink(oldLink, "2026-01-01T00:00:00.000Z")).toBeUndefined();
        expect(await storage.dashboard.useLink(liveLink, "2026-02-01T06:00:00.000Z")).toBe(org.id);
      });
    });

    describe("transmissions", () => {
      test("created with its first event; read back equal; another organization does not see it", async () => {
        const org = await newOrg();
        const other = await newOrg();
        const row = transmissionRow(org.id);
        expect(await storage.transmissions.create(row, firstEvent(row))).toEqual({ created: true });
        expect(await storage.transmissions.byId(org.id, row.id)).toEqual(row);
        expect(await storage.transmissions.byId(other.id, row.id)).toBeUndefined();
        expect(await storage.transmissions.events(row.id)).toEqual([firstEvent(row)]);
      });

      test("one Idempotency-Key per organization and mode: the second creation returns the first, even when concurrent", async () => {
        const org = await newOrg();
        const rows = Array.from({ length: 20 }, () => transmissionRow(org.id, { idempotencyKey: "order-1", requestSha256: "r".repeat(64) }));
        const outcomes = await Promise.all(rows.map((row) => storage.transmissions.create(row, firstEvent(row))));
        const created = outcomes.filter((o) => o.created);
        expect(created).toHaveLength(1);
        const winner = rows[outcomes.findIndex((o) => o.created)];
        for (const outcome of outcomes) if (!outcome.created) expect(outcome.existing.id).toBe(winner.id);
        expect((await storage.transmissions.byIdempotencyKey(org.id, true, "order-1"))?.id).toBe(winner.id);
        // The same key in test mode is another key.
        const test = transmissionRow(org.id, { livemode: false, idempotencyKey: "order-1" });
        expect(await storage.transmissions.create(test, firstEvent(test))).toEqual({ created: true });
        expect((await storage.transmissions.list(org.id, {}, 100, null)).length).toBe(2);
      });

      test("the same document to the same counterparty is found unless it settled", async () => {
        const org = await newOrg();
        const failed = transmissionRow(org.id, { status: "failed", createdAt: "2026-03-01T09:00:00.000Z" });
        await storage.transmissions.create(failed, firstEvent(failed));
        const counterparty = { scheme: "0088", id: "9876543210987" };
        expect(await storage.transmissions.sameDocument(org.id, true, "d".repeat(64), counterparty, ["failed", "rejected"])).toBeUndefined();
        const open = transmissionRow(org.id);
        await storage.transmissions.create(open, firstEvent(open));
        expect((await storage.transmissions.sameDocument(org.id, true, "d".repeat(64), counterparty, ["failed", "rejected"]))?.id).toBe(open.id);
        expect(await storage.transmissions.sameDocument(org.id, true, "d".repeat(64), { scheme: "0088", id: "1" }, ["failed", "rejected"])).toBeUndefined();
        expect(await storage.transmissions.sameDocument(org.id, false, "d".repeat(64), counterparty, ["failed", "rejected"])).toBeUndefined();
      });

      test("listed newest first, filtered, and paged by cursor without gaps or repeats", async () => {
        const org = await newOrg();
        const rows: TransmissionRow[] = [];
        for (let i = 0; i < 7; i++) {
          // Two share each creation instant, so the id breaks the tie.
          const row = transmissionRow(org.id, { createdAt: `2026-03-01T10:00:0${Math.floor(i / 2)}.000Z`, network: i % 2 ? "sdi" : "peppol" });
          rows.push(row);
          await storage.transmissions.create(row, firstEvent(row));
        }
        const expected = [...rows].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)).map((r) => r.id);
        const seen: string[] = [];
        let cursor = null;
        for (;;) {
          const page = await storage.transmissions.list(org.id, {}, 3, cursor);
          seen.push(...page.map((r) => r.id));
          if (page.length < 3) break;
          cursor = { createdAt: page[2].createdAt, id: page[2].id };
        }
        expect(seen).toEqual(expected);
        expect((await storage.transmissions.list(org.id, { network: "sdi" }, 100, null)).map((r) => r.network)).toEqual(["sdi", "sdi", "sdi"]);
        expect(await storage.transmissions.list(org.id, { direction: "inbound" }, 100, null)).toEqual([]);
        expect(await storage.transmissions.list(org.id, { status: "queued" }, 100, null)).toHaveLength(7);
      });
    });

    describe("transmission changes", () => {
      const eventAfter = (id: string, type: string, status: string) => (head: { seq: number; hash: string }) =>
        storedEvent(nextEvent(head, id, { type, status, at: new Date("2026-03-01T10:05:00.000Z"), data: {} }));
      const created = async (overrides: Partial<TransmissionRow> = {}) => {
        const org = await newOrg();
        const base = transmissionRow(org.id, overrides);
        const first = nextEvent(null, base.id, { type: "transmission.queued", status: "queued", at: new Date(base.createdAt), data: {} });
        const row = { ...base, headHash: first.hash, headSeq: 1 };
        await storage.transmissions.create(row, storedEvent(first));
        return row;
      };
      const chainOf = async (row: TransmissionRow) => {
        const after = (await storage.transmissions.byId(row.orgId, row.id))!;
        const events = (await storage.transmissions.events(row.id)).map((e) => ({ ...e, data: JSON.parse(e.data) }));
        return verifyChain(row.id, events, after.headHash);
      };

      test("a compare-and-set: of ten concurrent moves from queued only one happens, and the chain stays whole", async () => {
        const row = await created();
        const moves = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            storage.transmissions.change(row.id, { from: "queued", to: "submitting", patch: { attemptCount: i + 1 }, event: eventAfter(row.id, "submitting", "submitting"), at: "2026-03-01T10:05:00.000Z" }),
          ),
        );
        const done = moves.filter((m) => m !== undefined);
        expect(done).toHaveLength(1);
        expect(done[0]).toMatchObject({ status: "submitting", headSeq: 2, updatedAt: "2026-03-01T10:05:00.000Z" });
        expect(await chainOf(row)).toEqual({ chainOk: true });
        expect((await storage.transmissions.events(row.id)).map((e) => e.seq)).toEqual([1, 2]);
      });

      test("a flag fires once (expect atRisk false), a lease condition holds, a change without an event appends none", async () => {
        const row = await created();
        const flag = { from: "queued", to: "queued", expect: { atRisk: false }, patch: { atRisk: true }, event: eventAfter(row.id, "transmission.at_risk", "queued"), at: "2026-03-01T10:06:00.000Z" };
        expect(await storage.transmissions.change(row.id, flag)).toMatchObject({ atRisk: true, headSeq: 2 });
        expect(await storage.transmissions.change(row.id, flag)).toBeUndefined();
        expect(await storage.transmissions.change(row.id, { from: "queued", to: "queued", expect: { leaseOwner: "someone" }, patch: { nextAttemptAt: null }, at: "2026-03-01T10:07:00.000Z" })).toBeUndefined();
        expect(await storage.transmissions.change(row.id, { from: "queued", to: "queued", expect: { leaseOwner: null }, patch: { nextAttemptAt: null }, at: "2026-03-01T10:07:00.000Z" })).toMatchObject({ headSeq: 2, nextAttemptAt: null });
        expect(await chainOf(row)).toEqual({ chainOk: true });
      });

      test("billing counts one unit with the change that records the delivery, once under concurrency", async () => {
        const row = await created({ status: "submitted" });
        const bill = { ...window(row.orgId, 5) };
        const delivered = await Promise.all(
          Array.from({ length: 8 }, () =>
            storage.transmissions.change(row.id, { from: "submitted", to: "delivered", patch: { billedAt: "2026-03-01T10:08:00.000Z", nextAttemptAt: null }, event: eventAfter(row.id, "transmission.delivered", "delivered"), bill, at: "2026-03-01T10:08:00.000Z" }),
          ),
        );
        expect(delivered.filter(Boolean)).toHaveLength(1);
        expect(await storage.quota.read(bill)).toEqual({ quotaLimit: 5, used: 1 });
      });

      test("purging drops the bytes of what settled before the cut-off, and keeps the hash and everything else", async () => {
        const org = await newOrg();
        const old = transmissionRow(org.id, { status: "delivered", updatedAt: "2026-01-01T00:00:00.000Z" });
        const recent = transmissionRow(org.id, { status: "delivered", updatedAt: "2026-03-01T00:00:00.000Z" });
        const open = transmissionRow(org.id, { status: "submitted", updatedAt: "2026-01-01T00:00:00.000Z" });
        for (const row of [old, recent, open]) await storage.transmissions.create(row, firstEvent(row));
        expect(await storage.transmissions.purgeDocuments("2026-02-01T00:00:00.000Z", ["delivered"])).toBeGreaterThanOrEqual(1);
        expect(await storage.transmissions.byId(org.id, old.id)).toEqual({ ...old, document: null });
        expect((await storage.transmissions.byId(org.id, recent.id))?.document).toBe(recent.document);
        expect((await storage.transmissions.byId(org.id, open.id))?.document).toBe(open.document);
        expect(await storage.transmissions.purgeDocuments("2026-02-01T00:00:00.000Z", ["delivered"])).toBe(0);
      });

      test("claims are disjoint, leased until they lapse, and only of due outbound transmissions", async () => {
        const org = await newOrg();
        const due: string[] = [];
        for (let i = 0; i < 12; i++) {
          const row = transmissionRow(org.id, { nextAttemptAt: "2026-03-01T10:00:00.000Z" });
          await storage.transmissions.create(row, firstEvent(row));
          due.push(row.id);
        }
        const later = transmissionRow(org.id, { nextAttemptAt: "2026-03-01T11:00:00.000Z" });
        await storage.transmissions.create(later, firstEvent(later));
        const settled = transmissionRow(org.id, { status: "delivered", nextAttemptAt: null });
        await storage.transmissions.create(settled, firstEvent(settled));
        const now = "2026-03-01T10:30:00.000Z";
        const claims = await Promise.all(["a", "b", "c"].map((owner) => storage.transmissions.claimDue(owner, now, "2026-03-01T10:31:00.000Z", 5)));
        const ids = claims.flat().map((r) => r.id);
        expect(new Set(ids).size).toBe(ids.length);
        // Other tests' rows may be due too: only ours are counted.
        const ours = ids.filter((id) => due.includes(id));
        expect(ours.length).toBeLessThanOrEqual(12);
        expect(ids).not.toContain(later.id);
        expect(ids).not.toContain(settled.id);
        for (const [i, claim] of claims.entries()) for (const row of claim) expect(row.leaseOwner).toBe(["a", "b", "c"][i]);
        // Held until the lease lapses; then anyone may take what is still due.
        const again = await storage.transmissions.claimDue("d", now, "2026-03-01T10:31:00.000Z", 100);
        expect(again.map((r) => r.id).filter((id) => ids.includes(id))).toEqual([]);
        const lapsed = await storage.transmissions.claimDue("e", "2026-03-01T10:32:00.000Z", "2026-03-01T10:33:00.000Z", 1000);
        expect(lapsed.map((r) => r.id)).toEqual(expect.arrayContaining(due));
        // Inbound ones are claimed apart, and never as outbound.
        const inbound = transmissionRow(org.id, { direction: "inbound", status: "received", nextAttemptAt: "2026-03-01T10:00:00.000Z" });
        await storage.transmissions.create(inbound, firstEvent(inbound));
        expect((await storage.transmissions.claimDue("f", "2026-03-01T10:40:00.000Z", "2026-03-01T10:41:00.000Z", 1000)).map((r) => r.id)).not.toContain(inbound.id);
        expect((await storage.transmissions.claimDueInbound("g", "2026-03-01T10:40:00.000Z", "2026-03-01T10:41:00.000Z", 1000)).map((r) => r.id)).toContain(inbound.id);
      });
    });

    describe("delivery records and the sandbox network", () => {
      const stored = async (overrides: Partial<TransmissionRow> = {}) => {
        const org = await newOrg();
        const row = transmissionRow(org.id, overrides);
        await storage.transmissions.create(row, firstEvent(row));
        return row;
      };

      test("attempts: started once per number, finished with outcome and next retry, read in order", async () => {
        const row = await stored();
        const attempt = { transmissionId: row.id, n: 1, provider: "sandbox", providerRef: "ref-1", startedAt: "2026-03-01T10:00:00.000Z", finishedAt: null, outcome: null, detail: null, nextAttemptAt: null };
        expect(await storage.delivery.startAttempt(attempt)).toBe(true);
        expect(await storage.delivery.startAttempt({ ...attempt, startedAt: "2026-03-01T10:00:09.000Z" })).toBe(false);
        await storage.delivery.startAttempt({ ...attempt, n: 2, startedAt: "2026-03-01T10:01:00.000Z" });
        await storage.delivery.finishAttempt(row.id, 1, { finishedAt: "2026-03-01T10:00:01.000Z", outcome: "unknown", detail: "timeout", nextAttemptAt: "2026-03-01T10:01:00.000Z" });
        expect(await storage.delivery.attempts(row.id)).toEqual([
          { ...attempt, finishedAt: "2026-03-01T10:00:01.000Z", outcome: "unknown", detail: "timeout", nextAttemptAt: "2026-03-01T10:01:00.000Z" },
          { ...attempt, n: 2, startedAt: "2026-03-01T10:01:00.000Z" },
        ]);
      });

      test("receipts: kept once per proof, even when the same answer is read concurrently", async () => {
        const row = await stored();
        const receipt = { transmissionId: row.id, kind: "transport", networkCode: "AS4_RECEIPT", at: "2026-03-01T10:00:02.000Z", sha256: "a".repeat(64), proof: "<Receipt/>" };
        const added = await Promise.all(Array.from({ length: 5 }, () => storage.delivery.addReceipt(receipt)));
        expect(added.filter(Boolean)).toHaveLength(1);
        await storage.delivery.addReceipt({ ...receipt, networkCode: "MLS_AP", kind: "message_level", sha256: "b".repeat(64), proof: "<MLS/>" });
        expect((await storage.delivery.receipts(row.id)).map((r) => r.networkCode)).toEqual(["AS4_RECEIPT", "MLS_AP"]);
        expect((await storage.delivery.receipts(row.id))[0]).toEqual(receipt);
      });

      test("the sandbox clock: 0 until moved, only its organization's, and scheduled attempts come that much closer", async () => {
        const row = await stored({ nextAttemptAt: "2026-03-01T12:00:00.000Z" });
        const other = await stored({ nextAttemptAt: "2026-03-01T12:00:00.000Z" });
        expect(await storage.sandbox.offset(row.orgId)).toBe(0);
        expect(await storage.sandbox.advance(row.orgId, 90 * 60_000)).toBe(90 * 60_000);
        expect(await storage.sandbox.advance(row.orgId, 30 * 60_000)).toBe(2 * 3_600_000);
        expect(await storage.sandbox.offset(row.orgId)).toBe(2 * 3_600_000);
        expect(await storage.sandbox.offset(other.orgId)).toBe(0);
        expect((await storage.transmissions.byId(row.orgId, row.id))!.nextAttemptAt).toBe("2026-03-01T10:00:00.000Z");
        expect((await storage.transmissions.byId(other.orgId, other.id))!.nextAttemptAt).toBe("2026-03-01T12:00:00.000Z");
      });

      test("received: one row per reference; a second arrival rewrites the state and inserts nothing, even concurrently", async () => {
        const row = await stored();
        const ref = `ref-${unique()}`;
        const received = { providerRef: ref, network: "peppol", transmissionId: row.id, documentSha256: row.documentSha256, receivedAt: "2026-03-01T10:00:00.000Z", state: JSON.stringify({ submissions: 1 }) };
        const again = (existing: { state: string }) => JSON.stringify({ submissions: JSON.parse(existing.state).submissions + 1 });
        await Promise.all(Array.from({ length: 4 }, () => storage.sandbox.receive(received, again)));
        expect(await storage.sandbox.received(ref)).toEqual({ ...received, state: JSON.stringify({ submissions: 4 }) });
        expect((await storage.sandbox.all()).filter((r) => r.providerRef === ref)).toHaveLength(1);
        expect(await storage.sandbox.received("nobody")).toBeUndefined();
      });
    });

    describe("exclusively", () => {
      test("with wait, holders queue and never overlap", async () => {
        const name = `lock:${unique()}`;
        let inside = 0;
        let overlapped = false;
        const work = async (value: number) => {
          inside++;
          overlapped ||= inside > 1;
          await Bun.sleep(30);
          inside--;
          return value;
        };
        const outcomes = await Promise.all([1, 2, 3].map((v) => storage.exclusively(name, true, () => work(v))));
        expect(outcomes).toEqual([1, 2, 3].map((value) => ({ ran: true, value })));
        expect(overlapped).toBe(false);
      });

      test("without wait, a held lock skips the work; released, even by a failure, it runs", async () => {
        const name = `lock:${unique()}`;
        let release!: () => void;
        const held = storage.exclusively(name, true, () => new Promise<void>((resolve) => (release = resolve)));
        await Bun.sleep(50);
        expect(await storage.exclusively(name, false, async () => "ran")).toEqual({ ran: false });
        release();
        await held;
        await expect(storage.exclusively(name, false, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
        expect(await storage.exclusively(name, false, async () => "ran")).toEqual({ ran: true, value: "ran" });
      });
    });

    test("check: the dialect and every migration applied", async () => {
      const check = await storage.check();
      expect(check.dialect).toBe(storage.dialect);
      expect(check.migrations.applied.length).toBeGreaterThan(0);
      expect(check.migrations.pending).toEqual([]);
    });
  });
}
