/** Where the service keeps its state and listens, from flags first, then environment, then defaults. */
export const DEFAULT_PORT = 8080;
export const DEFAULT_DATABASE_PATH = "./data/einvoice.sqlite";

export function databasePath(flag?: string): string {
  return flag ?? process.env.DATABASE_PATH ?? DEFAULT_DATABASE_PATH;
}

export function listenPort(flag?: string): number {
  const raw = flag ?? process.env.PORT;
  return raw === undefined ? DEFAULT_PORT : portNumber("port", raw);
}

function portNumber(name: string, raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`${name} must be a whole number from 0 to 65535, not '${raw}'`);
  return port;
}

/** One validation worker per core: validation is CPU-bound and the HTTP thread mostly waits. */
export const defaultWorkerCount = () => Math.max(1, navigator.hardwareConcurrency);

/** Environment switches of the server (documented in README). */
export function serverEnv() {
  const deadline = process.env.REQUEST_DEADLINE_MS;
  return {
    metrics: process.env.METRICS !== "off",
    ...(deadline ? { requestDeadlineMs: Number(deadline) } : {}),
  };
}

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

/** Longest BODY_TIMEOUT_MS: the runtime's idle timeout, which must outlast it, stops at 255 s. */
export const MAX_BODY_TIMEOUT_MS = 240_000;

export function httpEnv(): HttpSettings {
  const { BODY_TIMEOUT_MS: timeout, METRICS_TOKEN: token, METRICS_PORT: port } = process.env;
  if (timeout !== undefined && !(/^\d+$/.test(timeout) && Number(timeout) >= 1000 && Number(timeout) <= MAX_BODY_TIMEOUT_MS)) {
    throw new UsageError(`BODY_TIMEOUT_MS must be a whole number of milliseconds from 1000 to ${MAX_BODY_TIMEOUT_MS}, not '${timeout}'`);
  }
  // Short or spaced tokens are guessable or break the Authorization header.
  if (token !== undefined && !/^[\x21-\x7e]{16,}$/.test(token)) {
    throw new UsageError("METRICS_TOKEN must be at least 16 visible ASCII characters without spaces");
  }
  return {
    bodyTimeoutMs: timeout === undefined ? DEFAULT_HTTP_SETTINGS.bodyTimeoutMs : Number(timeout),
    metricsToken: token ?? null,
    metricsPort: port === undefined ? null : portNumber("METRICS_PORT", port),
  };
}

/** Wrong words on the command line: exit code 2 and the message. */
export class UsageError extends Error {}
