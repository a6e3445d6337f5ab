import type { Store } from "../db/connection";
import type { Clock } from "../clock";
import { RollingWindow } from "../accounts/rolling-window";
import { AbuseThrottle } from "../accounts/abuse-throttle";
import { Admission } from "../engine/admission";
import { Metrics } from "./metrics";
import { WorkerPool, warmEntries } from "../workers/pool";
import { RulesetLifecycle } from "../rulesets/lifecycle";
import { DriftState } from "../rulesets/drift";
import { DEFAULT_REQUEST_DEADLINE_MS, defaultWorkerCount } from "../config";

export interface ApiConfig {
  /** Time a metered request may take from arrival, queue wait included (docs/limits.md). */
  requestDeadlineMs: number;
  /** Requests per rolling minute and client address for keyless routes and failed authentications. */
  anonymousPerMinute: number;
  metrics: boolean;
  engineConcurrency: number;
  engineMaxQueue: number;
}

const DEFAULT_API_CONFIG: ApiConfig = {
  requestDeadlineMs: DEFAULT_REQUEST_DEADLINE_MS,
  anonymousPerMinute: 120,
  metrics: true,
  engineConcurrency: defaultWorkerCount(),
  engineMaxQueue: 256,
};

/** Everything a request needs beyond itself; one instance per server. */
export interface Deps {
  store: Store;
  clock: Clock;
  config: ApiConfig;
  burst: RollingWindow;
  anonymous: RollingWindow;
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

export function createDeps(store: Store, clock: Clock, config: Partial<ApiConfig> = {}, lifecycle = new RulesetLifecycle()): Deps {
  const merged = { ...DEFAULT_API_CONFIG, ...config };
  let pool: WorkerPool | undefined;
  return {
    store,
    clock,
    config: merged,
    burst: new RollingWindow(),
    anonymous: new RollingWindow(),
    throttle: new AbuseThrottle(),
    admission: new Admission({ concurrency: merged.engineConcurrency, maxQueue: merged.engineMaxQueue }),
    metrics: new Metrics(),
    lifecycle,
    drift: new DriftState(store.db),
    workers: () => (pool ??= new WorkerPool(merged.engineConcurrency, { warm: warmEntries(clock) })),
    close: () => pool?.close(),
  };
}
