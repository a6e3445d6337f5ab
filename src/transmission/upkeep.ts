// What `serve` keeps doing for transmissions besides delivering them: judging inbound documents an
// engine outage left `received`, and dropping document bytes past their retention (once per hour,
// on one instance at a time).

import type { Storage } from "../db/storage";
import type { TransmissionSettings } from "../config";
import type { WorkerPool } from "../workers/pool";
import { runSteps } from "../stepped-loop";
import { judgePendingInbound } from "./inbound";
import { purgeSettledDocuments } from "./retention";

const HOUR_MS = 3_600_000;
/** The longest one judging may take before its lease lapses and another instance may take it. */
const JUDGE_TIMEOUT_MS = 55_000;

export function startTransmissionUpkeep(storage: Storage, now: () => Date, settings: TransmissionSettings, workers: () => WorkerPool, owner: string): { stop(): Promise<void> } | null {
  if (settings.provider === null) return null;
  let lastPurge = 0;
  return runSteps(
    "transmission-upkeep",
    async () => {
      await judgePendingInbound({ storage, now, judge: (request) => workers().receive(request, AbortSignal.timeout(JUDGE_TIMEOUT_MS)) }, owner);
      if (now().getTime() - lastPurge < HOUR_MS) return;
      lastPurge = now().getTime();
      const run = await storage.exclusively("retention-purge", false, () => purgeSettledDocuments(storage, now(), settings.retentionDays));
      if (run.ran && run.value > 0) console.log(JSON.stringify({ level: "info", event: "documents-purged", count: run.value, retentionDays: settings.retentionDays }));
    },
    15_000,
  );
}
