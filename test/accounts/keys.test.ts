import { describe, expect, test } from "bun:test";
import { openSqlite } from "../../src/db/sqlite/connection";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { createOrg, findOrg } from "../../src/accounts/orgs";
import { authenticate, createKey, keyPrefix, listKeys, revokeKey } from "../../src/accounts/keys";
import { AccountError } from "../../src/accounts/errors";

const clock = () => new Date("2026-03-05T00:00:00Z");
const sha256 = (key: string) => new Bun.CryptoHasher("sha256").update(key).digest("hex");

describe("API keys", () => {
  test("keys carry their mode in the prefix and at least 32 random characters", async () => {
    const storage = openSqliteStorage(":memory:");
    const org = await createOrg(storage, clock, { name: "acme" });
    const live = await createKey(storage, clock, org, "live", "ci");
    const test = await createKey(storage, clock, org, "test");
    expect(live.key).toMatch(/^svc_live_[A-Za-z0-9]{32,}$/);
    expect(test.key).toMatch(/^svc_test_[A-Za-z0-9]{32,}$/);
    expect(live).toMatchObject({ orgId: org.id, livemode: true });
    expect(test.livemode).toBe(false);
    expect(live.key).not.toBe((await createKey(storage, clock, org, "live")).key);
  });

  test("only the SHA-256 of the whole key is stored", async () => {
    const dir = `${process.env.TMPDIR ?? "/tmp"}/keys-${crypto.randomUUID()}`;
    const storage = openSqliteStorage(`${dir}/db.sqlite`);
    const org = await createOrg(storage, clock, { name: "acme" });
    const { key } = await createKey(storage, clock, org, "live");
    await storage.close();
    const { sqlite } = openSqlite(`${dir}/db.sqlite`);
    const rows = sqlite.query<{ key_hash: string }, []>("select * from api_keys").all();
    expect(rows[0].key_hash).toBe(sha256(key));
    expect(JSON.stringify(rows)).not.toContain(key.slice(9));
    sqlite.close();
  });

  test("plain svc_ keys are live; anything else is malformed, told apart without a look-up", async () => {
    const storage = openSqliteStorage(":memory:");
    const org = await createOrg(storage, clock, { name: "acme" });
    const legacy = "svc_" + "a".repeat(40);
    await storage.keys.insert({ id: crypto.randomUUID(), orgId: org.id, keyHash: sha256(legacy), label: null, livemode: true, createdAt: clock().toISOString(), revokedAt: null });
    expect(await authenticate(storage, legacy)).toMatchObject({ ok: true, livemode: true });
    expect(await authenticate(storage, "svc_test_" + "a".repeat(40))).toEqual({ ok: false, reason: "unknown" });
    expect(await authenticate(storage, "svc_test_short")).toEqual({ ok: false, reason: "malformed" });
    expect(await authenticate(storage, "sk_live_" + "a".repeat(40))).toEqual({ ok: false, reason: "malformed" });
    expect(keyPrefix("svc_live_abc")).toBe("svc_live");
    expect(keyPrefix("svc_" + "x".repeat(40))).toBe("svc_");
  });

  test("revocation is immediate and listed", async () => {
    const storage = openSqliteStorage(":memory:");
    const org = await createOrg(storage, clock, { name: "acme" });
    const created = await createKey(storage, clock, org, "test");
    expect((await authenticate(storage, created.key)).ok).toBe(true);
    await revokeKey(storage, clock, created.keyId);
    expect(await authenticate(storage, created.key)).toEqual({ ok: false, reason: "unknown" });
    expect((await listKeys(storage, org))[0]).toMatchObject({ keyId: created.keyId, revokedAt: "2026-03-05T00:00:00.000Z", livemode: false });
    expect(revokeKey(storage, clock, created.keyId)).rejects.toThrow(AccountError);
    expect(revokeKey(storage, clock, crypto.randomUUID())).rejects.toThrow(/no key/);
  });

  test("organizations are found by id or unique name", async () => {
    const storage = openSqliteStorage(":memory:");
    const org = await createOrg(storage, clock, { name: "acme", plan: "growth", billingDay: 12 });
    expect((await findOrg(storage, org.id)).name).toBe("acme");
    expect((await findOrg(storage, "acme")).id).toBe(org.id);
    expect(createOrg(storage, clock, { name: "acme" })).rejects.toThrow(/exists/);
    expect(createOrg(storage, clock, { name: "b", billingDay: 29 })).rejects.toThrow(/1 to 28/);
    expect(createOrg(storage, clock, { name: "b", plan: "gold" })).rejects.toThrow(/unknown plan/);
    expect(findOrg(storage, "nobody")).rejects.toThrow(/no organization/);
  });
});
