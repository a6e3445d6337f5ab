/** Where the service keeps its state and listens, from flags first, then environment, then defaults. */
export const DEFAULT_PORT = 8080;
export const DEFAULT_DATABASE_PATH = "./data/einvoice.sqlite";

export function databasePath(flag?: string): string {
  return flag ?? process.env.DATABASE_PATH ?? DEFAULT_DATABASE_PATH;
}

export function listenPort(flag?: string): number {
  const raw = flag ?? process.env.PORT;
  if (raw === undefined) return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`port must be a whole number from 0 to 65535, not '${raw}'`);
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

/** Wrong words on the command line: exit code 2 and the message. */
export class UsageError extends Error {}
