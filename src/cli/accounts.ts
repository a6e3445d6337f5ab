import { systemClock } from "../clock";
import { UsageError } from "../config";
import { createOrg, findOrg, listOrgs, setPlan, setRulesetChannel } from "../accounts/orgs";
import { createKey, listKeys, revokeKey } from "../accounts/keys";
import { withStorage } from "./storage";
import { confirmParticipant, registerParticipant, removeParticipant } from "../transmission/participants";

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new UsageError(`missing ${flag}`);
  return value;
}

function print(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

export function orgsCommand(sub: string | undefined, args: string[], flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    switch (sub) {
      case "create": {
        const day = flags["billing-day"];
        print(await createOrg(storage, systemClock, { name: required(flags.name, "--name NAME"), plan: flags.plan, billingDay: day === undefined ? undefined : Number(day) }));
        return;
      }
      case "set-plan":
        print(await setPlan(storage, systemClock, await findOrg(storage, required(args[0], "ORG")), required(flags.plan, "--plan PLAN")));
        return;
      case "set-channel":
        print(await setRulesetChannel(storage, await findOrg(storage, required(args[0], "ORG")), required(args[1], "latest|previous")));
        return;
      case "list":
        print(await listOrgs(storage));
        return;
      default:
        throw new UsageError("usage: orgs create --name NAME [--plan P] [--billing-day 1-28] | orgs set-plan ORG --plan P | orgs set-channel ORG latest|previous | orgs list");
    }
  });
}

export function keysCommand(sub: string | undefined, args: string[], flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    switch (sub) {
      case "create":
        print(await createKey(storage, systemClock, await findOrg(storage, required(flags.org, "--org ORG")), required(flags.mode, "--mode live|test"), flags.label));
        return;
      case "list":
        print(await listKeys(storage, await findOrg(storage, required(flags.org, "--org ORG"))));
        return;
      case "revoke":
        await revokeKey(storage, systemClock, required(args[0], "KEY_ID"));
        print({ keyId: args[0], revoked: true });
        return;
      default:
        throw new UsageError("usage: keys create --org ORG --mode live|test [--label L] | keys list --org ORG | keys revoke KEY_ID");
    }
  });
}

/** `participants add|confirm|list|remove`: the sender identifiers an organization may send from. */
export function participantsCommand(sub: string | undefined, flags: Record<string, string | boolean | undefined>): Promise<void> {
  const text = (name: string) => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
  return withStorage(text("db"), async (storage) => {
    const org = await findOrg(storage, required(text("org"), "--org ORG"));
    const participant = () => ({ scheme: required(text("scheme"), "--scheme SCHEME"), id: required(text("id"), "--id ID") });
    switch (sub) {
      case "add":
        print(await registerParticipant(storage, systemClock, org, { ...participant(), country: text("country"), confirmed: flags.confirmed === true }));
        return;
      case "confirm":
        print(await confirmParticipant(storage, org, participant()));
        return;
      case "list":
        print(await storage.participants.listFor(org.id));
        return;
      case "remove":
        await removeParticipant(storage, org, participant());
        print({ ...participant(), removed: true });
        return;
      default:
        throw new UsageError(
          "usage: participants add --org ORG --scheme SCHEME --id ID [--country CC] [--confirmed] | participants confirm --org ORG --scheme S --id ID | participants list --org ORG | participants remove --org ORG --scheme S --id ID",
        );
    }
  });
}
