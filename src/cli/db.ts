import { openStorage } from "../db/open";
import { databaseSettings, UsageError } from "../config";

/**
 * `db migrate`: apply what is pending (PostgreSQL: under the advisory lock every instance takes, so
 * running it beside starting instances is safe). `db check`: reach the database and report the
 * migration state without changing anything; exit 1 when something is pending.
 */
export async function dbCommand(sub: string | undefined, flags: Record<string, string | undefined>): Promise<number> {
  if (sub !== "migrate" && sub !== "check") throw new UsageError("usage: db migrate | db check");
  const { location, postgres } = databaseSettings(flags.db);
  const storage = await openStorage(location, { ...postgres, migrate: sub === "migrate" });
  try {
    const state = await storage.check();
    console.log(JSON.stringify(state, null, 2));
    return state.migrations.pending.length ? 1 : 0;
  } finally {
    await storage.close();
  }
}
