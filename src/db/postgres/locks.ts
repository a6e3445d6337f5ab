import type { ReservedSql, Sql } from "postgres";

/** A stable signed 64-bit advisory lock key for a name, the same in every instance and release. */
function advisoryKey(name: string): string {
  const digest = new Bun.CryptoHasher("sha256").update(name).digest();
  return Buffer.from(digest).readBigInt64BE(0).toString();
}

/**
 * Runs `work` while this session holds the named advisory lock, on a connection reserved for the
 * lock so the pool's other connections stay free. A waiting lock must not be cut by the statement
 * timeout (a bootstrap may queue behind a long one), so the session runs with the timeout off
 * until it is returned to the pool.
 */
export async function holdingLock<T>(
  sql: Sql,
  name: string,
  wait: boolean,
  work: (session: ReservedSql) => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const session = await sql.reserve();
  const key = advisoryKey(name);
  let locked = false;
  try {
    if (wait) {
      await session`set statement_timeout = 0`;
      await session`select pg_advisory_lock(${key}::bigint)`;
      locked = true;
    } else {
      const [row] = await session`select pg_try_advisory_lock(${key}::bigint) as locked`;
      locked = row!.locked === true;
      if (!locked) return { ran: false };
    }
    return { ran: true, value: await work(session) };
  } finally {
    // Unlocking fails only when the connection is lost, and a lost session's locks go with it.
    if (locked) await session`select pg_advisory_unlock(${key}::bigint)`.catch(() => {});
    await session`reset statement_timeout`.catch(() => {});
    session.release();
  }
}
