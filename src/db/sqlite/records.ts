// Stored PDF templates and the drift check's history in SQLite.

import { and, desc, eq } from "drizzle-orm";
import type { Db } from "./connection";
import { driftChecks, pdfTemplates } from "./schema";
import type { DriftRepository, DriftRow, TemplateRepository } from "../storage";

export function sqliteTemplates(db: Db): TemplateRepository {
  return {
    async insert(row) {
      return db.insert(pdfTemplates).values(row).onConflictDoNothing().returning().get() !== undefined;
    },
    async listFor(orgId) {
      return db.select().from(pdfTemplates).where(eq(pdfTemplates.orgId, orgId)).orderBy(pdfTemplates.createdAt).all();
    },
    async find(orgId, ref) {
      return db
        .select()
        .from(pdfTemplates)
        .where(and(eq(pdfTemplates.ref, ref), eq(pdfTemplates.orgId, orgId)))
        .get();
    },
    async delete(orgId, ref) {
      return db.delete(pdfTemplates).where(and(eq(pdfTemplates.ref, ref), eq(pdfTemplates.orgId, orgId))).returning().get() !== undefined;
    },
  };
}

const row = ({ id: _id, ...rest }: typeof driftChecks.$inferSelect): DriftRow => rest;

export function sqliteDrift(db: Db): DriftRepository {
  return {
    async insert(check) {
      db.insert(driftChecks).values(check).run();
    },
    async newestFirst() {
      return db.select().from(driftChecks).orderBy(desc(driftChecks.checkedAt), desc(driftChecks.id)).all().map(row);
    },
    async history(path) {
      return db.select().from(driftChecks).where(eq(driftChecks.path, path)).orderBy(desc(driftChecks.checkedAt), desc(driftChecks.id)).all().map(row);
    },
  };
}
