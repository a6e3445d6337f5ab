// Organizations, keys and quota windows in SQLite. One process writes at a time (a transaction
// takes the file's write lock at BEGIN IMMEDIATE), so a conditional update is exact across the
// server and the CLI alike.

import { and, eq, gt, isNull, lt, sql, type Placeholder } from "drizzle-orm";
import type { Db } from "./connection";
import { apiKeys, organizations, quotaWindows, refundHours } from "./schema";
import { preparedOn } from "./prepared";
import type { KeyRepository, OrgRepository, QuotaRepository, WindowKey, WindowOpening } from "../storage";

function windowWhere(key: { [K in keyof WindowKey]: WindowKey[K] | Placeholder }) {
  return and(eq(quotaWindows.orgId, key.orgId), eq(quotaWindows.mode, key.mode), eq(quotaWindows.windowStart, key.windowStart));
}

// Every metered request runs these, so they are prepared once (prepared.ts).
const theWindow = windowWhere({ orgId: sql.placeholder("orgId"), mode: sql.placeholder("mode"), windowStart: sql.placeholder("windowStart") });
const insertWindow = preparedOn((db) =>
  db
    .insert(quotaWindows)
    .values({
      orgId: sql.placeholder("orgId"),
      mode: sql.placeholder("mode"),
      windowStart: sql.placeholder("windowStart"),
      windowEnd: sql.placeholder("windowEnd"),
      quotaLimit: sql.placeholder("quotaLimit"),
      used: 0,
    })
    .onConflictDoNothing()
    .prepare(),
);
const takeUnit = preparedOn((db) =>
  db
    .update(quotaWindows)
    .set({ used: sql`${quotaWindows.used} + 1` })
    .where(and(theWindow, lt(quotaWindows.used, quotaWindows.quotaLimit)))
    .returning({ quotaLimit: quotaWindows.quotaLimit, used: quotaWindows.used })
    .prepare(),
);
const readWindow = preparedOn((db) =>
  db.select({ quotaLimit: quotaWindows.quotaLimit, used: quotaWindows.used }).from(quotaWindows).where(theWindow).prepare(),
);
const orgById = preparedOn((db) => db.select().from(organizations).where(eq(organizations.id, sql.placeholder("id"))).prepare());
const keyByHash = preparedOn((db) => db.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder("hash"))).prepare());

const windowKey = ({ orgId, mode, windowStart }: WindowKey) => ({ orgId, mode, windowStart });

export function sqliteQuota(db: Db): QuotaRepository {
  return {
    async spend(window) {
      // Every statement runs on db's connection, which the transaction holds.
      return db.transaction(
        () => {
          insertWindow(db).run({ ...window });
          const taken = takeUnit(db).get(windowKey(window));
          if (taken) return { ok: true, count: taken };
          return { ok: false, count: readWindow(db).get(windowKey(window))! };
        },
        { behavior: "immediate" },
      );
    },
    async refund(spent, hourlyCap) {
      return db.transaction(
        (tx) => {
          if (hourlyCap) {
            const { hourStart, cap } = hourlyCap;
            tx.insert(refundHours).values({ orgId: spent.orgId, hourStart, count: 0 }).onConflictDoNothing().run();
            const counted = tx
              .update(refundHours)
              .set({ count: sql`${refundHours.count} + 1` })
              .where(and(eq(refundHours.orgId, spent.orgId), eq(refundHours.hourStart, hourStart), lt(refundHours.count, cap)))
              .returning()
              .get();
            if (!counted) return false;
          }
          const returned = tx
            .update(quotaWindows)
            .set({ used: sql`${quotaWindows.used} - 1` })
            .where(and(windowWhere(spent), gt(quotaWindows.used, 0)))
            .returning()
            .get();
          return returned !== undefined;
        },
        { behavior: "immediate" },
      );
    },
    async read(window) {
      return readWindow(db).get(windowKey(window)) ?? undefined;
    },
  };
}

export function sqliteOrgs(db: Db): OrgRepository {
  return {
    async insert(row) {
      return db.insert(organizations).values(row).onConflictDoNothing().returning().get() !== undefined;
    },
    async byId(id) {
      return orgById(db).get({ id }) ?? undefined;
    },
    async byName(name) {
      return db.select().from(organizations).where(eq(organizations.name, name)).get();
    },
    async list() {
      return db.select().from(organizations).orderBy(organizations.createdAt).all();
    },
    async changePlan(orgId, plan, running: WindowOpening, nextQuota) {
      db.transaction(
        () => {
          insertWindow(db).run({ ...running });
          db.update(quotaWindows)
            .set({ quotaLimit: sql`max(${quotaWindows.quotaLimit}, ${nextQuota})` })
            .where(windowWhere(running))
            .run();
          db.update(organizations).set({ plan }).where(eq(organizations.id, orgId)).run();
        },
        { behavior: "immediate" },
      );
    },
    async setRulesetChannel(orgId, channel) {
      db.update(organizations).set({ rulesetChannel: channel }).where(eq(organizations.id, orgId)).run();
    },
  };
}

export function sqliteKeys(db: Db): KeyRepository {
  return {
    async insert(row) {
      db.insert(apiKeys).values(row).run();
    },
    async byHash(hash) {
      return keyByHash(db).get({ hash }) ?? undefined;
    },
    async listFor(orgId) {
      return db.select().from(apiKeys).where(eq(apiKeys.orgId, orgId)).orderBy(apiKeys.createdAt).all();
    },
    async revoke(keyId, at) {
      const revoked = db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
        .returning()
        .get();
      if (revoked) return "revoked";
      return db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get() ? "already" : "missing";
    },
  };
}
