import { afterAll, beforeAll } from "bun:test";
import { openSqliteStorage, type SqliteStorage } from "../../src/db/sqlite/storage";
import { createDeps, type ApiConfig, type Deps } from "../../src/api/deps";
import { createApp } from "../../src/api/app";
import { createOrg, type Organization } from "../../src/accounts/orgs";
import { createKey } from "../../src/accounts/keys";
import type { RouteDef } from "../../src/api/route";
import { RulesetLifecycle } from "../../src/rulesets/lifecycle";
import type { WorkerPool } from "../../src/workers/pool";

/** A clock the test moves by hand. */
export class TestClock {
  constructor(public now: Date) {}
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }
}

export interface Harness {
  storage: SqliteStorage;
  clock: TestClock;
  deps: Deps;
  base: string;
  org(name: string, plan?: string, billingDay?: number): Promise<Organization>;
  key(org: Organization, mode: "live" | "test"): Promise<string>;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: BodyInit | null, headers?: Record<string, string>): Promise<Response>;
  /** The engine workers the server judges with (a test may hand them a job directly). */
  workers(): WorkerPool;
  /** Runs one SQLite statement as written, for a test that must change a row by hand. */
  sql(statement: string, params: unknown[]): Promise<void>;
  close(): void;
}

/** A real server on a free loopback port over an in-memory database. */
export function startHarness(options: { now?: Date; config?: Partial<ApiConfig>; routes?: RouteDef[]; dbPath?: string; lifecycle?: RulesetLifecycle } = {}): Harness {
  const storage = openSqliteStorage(options.dbPath ?? ":memory:");
  const clock = new TestClock(options.now ?? new Date("2026-11-22T12:00:00Z"));
  const deps = createDeps(storage, clock.read, options.config, options.lifecycle);
  const app = createApp(deps, options.routes ?? []).listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${app.server!.port}`;
  return {
    storage,
    clock,
    deps,
    base,
    org: (name, plan = "free", billingDay = 1) => createOrg(storage, clock.read, { name, plan, billingDay }),
    key: async (org, mode) => (await createKey(storage, clock.read, org, mode)).key,
    get: (path, key, headers = {}) => fetch(base + path, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } }),
    post: (path, body, headers = {}) => fetch(base + path, { method: "POST", body, headers }),
    sql: async (statement, params) => void storage.sqlite.run(statement, params as never[]),
    workers: () => deps.workers(),
    close: () => {
      app.stop(true);
      void storage.close();
    },
  };
}

/**
 * A harness whose validation workers are started and warm before the first test, and stopped
 * after the last: for files that send documents to the engine.
 */
export function startValidatingHarness(options: Parameters<typeof startHarness>[0] = {}): Harness {
  const h = startHarness({ ...options, config: { engineConcurrency: 2, ...options.config } });
  beforeAll(async () => {
    await h.deps.workers().ready();
  }, 120_000);
  afterAll(() => {
    h.deps.close();
    h.close();
  });
  return h;
}

export async function envelope(response: Response): Promise<any> {
  return JSON.parse(await response.text());
}
