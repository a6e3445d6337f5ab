/** The plans of the spec's Limits table; `planId` is what `GET /v1/me` reports (null on the free tier). */
export const PLANS = {
  free: { planId: null, name: "Free", burstPerMinute: 10, monthlyQuota: 20 },
  starter: { planId: 1, name: "Starter", burstPerMinute: 100, monthlyQuota: 2000 },
  growth: { planId: 2, name: "Growth", burstPerMinute: 200, monthlyQuota: 10000 },
  business: { planId: 3, name: "Business", burstPerMinute: 300, monthlyQuota: 20000 },
  scale: { planId: 4, name: "Scale", burstPerMinute: 500, monthlyQuota: 50000 },
} as const satisfies Record<string, { planId: number | null; name: string; burstPerMinute: number; monthlyQuota: number }>;

export type PlanKey = keyof typeof PLANS;
export const PLAN_KEYS = Object.keys(PLANS) as PlanKey[];

/** Test keys: flat sandbox allowance, whatever the plan. */
export const SANDBOX = { burstPerMinute: 30, monthlyQuota: 400 } as const;

export function isPlanKey(value: string): value is PlanKey {
  return Object.hasOwn(PLANS, value);
}

/** Burst and monthly cap that apply to a key of the given mode in an organization on `plan`. */
export function allowanceFor(plan: PlanKey, livemode: boolean): { burstPerMinute: number; monthlyQuota: number } {
  return livemode ? PLANS[plan] : SANDBOX;
}
