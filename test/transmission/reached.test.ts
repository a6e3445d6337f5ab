// The delivery worker tells every status it moves a transmission to (serve counts them in the
// operator metrics, service_transmissions_total), once per move, never for a schedule.

import { expect, test } from "bun:test";
import { openSqliteStorage } from "../../src/db/sqlite/storage";
import { createOrg } from "../../src/accounts/orgs";
import { sandboxWorker } from "../../src/transmission/sandbox/provider";
import { queueDirectly } from "./delivery-support";

test("each status reached is told once, in order", async () => {
  const storage = openSqliteStorage(":memory:");
  const clock = () => new Date("2026-11-22T12:00:00Z");
  const org = await createOrg(storage, clock, { name: "metrics", plan: "scale" });
  await queueDirectly(storage, clock(), { orgId: org.id, livemode: false, network: "peppol", recipient: { scheme: "0088", id: "4000001000012" }, xml: "<Invoice/>" });
  const reached: string[] = [];
  const worker = sandboxWorker(storage, clock, "metrics-test", undefined, (status) => reached.push(status));
  await worker.drain();
  expect(reached).toEqual(["submitting", "submitted", "cleared", "delivered"]);
  await storage.close();
});
