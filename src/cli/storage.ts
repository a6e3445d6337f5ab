import { openStorage } from "../db/open";
import type { Storage } from "../db/storage";
import { databaseSettings } from "../config";

/** A command's database: `--db` (a SQLite path or a PostgreSQL URL) or the environment, as `serve` reads it; closed after. */
export async function withStorage<T>(flag: string | undefined, work: (storage: Storage) => Promise<T>): Promise<T> {
  const { location, postgres } = databaseSettings(flag);
  const storage = await openStorage(location, postgres);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}
