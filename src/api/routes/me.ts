import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route";
import { PLANS, allowanceFor } from "../../accounts/plans";
import { keyPrefix } from "../../accounts/keys";
import { quotaStatus } from "../../accounts/quota";
import type { Deps } from "../deps";
import type { Organization } from "../../accounts/orgs";

export const Account = Type.Object(
  {
    keyId: Type.Union([Type.String({ format: "uuid" }), Type.Null()]),
    keyPrefix: Type.Union([Type.String({ description: "first eight characters of the key: svc_live or svc_test" }), Type.Null()]),
    livemode: Type.Boolean({ description: "false for a test key; selects which allowance `quota` describes" }),
    org: Type.Object({
      id: Type.String({ format: "uuid" }),
      name: Type.String(),
      rulesetChannel: Type.Union([Type.Literal("latest"), Type.Literal("previous")]),
    }),
    plan: Type.Object({
      id: Type.Union([Type.Integer(), Type.Null()], { description: "null on the free tier" }),
      name: Type.String(),
    }),
    rateLimitPerMinute: Type.Integer({ description: "burst allowance of this key's mode" }),
    quota: Type.Object({
      limit: Type.Integer(),
      used: Type.Integer(),
      remaining: Type.Integer(),
      resetsAt: Type.String({ format: "date-time", description: "end of the counted window (UTC)" }),
    }),
  },
  { title: "Account" },
);

export const meRoute = defineRoute({
  method: "GET",
  path: "/v1/me",
  auth: "key",
  doc: {
    summary: "Account, plan and quota of the calling key",
    description: "The credential check: costs no quota. `quota` describes the live plan window for a live key and the sandbox allowance for a test key.",
    tags: ["account"],
    errors: [],
    response: { data: Account },
  },
  async handle(ctx) {
    const { key, presentedKey, org, livemode } = ctx.caller;
    return {
      keyId: key?.id ?? null,
      keyPrefix: presentedKey === null ? null : keyPrefix(presentedKey),
      livemode,
      org: { id: org.id, name: org.name, rulesetChannel: org.rulesetChannel },
      ...(await standing(ctx.deps, org, livemode)),
    };
  },
});

/** Plan, burst and quota of one mode: what `GET /v1/me` reports, and the dashboard's overview shows for both modes. */
export async function standing(deps: Deps, org: Organization, livemode: boolean) {
  const plan = PLANS[org.plan];
  return {
    plan: { id: plan.planId, name: plan.name },
    rateLimitPerMinute: allowanceFor(org.plan, livemode).burstPerMinute,
    quota: await quotaStatus(deps.storage, deps.clock(), org, livemode),
  };
}
