// Bun's own SQL client has handed one prepared query's rows to another on a shared connection
// (oven-sh/bun#33665). The postgres driver prepares by default; this holds it to its own rows with
// far more queries in flight than connections, interleaving statements of different shapes.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import type { Storage } from "../../../src/db/storage";
import { openPostgresStorage } from "../../../src/db/postgres/storage";
import { cannotRun } from "../../support/requirements";
import { freshDatabase, postgresMissing } from "../../support/postgres";

const QUERIES = 3000;

describe.skipIf(cannotRun("the PostgreSQL driver regression", postgresMissing()))("prepared queries on a saturated pool", () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase();
  });

  test("the driver: each of 3000 interleaved prepared queries gets its own rows", async () => {
    const sql = postgres(url, { max: 4, prepare: true });
    try {
      const shapes = [
        async (i: number) => expect([...(await sql`select ${i}::int as i, md5(${i}::text) as h`)]).toEqual([{ i, h: new Bun.CryptoHasher("md5").update(String(i)).digest("hex") }]),
        async (i: number) => expect((await sql`select g from generate_series(${i}::int, ${i + (i % 7)}::int) as g`).map((r) => r.g)).toEqual(Array.from({ length: (i % 7) + 1 }, (_, k) => i + k)),
        async (i: number) => expect([...(await sql`select ${`text ${i}`}::text as t, ${i % 2 === 0}::boolean as even`)]).toEqual([{ t: `text ${i}`, even: i % 2 === 0 }]),
      ];
      await Promise.all(Array.from({ length: QUERIES }, (_, i) => shapes[i % shapes.length]!(i)));
    } finally {
      await sql.end();
    }
  });

  describe("the storage", () => {
    let storage: Storage;
    const orgs = Array.from({ length: 100 }, (_, i) => ({ id: `org_${i}`, name: `Org ${i}`, plan: "free", billingDay: (i % 28) + 1, rulesetChannel: "latest", createdAt: "2026-01-01T00:00:00.000Z" }));
    beforeAll(async () => {
      storage = await openPostgresStorage(url, { poolSize: 3 });
      for (const org of orgs) await storage.orgs.insert(org);
    });
    afterAll(() => storage.close());

    test("3000 concurrent lookups by id and by name each return their own organization", async () => {
      await Promise.all(
        Array.from({ length: QUERIES }, async (_, i) => {
          const org = orgs[(i * 37) % orgs.length]!;
          expect(await (i % 2 ? storage.orgs.byId(org.id) : storage.orgs.byName(org.name))).toEqual(org);
        }),
      );
    });
  });
});
