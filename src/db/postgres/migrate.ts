import type { ReservedSql, Sql } from "postgres";
import { embeddedMigrations, type Migration } from "./migrations";
import { holdingLock } from "./locks";

// drizzle's own bookkeeping, so `drizzle-kit migrate` and this runner agree on what is applied.
const BOOKKEEPING = `create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`;

/** The newest applied migration's `when`, as drizzle's migrator decides what is pending. */
async function lastApplied(session: Sql | ReservedSql): Promise<number | null> {
  const exists = await session`select to_regclass('drizzle.__drizzle_migrations') as t`;
  if (exists[0]!.t === null) return null;
  const [row] = await session`select max(created_at)::text as last from drizzle.__drizzle_migrations`;
  return row!.last === null ? null : Number(row!.last);
}

async function applyOne(session: ReservedSql, migration: Migration): Promise<void> {
  await session.unsafe("begin");
  try {
    for (const statement of migration.statements) await session.unsafe(statement);
    await session`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.when})`;
    await session.unsafe("commit");
  } catch (error) {
    await session.unsafe("rollback").catch(() => {});
    throw error;
  }
}

/**
 * Applies the pending migrations, each in its own transaction. drizzle's `migrate()` takes no lock
 * (drizzle-orm#874), so instances starting together serialise on a session advisory lock and each
 * one re-reads what is applied once it holds it. Returns the tags this call applied.
 */
export async function applyMigrations(sql: Sql): Promise<string[]> {
  const outcome = await holdingLock(sql, "einvoice.migrations", true, async (session) => {
    await session.unsafe("create schema if not exists drizzle");
    await session.unsafe(BOOKKEEPING);
    const last = await lastApplied(session);
    const pending = embeddedMigrations().filter((m) => last === null || m.when > last);
    for (const migration of pending) await applyOne(session, migration);
    return pending.map((m) => m.tag);
  });
  return outcome.ran ? outcome.value : [];
}

/** What is applied and what is not, without applying anything. */
export async function migrationState(sql: Sql): Promise<{ applied: string[]; pending: string[] }> {
  const last = await lastApplied(sql);
  const all = embeddedMigrations();
  const isApplied = (m: Migration) => last !== null && m.when <= last;
  return { applied: all.filter(isApplied).map((m) => m.tag), pending: all.filter((m) => !isApplied(m)).map((m) => m.tag) };
}
