import type { OrgRow, Storage } from "../db/storage";
import { isPlanKey, PLAN_KEYS, PLANS, type PlanKey } from "./plans";
import type { Clock } from "../clock";
import { AccountError } from "./errors";
import { windowOpening } from "./quota";

export type Organization = OrgRow & { plan: PlanKey };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface CreateOrgInput {
  name: string;
  plan?: string;
  billingDay?: number;
}

function checkPlan(plan: string): PlanKey {
  if (!isPlanKey(plan)) throw new AccountError(`unknown plan '${plan}'; choose one of ${PLAN_KEYS.join(", ")}`);
  return plan;
}

export async function createOrg(storage: Storage, clock: Clock, input: CreateOrgInput): Promise<Organization> {
  const name = input.name.trim();
  if (!name) throw new AccountError("an organization needs a non-empty --name");
  if (name.length > 200) throw new AccountError("an organization name has at most 200 characters");
  if (UUID.test(name)) throw new AccountError("an organization name cannot look like a UUID (ids and names address organizations alike)");
  const billingDay = input.billingDay ?? 1;
  if (!Number.isInteger(billingDay) || billingDay < 1 || billingDay > 28) {
    throw new AccountError("--billing-day must be a whole number from 1 to 28 (the day exists in every month)");
  }
  const row = {
    id: crypto.randomUUID(),
    name,
    plan: checkPlan(input.plan ?? "free"),
    billingDay,
    rulesetChannel: "latest",
    createdAt: clock().toISOString(),
  };
  // The unique name decides, so two creations racing on one name cannot both succeed.
  if (!(await storage.orgs.insert(row))) throw new AccountError(`an organization named '${name}' exists already`);
  return row;
}

export async function getOrg(storage: Storage, id: string): Promise<Organization | undefined> {
  return (await storage.orgs.byId(id)) as Organization | undefined;
}

/** ORG on the command line is an id or a unique name. */
export async function findOrg(storage: Storage, idOrName: string): Promise<Organization> {
  const byId = UUID.test(idOrName) ? await getOrg(storage, idOrName.toLowerCase()) : undefined;
  const org = byId ?? ((await storage.orgs.byName(idOrName)) as Organization | undefined);
  if (!org) throw new AccountError(`no organization with id or name '${idOrName}'`);
  return org;
}

export async function listOrgs(storage: Storage): Promise<Organization[]> {
  return (await storage.orgs.list()) as Organization[];
}

/** Upgrades raise the running window's cap at once; downgrades wait for the next window. */
export async function setPlan(storage: Storage, clock: Clock, org: Organization, plan: string): Promise<Organization> {
  const next = checkPlan(plan);
  await storage.orgs.changePlan(org.id, next, windowOpening(clock(), org, true), PLANS[next].monthlyQuota);
  return { ...org, plan: next };
}

export async function setRulesetChannel(storage: Storage, org: Organization, channel: string): Promise<Organization> {
  if (channel !== "latest" && channel !== "previous") throw new AccountError(`the ruleset channel must be latest or previous, not '${channel}'`);
  await storage.orgs.setRulesetChannel(org.id, channel);
  return { ...org, rulesetChannel: channel };
}
