// Stored PDF templates and the ruleset drift log: plain rows, nothing to race for.
import { and, asc, desc, eq } from "drizzle-orm";
import type { DriftRepository, DriftRow, TemplateRepository } from "../storage";
import type { Db } from "./accounts";
import { driftChecks, pdfTemplates } from "./schema";

export function templateRepository(db: Db): TemplateRepository {
  const theTemplate = (orgId: string, ref: string) => and(eq(pdfTemplates.ref, ref), eq(pdfTemplates.orgId, orgId));
  return {
    async insert(row) {
      return (await db.insert(pdfTemplates).values(row).onConflictDoNothing().returning({ ref: pdfTemplates.ref })).length === 1;
    },
    listFor: (orgId) => db.select().from(pdfTemplates).where(eq(pdfTemplates.orgId, orgId)).orderBy(asc(pdfTemplates.createdAt), asc(pdfTemplates.ref)),
    async find(orgId, ref) {
      return (await db.select().from(pdfTemplates).where(theTemplate(orgId, ref)))[0];
    },
    async delete(orgId, ref) {
      return (await db.delete(pdfTemplates).where(theTemplate(orgId, ref)).returning({ ref: pdfTemplates.ref })).length === 1;
    },
  };
}

const driftRow = {
  key: driftChecks.key,
  version: driftChecks.version,
  path: driftChecks.path,
  checkedAt: driftChecks.checkedAt,
  source: driftChecks.source,
  expectedSha256: driftChecks.expectedSha256,
  actualSha256: driftChecks.actualSha256,
  outcome: driftChecks.outcome,
  detail: driftChecks.detail,
};

export function driftRepository(db: Db): DriftRepository {
  const newestFirst = [desc(driftChecks.checkedAt), desc(driftChecks.id)];
  return {
    async insert(row: DriftRow) {
      await db.insert(driftChecks).values(row);
    },
    newestFirst: () => db.select(driftRow).from(driftChecks).orderBy(...newestFirst),
    history: (path) => db.select(driftRow).from(driftChecks).where(eq(driftChecks.path, path)).orderBy(...newestFirst),
  };
}
