/**
 * Quota windows. Live keys count from the organization's billing day to the same day next month
 * (UTC midnight); test keys count per UTC calendar month.
 */
interface Window {
  start: Date;
  end: Date;
}

function utc(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day));
}

function billingWindow(billingDay: number, now: Date): Window {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  // Billing days stop at 28, so the anchor exists in every month.
  const startMonth = now.getUTCDate() >= billingDay ? m : m - 1;
  return { start: utc(y, startMonth, billingDay), end: utc(y, startMonth + 1, billingDay) };
}

export function windowFor(livemode: boolean, billingDay: number, now: Date): Window {
  return billingWindow(livemode ? billingDay : 1, now);
}

/** Whole seconds until `end`, at least 1 so a client never busy-loops on `Retry-After: 0`. */
export function secondsUntil(end: Date, now: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}
