// Dashboard users, sessions and sign-in links in SQLite.

import { and, eq, gt, isNull, lte } from "drizzle-orm";
import type { Db } from "./connection";
import { dashboardSessions, dashboardUsers, signInLinks } from "./schema";
import type { DashboardRepository } from "../storage";

export function sqliteDashboard(db: Db): DashboardRepository {
  return {
    async insertUser(row) {
      return db.insert(dashboardUsers).values(row).onConflictDoNothing().returning().get() !== undefined;
    },
    async userByEmail(email) {
      return db.select().from(dashboardUsers).where(eq(dashboardUsers.email, email)).get();
    },
    async insertSession(row) {
      db.insert(dashboardSessions).values(row).run();
    },
    async session(tokenHash, now) {
      return db
        .select()
        .from(dashboardSessions)
        .where(and(eq(dashboardSessions.tokenHash, tokenHash), gt(dashboardSessions.expiresAt, now)))
        .get();
    },
    async deleteSession(tokenHash) {
      db.delete(dashboardSessions).where(eq(dashboardSessions.tokenHash, tokenHash)).run();
    },
    async insertLink(row) {
      db.insert(signInLinks).values(row).run();
    },
    async useLink(tokenHash, now) {
      return db
        .update(signInLinks)
        .set({ usedAt: now })
        .where(and(eq(signInLinks.tokenHash, tokenHash), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
        .returning({ orgId: signInLinks.orgId })
        .get()?.orgId;
    },
    async purgeExpired(now) {
      db.delete(dashboardSessions).where(lte(dashboardSessions.expiresAt, now)).run();
      db.delete(signInLinks).where(lte(signInLinks.expiresAt, now)).run();
    },
  };
}
