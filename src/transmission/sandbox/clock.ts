// The sandbox network's clock: each organization's runs ahead of the system clock by an offset an
// operator (`einvoice sandbox advance`) or a test moves forward, so a delay of hours, a deadline,
// its grace window and the retries in between play in seconds. Only ever forward: a network's
// receipts cannot be dated before the answers already given.

import type { Storage } from "../../db/storage";
import type { Clock } from "../../clock";

/** An organization's time on the sandbox network. */
export const sandboxNow = async (storage: Storage, clock: Clock, orgId: string): Promise<Date> => new Date(clock().getTime() + (await storage.sandbox.offset(orgId)));

/** A scheduled instant `byMs` sooner: what was due on the moved clock is due on the system clock. */
export const shiftedBack = (instant: string, byMs: number): string => new Date(new Date(instant).getTime() - byMs).toISOString();

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90m`, `2h`, `15d`, `30s` (and sums like `1d12h`) in milliseconds; null for anything else. */
export function duration(text: string): number | null {
  const parts = [...text.trim().matchAll(/(\d+)([smhd])/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== text.trim()) return null;
  return parts.reduce((ms, [, n, unit]) => ms + Number(n) * UNITS[unit], 0);
}
