import { describe, expect, test } from "bun:test";
import { openStore } from "../../src/db/connection";
import { createOrg, findOrg } from "../../src/accounts/orgs";
import { authenticate, createKey, keyPrefix, listKeys, revokeKey } from "../../src/accounts/keys";
import { apiKeys } from "../../src/db/schema";
import { AccountError } from "../../src/accounts/errors";

const clock = () => new Date("2026-03-05T00:00:00Z");

describe("API keys", () => {
  test("keys carry their mode in the prefix and at least 32 random characters", () => {
    const { db } = openStore(":memory:");
    const org = createOrg(db, clock, { name: "acme" });
    const live = createKey(db, clock, org, "live", "ci");
    const test = createKey(db, clock, org, "test");
    expect(live.key).toMatch(/^svc_live_[A-Za-z0-9]{32,}$/);
    expect(test.key).toMatch(/^svc_test_[A-Za-z0-9]{32,}$/);
    expect(live).toMatchObject({ orgId: org.id, livemode: true });
    expect(test.livemode).toBe(false);
    expect(live.key).not.toBe(createKey(db, clock, org, "live").key);
  });

  test("only the SHA-256 of the whole key is stored", () => {
    const store = openStore(":memory:");
    const org = createOrg(store.db, clock, { name: "acme" });
    const { key } = createKey(store.db, clock, org, "live");
    const rows = store.db.select().from(apiKeys).all();
    expect(rows[0].keyHash).toBe(new Bun.CryptoHasher("sha256").update(key).digest("hex"));
    const dump = JSON.stringify(store.sqlite.query("select * from api_keys").all());
    expect(dump).not.toContain(key.slice(9));
  });

  test("plain svc_ keys are live; anything else is malformed, told apart without a look-up", () => {
    const { db } = openStore(":memory:");
    const org = createOrg(db, clock, { name: "acme" });
    const legacy = "svc_" + "a".repeat(40);
    db.insert(apiKeys).values({ id: crypto.randomUUID(), orgId: org.id, keyHash: new Bun.CryptoHasher("sha256").update(legacy).digest("hex"), label: null, livemode: true, createdAt: clock().toISOString() }).run();
    expect(authenticate(db, legacy)).toMatchObject({ ok: true, livemode: true });
    expect(authenticate(db, "svc_test_" + "a".repeat(40))).toEqual({ ok: false, reason: "unknown" });
    expect(authenticate(db, "svc_test_short")).toEqual({ ok: false, reason: "malformed" });
    expect(authenticate(db, "sk_live_" + "a".repeat(40))).toEqual({ ok: false, reason: "malformed" });
    expect(keyPrefix("svc_live_abc")).toBe("svc_live");
    expect(keyPrefix("svc_" + "x".repeat(40))).toBe("svc_");
  });

  test("revocation is immediate and listed", () => {
    const { db } = openStore(":memory:");
    const org = createOrg(db, clock, { name: "acme" });
    const created = createKey(db, clock, org, "test");
    expect(authenticate(db, created.key).ok).toBe(true);
    revokeKey(db, clock, created.keyId);
    expect(authenticate(db, created.key)).toEqual({ ok: false, reason: "unknown" });
    expect(listKeys(db, org)[0]).toMatchObject({ keyId: created.keyId, revokedAt: "2026-03-05T00:00:00.000Z", livemode: false });
    expect(() => revokeKey(db, clock, created.keyId)).toThrow(AccountError);
    expect(() => revokeKey(db, clock, crypto.randomUUID())).toThrow(/no key/);
  });

  test("organizations are found by id or unique name", () => {
    const { db } = openStore(":memory:");
    const org = createOrg(db, clock, { name: "acme", plan: "growth", billingDay: 12 });
    expect(findOrg(db, org.id).name).toBe("acme");
    expect(findOrg(db, "acme").id).toBe(org.id);
    expect(() => createOrg(db, clock, { name: "acme" })).toThrow(/exists/);
    expect(() => createOrg(db, clock, { name: "b", billingDay: 29 })).toThrow(/1 to 28/);
    expect(() => createOrg(db, clock, { name: "b", plan: "gold" })).toThrow(/unknown plan/);
    expect(() => findOrg(db, "nobody")).toThrow(/no organization/);
  });
});
