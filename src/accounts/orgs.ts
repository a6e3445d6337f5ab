import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { organizations } from "../db/schema";
import { preparedOn } from "../db/prepared";
import { isPlanKey, PLAN_KEYS, type PlanKey } from "./plans";
import type { Clock } from "../clock";
import { AccountError } from "./errors";
import { pinWindowBeforePlanChange } from "./quota";

export type Organization = typeof organizations.$inferSelect & { plan: PlanKey };

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

export function createOrg(db: Db, clock: Clock, input: CreateOrgInput): Organization {
  const name = input.name.trim();
  if (!name) throw new AccountError("an organization needs a non-empty --name");
  if (name.length > 200) throw new AccountError("an organization name has at most 200 characters");
  if (UUID.test(name)) throw new AccountError("an organization name cannot look like a UUID (ids and names address organizations alike)");
  const billingDay = input.billingDay ?? 1;
  if (!Number.isInteger(billingDay) || billingDay < 1 || billingDay > 28) {
    throw new AccountError("--billing-day must be a whole number from 1 to 28 (the day exists in every month)");
  }
  if (db.select().from(organizations).where(eq(organizations.name, name)).get()) {
    throw new AccountError(`an organization named '${name}' exists already`);
  }
  const row = {
    id: crypto.randomUUID(),
    name,
    plan: checkPlan(input.plan ?? "free"),
    billingDay,
    rulesetChannel: "latest",
    createdAt: clock().toISOString(),
  };
  db.insert(organizations).values(row).run();
  return row;
}

const orgById = preparedOn((db) => db.select().from(organizations).where(eq(organizations.id, sql.placeholder("id"))).prepare());

export function getOrg(db: Db, id: string): Organization | undefined {
  return orgById(db).get({ id }) as Organization | undefined;
}

/** ORG on the command line is an id or a unique name. */
export function findOrg(db: Db, idOrName: string): Organization {
  const byId = UUID.test(idOrName) ? getOrg(db, idOrName.toLowerCase()) : undefined;
  const org = byId ?? (db.select().from(organizations).where(eq(organizations.name, idOrName)).get() as Organization | undefined);
  if (!org) throw new AccountError(`no organization with id or name '${idOrName}'`);
  return org;
}

export function listOrgs(db: Db): Organization[] {
  return db.select().from(organizations).orderBy(organizations.createdAt).all() as Organization[];
}

/** Upgrades raise the running window's cap at once; downgrades wait for the next window. */
export function setPlan(db: Db, clock: Clock, org: Organization, plan: string): Organization {
  const next = checkPlan(plan);
  // Every statement runs on db's connection, which the transaction holds.
  db.transaction(() => {
    pinWindowBeforePlanChange(db, clock(), org, next);
    db.update(organizations).set({ plan: next }).where(eq(organizations.id, org.id)).run();
  });
  return { ...org, plan: next };
}

export function setRulesetChannel(db: Db, org: Organization, channel: string): Organization {
  if (channel !== "latest" && channel !== "previous") throw new AccountError(`the ruleset channel must be latest or previous, not '${channel}'`);
  db.update(organizations).set({ rulesetChannel: channel }).where(eq(organizations.id, org.id)).run();
  return { ...org, rulesetChannel: channel };
}
