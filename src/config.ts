/**
 * Every setting of the server, read and checked in one place: flags first, then environment, then
 * defaults (README, Environment). A value that is not allowed throws a UsageError naming the
 * variable and what it takes, so `serve` stops at start (exit code 2) instead of misbehaving later.
 * Only the ruleset build's RULESETS_MIRROR is read elsewhere (src/rulesets/sync.ts): the build
 * scripts are no part of the server.
 */

import { existsSync, statSync } from "node:fs";
import { DEFAULT_POSTGRES_OPTIONS, type PostgresOptions } from "./db/open";
import { isPostgresUrl } from "./db/location";
import { NETWORKS } from "./transmission/states";

type Env = Record<string, string | undefined>;

/** Wrong words on the command line or in the environment: exit code 2 and the message. */
export class UsageError extends Error {}

const DEFAULT_PORT = 8080;
export const DEFAULT_DATABASE_PATH = "./data/einvoice.sqlite";

/** Time a metered request may take from arrival, queue wait included (docs/limits.md). */
export const DEFAULT_REQUEST_DEADLINE_MS = 30_000;

/**
 * Longest BODY_TIMEOUT_MS and REQUEST_DEADLINE_MS. The runtime's idle timeout, which must outlast
 * the body deadline, stops at 255 s; it also closes a connection that stays silent while its
 * handler works (Bun 1.4 does so only for requests without a body), so a longer request deadline
 * could not be answered either.
 */
const MAX_WAIT_MS = 240_000;

/** Where the data lives: a SQLite file (the default) or a PostgreSQL URL, and how PostgreSQL is used. */
export interface DatabaseSettings {
  location: string;
  postgres: PostgresOptions;
}

/** `--db`, else DATABASE_URL (PostgreSQL), else DATABASE_PATH (SQLite), else ./data/einvoice.sqlite. */
export function databaseSettings(flag?: string, env: Env = process.env): DatabaseSettings {
  const url = given(env, "DATABASE_URL");
  if (url !== undefined && !isPostgresUrl(url)) throw new UsageError("DATABASE_URL must be a postgres:// or postgresql:// URL; a SQLite file goes in DATABASE_PATH");
  const pool = given(env, "DATABASE_POOL_SIZE");
  const timeout = given(env, "DATABASE_STATEMENT_TIMEOUT_MS");
  return {
    location: flag ?? url ?? given(env, "DATABASE_PATH") ?? DEFAULT_DATABASE_PATH,
    postgres: {
      poolSize: pool === undefined ? DEFAULT_POSTGRES_OPTIONS.poolSize : wholeNumber("DATABASE_POOL_SIZE", pool, 1, 200, "connections"),
      statementTimeoutMs: timeout === undefined ? DEFAULT_POSTGRES_OPTIONS.statementTimeoutMs : wholeNumber("DATABASE_STATEMENT_TIMEOUT_MS", timeout, 100, MAX_WAIT_MS, "milliseconds"),
    },
  };
}

/** One engine worker per core: the work is CPU-bound and the HTTP thread mostly waits. */
export const defaultWorkerCount = () => Math.max(1, navigator.hardwareConcurrency);

/** How the HTTP surface meets its clients (README, Environment; docs/limits.md, Bodies and Operator metrics). */
export interface HttpSettings {
  /** Time from a request's headers by which its whole body must have arrived. */
  bodyTimeoutMs: number;
  /** Bearer token `GET /metrics` requires; null serves the metrics to anyone who reaches them. */
  metricsToken: string | null;
  /** Serve `/metrics` on its own listener on 127.0.0.1 at this port, and not on the API port. */
  metricsPort: number | null;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = { bodyTimeoutMs: 20_000, metricsToken: null, metricsPort: null };

export type RuleEngineChoice = "native" | "saxonjs";

/** Everything `serve` runs with. */
interface ServerSettings {
  port: number;
  database: DatabaseSettings;
  requestDeadlineMs: number;
  /** False removes `GET /metrics` (METRICS=off). */
  metrics: boolean;
  http: HttpSettings;
  ruleEngine: RuleEngineChoice;
  /** DRIFT_CHECK=nightly, against `mirror` (a directory or URL) or upstream when null; null when off. */
  driftCheck: { mirror: string | null } | null;
  transmission: TransmissionSettings;
}

/**
 * TRANSMISSION=off (default): every transmission route answers 503 TRANSMISSION_DISABLED.
 * TRANSMISSION=sandbox: the sandbox provider serves the networks in TRANSMISSION_NETWORKS (default
 * all) for live and test keys alike; nothing leaves the machine (docs/transmission.md).
 */
export interface TransmissionSettings {
  provider: "sandbox" | null;
  networks: readonly string[];
  /** Days a settled transmission's document bytes are kept (TRANSMISSION_RETENTION_DAYS); its hash, events and receipts stay. */
  retentionDays: number;
  /** Where webhooks may go beyond public https destinations; absent: nowhere else. */
  webhooks?: WebhookDestinationPolicy;
}

const DEFAULT_RETENTION_DAYS = 90;

/**
 * The operator's exceptions to the webhook destination rules (docs/webhooks.md, "Destinations"):
 * WEBHOOK_ALLOW_PRIVATE=on lets any subscription reach loopback, private and link-local addresses;
 * WEBHOOK_ALLOWED_HOSTS lists host names (or IP literals) that may do so and may use plain http.
 */
export interface WebhookDestinationPolicy {
  allowPrivate: boolean;
  allowedHosts: readonly string[];
}

export const STRICT_WEBHOOK_DESTINATIONS: WebhookDestinationPolicy = { allowPrivate: false, allowedHosts: [] };

export const TRANSMISSION_OFF: TransmissionSettings = { provider: null, networks: [], retentionDays: DEFAULT_RETENTION_DAYS };

export function transmissionSettings(env: Env = process.env): TransmissionSettings {
  if ((oneOf("TRANSMISSION", given(env, "TRANSMISSION"), ["off", "sandbox"]) ?? "off") === "off") return TRANSMISSION_OFF;
  const webhooks = webhookDestinations(env);
  const listed = given(env, "TRANSMISSION_NETWORKS");
  const networks = listed === undefined ? NETWORKS : listed.split(",").map((n) => n.trim());
  for (const network of networks) oneOf("TRANSMISSION_NETWORKS", network, NETWORKS);
  const retention = given(env, "TRANSMISSION_RETENTION_DAYS");
  const retentionDays = retention === undefined ? DEFAULT_RETENTION_DAYS : wholeNumber("TRANSMISSION_RETENTION_DAYS", retention, 1, 3650, "days");
  return { provider: "sandbox", networks, retentionDays, webhooks };
}

/** A host name as URLs spell it (lower case; an IPv6 literal without its brackets). */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^[0-9a-f:.]+$/;

export function webhookDestinations(env: Env = process.env): WebhookDestinationPolicy {
  const listed = given(env, "WEBHOOK_ALLOWED_HOSTS");
  const allowedHosts = listed === undefined ? [] : listed.split(",").map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1"));
  for (const host of allowedHosts) {
    if (!HOST.test(host)) throw new UsageError(`WEBHOOK_ALLOWED_HOSTS must be comma-separated host names or IP addresses (no scheme, port or path), not '${host}'`);
  }
  return { allowPrivate: oneOf("WEBHOOK_ALLOW_PRIVATE", given(env, "WEBHOOK_ALLOW_PRIVATE"), ["on", "off"]) === "on", allowedHosts };
}

export function serverSettings(flags: { port?: string; db?: string } = {}, env: Env = process.env): ServerSettings {
  const port = flags.port ?? given(env, "PORT");
  const deadline = given(env, "REQUEST_DEADLINE_MS");
  const bodyTimeout = given(env, "BODY_TIMEOUT_MS");
  const metricsPort = given(env, "METRICS_PORT");
  const mirror = given(env, "DRIFT_CHECK_MIRROR");
  return {
    port: port === undefined ? DEFAULT_PORT : portNumber(flags.port === undefined ? "PORT" : "--port", port),
    database: databaseSettings(flags.db, env),
    requestDeadlineMs: deadline === undefined ? DEFAULT_REQUEST_DEADLINE_MS : milliseconds("REQUEST_DEADLINE_MS", deadline),
    metrics: oneOf("METRICS", given(env, "METRICS"), ["on", "off"]) !== "off",
    http: {
      bodyTimeoutMs: bodyTimeout === undefined ? DEFAULT_HTTP_SETTINGS.bodyTimeoutMs : milliseconds("BODY_TIMEOUT_MS", bodyTimeout),
      metricsToken: metricsToken(env.METRICS_TOKEN),
      metricsPort: metricsPort === undefined ? null : portNumber("METRICS_PORT", metricsPort),
    },
    ruleEngine: ruleEngineChoice(env.VALIDATION_ENGINE),
    driftCheck: oneOf("DRIFT_CHECK", given(env, "DRIFT_CHECK"), ["off", "nightly"]) === "nightly" ? { mirror: mirror === undefined ? null : mirrorSource(mirror) } : null,
    transmission: transmissionSettings(env),
  };
}

/**
 * `VALIDATION_ENGINE`: `native` (default) runs every rule file the native engine supports natively
 * and the rest on SaxonJS; `saxonjs` forces SaxonJS everywhere. `serve` checks it at start; each
 * engine worker, a thread of the same process, reads the same variable again when it builds its engines.
 */
export function ruleEngineChoice(value = process.env.VALIDATION_ENGINE): RuleEngineChoice {
  return oneOf("VALIDATION_ENGINE", value || undefined, ["native", "saxonjs"]) ?? "native";
}

/**
 * `MEMORY_TARGET_MIB`: a whole number of MiB (at least 64), `off`, or undefined for the default.
 * Read before anything else loads, since applying it re-executes the process (src/cli/memory-target.ts).
 */
export function memoryTargetMiB(value = process.env.MEMORY_TARGET_MIB): number | "off" | undefined {
  if (!value) return undefined;
  if (value === "off") return "off";
  if (!/^\d+$/.test(value) || Number(value) < 64) throw new UsageError(`MEMORY_TARGET_MIB must be a whole number of MiB (at least 64) or "off", not "${value}"`);
  return Number(value);
}

/** An empty variable counts as unset: `VAR=` in a shell or a compose file usually means "not set". */
function given(env: Env, name: string): string | undefined {
  return env[name] || undefined;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new UsageError(`${name} must be ${allowed.map((a) => `"${a}"`).join(" or ")}, not "${value}"`);
}

/** A whole number from `min` to `max`, `unit` naming what it counts in the message. */
function wholeNumber(name: string, raw: string, min: number, max: number, unit?: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`${name} must be a whole number${unit ? ` of ${unit}` : ""} from ${min} to ${max}, not '${raw}'`);
  }
  return Number(raw);
}

const portNumber = (name: string, raw: string) => wholeNumber(name, raw, 0, 65535);
const milliseconds = (name: string, raw: string) => wholeNumber(name, raw, 1000, MAX_WAIT_MS, "milliseconds");

/** Set but empty is refused rather than unset: an operator who meant to protect the metrics must not leave them open. */
function metricsToken(raw: string | undefined): string | null {
  // Short or spaced tokens are guessable or break the Authorization header.
  if (raw !== undefined && !/^[\x21-\x7e]{16,}$/.test(raw)) throw new UsageError("METRICS_TOKEN must be at least 16 visible ASCII characters without spaces");
  return raw ?? null;
}

/** A mirror directory that is missing at start would fail every nightly check, each only in the log. */
function mirrorSource(raw: string): string {
  if (/^https?:\/\//.test(raw) || (existsSync(raw) && statSync(raw).isDirectory())) return raw;
  throw new UsageError(`DRIFT_CHECK_MIRROR must be an http(s) URL or an existing directory, not '${raw}'`);
}
