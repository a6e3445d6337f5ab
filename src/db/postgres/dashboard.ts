// Dashboard users, sessions and sign-in links in PostgreSQL: using a link is one conditional
// UPDATE, so instances racing on one link hand it to one browser.
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import type { DashboardRepository } from "../storage";
import type { Db } from "./accounts";
import { dashboardSessions, dashboardUsers, signInLinks } from "./schema";

export function dashboardRepository(db: Db): DashboardRepository {
  return {
    async insertUser(row) {
      return (await db.insert(dashboardUsers).values(row).onConflictDoNothing().returning({ id: dashboardUsers.id })).length === 1;
    },
    async userByEmail(email) {
      return (await db.select().from(dashboardUsers).where(eq(dashboardUsers.email, email)))[0];
    },
    async insertSession(row) {
      await db.insert(dashboardSessions).values(row);
    },
    async session(tokenHash, now) {
      return (await db.select().from(dashboardSessions).where(and(eq(dashboardSessions.tokenHash, tokenHash), gt(dashboardSessions.expiresAt, now))))[0];
    },
    async deleteSession(tokenHash) {
      await db.delete(dashboardSessions).where(eq(dashboardSessions.tokenHash, tokenHash));
    },
    async insertLink(row) {
      await db.insert(signInLinks).values(row);
    },
    async useLink(tokenHash, now) {
      const used = await db
        .update(signInLinks)
        .set({ usedAt: now })
        .where(and(eq(signInLinks.tokenHash, tokenHash), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
        .returning({ orgId: signInLinks.orgId });
      return used[0]?.orgId;
    },
    async purgeExpired(now) {
      await db.delete(dashboardSessions).where(lte(dashboardSessions.expiresAt, now));
      await db.delete(signInLinks).where(lte(signInLinks.expiresAt, now));
    },
  };
}
