import type { Storage } from "../db/storage";
import type { Clock } from "../clock";
import { AbuseThrottle } from "../accounts/abuse-throttle";
import { Admission } from "../engine/admission";
import { Metrics } from "./metrics";
import { WorkerPool, warmEntries } from "../workers/pool";
import { RulesetLifecycle } from "../rulesets/lifecycle";
import { DriftState } from "../rulesets/drift";
import { DEFAULT_REQUEST_DEADLINE_MS, defaultWorkerCount, TRANSMISSION_OFF, type TransmissionSettings } from "../config";

export interface ApiConfig {
  /** Time a metered request may take from arrival, queue wait included (docs/limits.md). */
  requestDeadlineMs: number;
  /** Requests per rolling minute and client address for keyless routes and failed authentications. */
  anonymousPerMinute: number;
  metrics: boolean;
  engineConcurrency: number;
  engineMaxQueue: number;
  /** TRANSMISSION and TRANSMISSION_NETWORKS (src/config.ts). */
  transmission: TransmissionSettings;
}

const DEFAULT_API_CONFIG: ApiConfig = {
  requestDeadlineMs: DEFAULT_REQUEST_DEADLINE_MS,
  anonymousPerMinute: 120,
  metrics: true,
  engineConcurrency: defaultWorkerCount(),
  engineMaxQueue: 256,
  transmission: TRANSMISSION_OFF,
};

/** Everything a request needs beyond itself; one instance per server. */
export interface Deps {
  storage: Storage;
  clock: Clock;
  config: ApiConfig;
  /** Entered and extended through the storage, so with several instances it holds on every one. */
  throttle: AbuseThrottle;
  admission: Admission;
  metrics: Metrics;
  /** Which ruleset versions serve on which day (tests inject their own version table). */
  lifecycle: RulesetLifecycle;
  drift: DriftState;
  /** The engine workers (every job on caller bytes), started on first use (or by `serve` at start, to warm them). */
  workers(): WorkerPool;
  close(): void;
}

export function createDeps(storage: Storage, clock: Clock, config: Partial<ApiConfig> = {}, lifecycle = new RulesetLifecycle()): Deps {
  const merged = { ...DEFAULT_API_CONFIG, ...config };
  let pool: WorkerPool | undefined;
  return {
    storage,
    clock,
    config: merged,
    throttle: new AbuseThrottle(storage.counters, storage.throttles),
    admission: new Admission({ concurrency: merged.engineConcurrency, maxQueue: merged.engineMaxQueue }),
    metrics: new Metrics(),
    lifecycle,
    drift: new DriftState(storage),
    workers: () => (pool ??= new WorkerPool(merged.engineConcurrency, { warm: warmEntries(clock) })),
    close: () => pool?.close(),
  };
}
