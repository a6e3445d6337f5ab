import { systemClock } from "../clock";
import { UsageError, webhookDestinations } from "../config";
import { withStorage } from "./storage";
import { printJson } from "./io";
import { findOrg } from "../accounts/orgs";
import { AccountError } from "../accounts/errors";
import { DomainError } from "../errors/domain-error";
import { createSubscription, deleteSubscription, listSubscriptions, rotateSecret } from "../webhooks/subscriptions";

const USAGE = "usage: webhooks create --org ORG --url URL [--events TYPE,TYPE] | webhooks list --org ORG | webhooks rotate --org ORG ID | webhooks delete --org ORG ID";

/**
 * `webhooks create|list|rotate|delete`: the routes' domain functions for the operator. A refusal
 * (a URL the rules refuse, an unknown id) is the operator's to fix, so it reads as one, not as a crash.
 */
export function webhooksCommand(sub: string | undefined, args: string[], flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    if (!flags.org) throw new UsageError(`missing --org ORG\n${USAGE}`);
    const org = await findOrg(storage, flags.org);
    const id = (): string => {
      if (!args[0]) throw new UsageError(USAGE);
      return args[0];
    };
    try {
      switch (sub) {
        case "create":
          if (!flags.url) throw new UsageError(USAGE);
          // The same operator exceptions the server applies (WEBHOOK_ALLOWED_HOSTS, WEBHOOK_ALLOW_PRIVATE).
          printJson(await createSubscription(storage, systemClock, webhookDestinations(), org.id, { url: flags.url, eventTypes: flags.events?.split(",").map((t) => t.trim()) }));
          return;
        case "list":
          printJson(await listSubscriptions(storage, systemClock, org.id));
          return;
        case "rotate":
          printJson(await rotateSecret(storage, systemClock, org.id, id()));
          return;
        case "delete":
          await deleteSubscription(storage, org.id, id());
          printJson({ id: args[0], deleted: true });
          return;
        default:
          throw new UsageError(USAGE);
      }
    } catch (error) {
      if (error instanceof DomainError) throw new AccountError(error.message);
      throw error;
    }
  });
}
