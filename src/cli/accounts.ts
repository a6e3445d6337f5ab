import { systemClock } from "../clock";
import { UsageError } from "../config";
import { createOrg, findOrg, listOrgs, setPlan, setRulesetChannel } from "../accounts/orgs";
import { createKey, listKeys, revokeKey } from "../accounts/keys";
import { withStorage } from "./storage";
import { printJson, required } from "./io";
import { confirmParticipant, registerParticipant, removeParticipant } from "../transmission/participants";


export function orgsCommand(sub: string | undefined, args: string[], flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    switch (sub) {
      case "create": {
        const day = flags["billing-day"];
        printJson(await createOrg(storage, systemClock, { name: required(flags.name, "--name NAME"), plan: flags.plan, billingDay: day === undefined ? undefined : Number(day) }));
        return;
      }
      case "set-plan":
        printJson(await setPlan(storage, systemClock, await findOrg(storage, required(args[0], "ORG")), required(flags.plan, "--plan PLAN")));
        return;
      case "set-channel":
        printJson(await setRulesetChannel(storage, await findOrg(storage, required(args[0], "ORG")), required(args[1], "latest|previous")));
        return;
      case "list":
        printJson(await listOrgs(storage));
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
        printJson(await createKey(storage, systemClock, await findOrg(storage, required(flags.org, "--org ORG")), required(flags.mode, "--mode live|test"), flags.label));
        return;
      case "list":
        printJson(await listKeys(storage, await findOrg(storage, required(flags.org, "--org ORG"))));
        return;
      case "revoke":
        await revokeKey(storage, systemClock, required(args[0], "KEY_ID"));
        printJson({ keyId: args[0], revoked: true });
        return;
      default:
        throw new UsageError("usage: keys create --org ORG --mode live|test [--label L] | keys list --org ORG | keys revoke KEY_ID");
    }
  });
}

/** `participants add|confirm|list|remove`: the sender identifiers an organization may send from. */
export function participantsCommand(sub: string | undefined, flags: Record<string, string | undefined>, confirmed: boolean): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    const org = await findOrg(storage, required(flags.org, "--org ORG"));
    const participant = () => ({ scheme: required(flags.scheme, "--scheme SCHEME"), id: required(flags.id, "--id ID") });
    switch (sub) {
      case "add":
        printJson(await registerParticipant(storage, systemClock, org, { ...participant(), country: flags.country, confirmed }));
        return;
      case "confirm":
        printJson(await confirmParticipant(storage, org, participant()));
        return;
      case "list":
        printJson(await storage.participants.listFor(org.id));
        return;
      case "remove":
        await removeParticipant(storage, org, participant());
        printJson({ ...participant(), removed: true });
        return;
      default:
        throw new UsageError(
          "usage: participants add --org ORG --scheme SCHEME --id ID [--country CC] [--confirmed] | participants confirm --org ORG --scheme S --id ID | participants list --org ORG | participants remove --org ORG --scheme S --id ID",
        );
    }
  });
}
