// Several instances on one database: two dispatchers, each over its own connection, step at once
// over the same events and subscriptions. Each event reaches each receiver exactly once.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Storage } from "../../src/db/storage";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { openPostgresStorage } from "../../src/db/postgres/storage";
import { createOrg } from "../../src/accounts/orgs";
import { WebhookDispatcher } from "../../src/webhooks/dispatcher";
import { createSubscription } from "../../src/webhooks/subscriptions";
import { TestClock } from "../support/harness";
import { cannotRun } from "../support/requirements";
import { freshDatabase, postgresMissing } from "../support/postgres";
import { LOOPBACK_ALLOWED, queueTransmission, receiver } from "./support";

const folder = mkdtempSync(join(tmpdir(), "webhooks-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Two storages over one database, as two instances would hold them. */
const databases: { name: string; missing: string | null; open(): Promise<[Storage, Storage]> }[] = [
  {
    name: "sqlite",
    missing: null,
    async open() {
      const path = join(folder, `${crypto.randomUUID()}.sqlite`);
      return [openSqliteStorage(path), openSqliteStorage(path, { migrate: false })];
    },
  },
  {
    name: "postgres",
    missing: postgresMissing(),
    async open() {
      const url = await freshDatabase();
      const first = await openPostgresStorage(url);
      return [first, await openPostgresStorage(url)];
    },
  },
];

const EVENTS = 40;

for (const database of databases) {
  describe.skipIf(cannotRun(`webhooks on ${database.name}`, database.missing))(`webhook dispatchers on one ${database.name} database`, () => {
    test("two dispatchers stepping at once send each delivery once", async () => {
      const [a, b] = await database.open();
      const clock = new TestClock(new Date());
      const hooks = [receiver([200]), receiver([200])];
      try {
        const org = await createOrg(a, clock.read, { name: "acme" });
        for (const r of hooks) await createSubscription(a, clock.read, LOOPBACK_ALLOWED, org.id, { url: r.url });
        await Promise.all(Array.from({ length: EVENTS }, () => queueTransmission(a, org.id, true, clock.now)));
        const dispatchers = [a, b].map((s) => new WebhookDispatcher(s, { clock: clock.read, policy: LOOPBACK_ALLOWED, timeoutMs: 5_000 }));
        // Four steps at a time, two per instance, so claims and fan-outs race within and across instances.
        for (let round = 0; round < 8; round++) await Promise.all(dispatchers.flatMap((d) => [d.step(), d.step()]));
        for (const r of hooks) {
          const ids = r.received.map((m) => m.headers.get("webhook-id"));
          expect(ids).toHaveLength(EVENTS);
          expect(new Set(ids).size).toBe(EVENTS);
          expect(new Set(r.received.map((m) => JSON.parse(m.body).id)).size).toBe(EVENTS);
        }
        for (const sub of await a.webhooks.listFor(org.id)) {
          const deliveries = await b.webhooks.deliveries(sub.id, 100);
          expect(deliveries).toHaveLength(EVENTS);
          expect(deliveries.every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
        }
      } finally {
        for (const r of hooks) r.stop();
        await a.close();
        await b.close();
      }
    }, 60_000);
  });
}
