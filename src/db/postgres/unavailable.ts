import { StorageUnavailable } from "../storage";

/** The driver's own codes for a connection that could not be made or was lost (postgres.js, Node sockets). */
const DRIVER_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * SQLSTATEs meaning the server cannot answer now rather than that the statement is wrong:
 * 57014 query_canceled (the statement timeout), 57P01-57P03 shutdown and start-up, 53300 too many
 * connections, and class 08, connection exceptions.
 */
const unavailableState = (code: string) => ["57014", "57P01", "57P02", "57P03", "53300"].includes(code) || code.startsWith("08");

/** Why `error` (or what it wraps: drizzle wraps driver errors in DrizzleQueryError) means the database is unavailable, or null. */
function unavailableReason(error: unknown): string | null {
  for (let e = error; e instanceof Error || (typeof e === "object" && e !== null); e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (DRIVER_CODES.has(code) || unavailableState(code))) return code;
    if ((e as { cause?: unknown }).cause === e) break;
  }
  return null;
}

function rethrow(error: unknown): never {
  if (error instanceof StorageUnavailable) throw error;
  const reason = unavailableReason(error);
  throw reason === null ? error : new StorageUnavailable(reason);
}

/** Runs `work`, turning a lost database into StorageUnavailable and letting every other error through. */
export function unavailableAsError<T>(work: () => Promise<T>): Promise<T> {
  return work().catch(rethrow);
}

/** The repository with every method's rejection mapped as `unavailableAsError` does. */
export function guarded<T extends object>(repository: T): T {
  const methods = Object.entries(repository).map(([name, method]) => [
    name,
    (...args: unknown[]) => unavailableAsError(() => (method as (...a: unknown[]) => Promise<unknown>)(...args)),
  ]);
  return Object.fromEntries(methods) as T;
}
