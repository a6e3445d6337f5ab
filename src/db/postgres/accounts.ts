// Organizations, keys and the monthly quota. Every change that must be exact is one conditional
// statement on a row that already exists: under READ COMMITTED an UPDATE that waited for a
// concurrent writer re-evaluates its WHERE on the newest row version, but it never sees a row
// inserted after it started, hence INSERT … ON CONFLICT DO NOTHING first.
import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { KeyRepository, OrgRepository, QuotaRepository, WindowKey, WindowOpening } from "../storage";
import { apiKeys, organizations, quotaWindows, refundHours } from "./schema";

export type Db = PostgresJsDatabase;
type Executor = Pick<Db, "insert" | "update" | "select">;

const theWindow = (key: WindowKey) =>
  and(eq(quotaWindows.orgId, key.orgId), eq(quotaWindows.mode, key.mode), eq(quotaWindows.windowStart, key.windowStart));

const counted = { quotaLimit: quotaWindows.quotaLimit, used: quotaWindows.used };

function openWindow(db: Executor, window: WindowOpening) {
  const { orgId, mode, windowStart, windowEnd, quotaLimit } = window;
  return db.insert(quotaWindows).values({ orgId, mode, windowStart, windowEnd, quotaLimit, used: 0 }).onConflictDoNothing();
}

export function orgRepository(db: Db): OrgRepository {
  return {
    async insert(row) {
      return (await db.insert(organizations).values(row).onConflictDoNothing().returning({ id: organizations.id })).length === 1;
    },
    async byId(id) {
      return (await db.select().from(organizations).where(eq(organizations.id, id)))[0];
    },
    async byName(name) {
      return (await db.select().from(organizations).where(eq(organizations.name, name)))[0];
    },
    list: () => db.select().from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id)),
    async changePlan(orgId, plan, running, nextQuota) {
      await db.transaction(async (tx) => {
        await openWindow(tx, running);
        await tx
          .update(quotaWindows)
          .set({ quotaLimit: sql`greatest(${quotaWindows.quotaLimit}, ${nextQuota})` })
          .where(theWindow(running));
        await tx.update(organizations).set({ plan }).where(eq(organizations.id, orgId));
      });
    },
    async setRulesetChannel(orgId, channel) {
      await db.update(organizations).set({ rulesetChannel: channel }).where(eq(organizations.id, orgId));
    },
  };
}

export function keyRepository(db: Db): KeyRepository {
  return {
    async insert(row) {
      await db.insert(apiKeys).values(row);
    },
    async byHash(hash) {
      return (await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)))[0];
    },
    listFor: (orgId) => db.select().from(apiKeys).where(eq(apiKeys.orgId, orgId)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)),
    async revoke(keyId, at) {
      const revoked = await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, keyId), sql`${apiKeys.revokedAt} is null`))
        .returning({ id: apiKeys.id });
      if (revoked.length) return "revoked";
      const existing = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, keyId));
      return existing.length ? "already" : "missing";
    },
  };
}

export function quotaRepository(db: Db): QuotaRepository {
  return {
    async spend(window) {
      // The conditional update alone grants units. It comes first because the window nearly always
      // exists (one round trip per request); it is opened only when the update finds nothing.
      for (;;) {
        const [taken] = await db
          .update(quotaWindows)
          .set({ used: sql`${quotaWindows.used} + 1` })
          .where(and(theWindow(window), lt(quotaWindows.used, quotaWindows.quotaLimit)))
          .returning(counted);
        if (taken) return { ok: true, count: taken };
        const [row] = await db.select(counted).from(quotaWindows).where(theWindow(window));
        // Refused only by a full window: one another request opened meanwhile is tried again.
        if (row && row.used >= row.quotaLimit) return { ok: false, count: row };
        if (!row) await openWindow(db, window);
      }
    },
    refund(spent, hourlyCap) {
      return db.transaction(async (tx) => {
        if (hourlyCap) {
          const hour = { orgId: spent.orgId, hourStart: hourlyCap.hourStart };
          await tx.insert(refundHours).values({ ...hour, count: 0 }).onConflictDoNothing();
          const inCap = await tx
            .update(refundHours)
            .set({ count: sql`${refundHours.count} + 1` })
            .where(and(eq(refundHours.orgId, hour.orgId), eq(refundHours.hourStart, hour.hourStart), lt(refundHours.count, hourlyCap.cap)))
            .returning({ count: refundHours.count });
          if (!inCap.length) return false;
        }
        const returned = await tx
          .update(quotaWindows)
          .set({ used: sql`${quotaWindows.used} - 1` })
          .where(and(theWindow(spent), gt(quotaWindows.used, 0)))
          .returning({ used: quotaWindows.used });
        return returned.length === 1;
      });
    },
    async read(window) {
      return (await db.select(counted).from(quotaWindows).where(theWindow(window)))[0];
    },
  };
}
