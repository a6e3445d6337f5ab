// Every Storage adapter the conformance suite (test/db/storage.test.ts) runs against. `missing`
// says why an adapter cannot run here (null when it can), for cannotRun in requirements.ts.
import type { Storage } from "../../src/db/storage";
import { openPostgresStorage } from "../../src/db/postgres/storage";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { freshDatabase, postgresMissing } from "./postgres";

export interface StorageAdapter {
  name: string;
  missing: string | null;
  /** A storage over an empty database of its own. */
  open(): Promise<Storage>;
}

export const storages: StorageAdapter[] = [
  { name: "sqlite", missing: null, open: async () => openSqliteStorage(":memory:") },
  { name: "postgres", missing: postgresMissing(), open: async () => openPostgresStorage(await freshDatabase()) },
];
