import { systemClock } from "../clock";
import { UsageError } from "../config";
import { registerProvider, removeProvider, rotateProviderSecret } from "../transmission/inbox-providers";
import { withStorage } from "./storage";
import { printJson, required } from "./io";

/** `inbox-providers add|list|rotate|remove`: who may call POST /v1/inbox/:providerId, and with which secret. */
export function inboxProvidersCommand(sub: string | undefined, flags: Record<string, string | undefined>): Promise<void> {
  const id = () => required(flags.id, "--id PROVIDER");
  return withStorage(flags.db, async (storage) => {
    switch (sub) {
      case "add": {
        const { provider, secret } = await registerProvider(storage, systemClock, id(), required(flags.network, "--network NETWORK"));
        // The secret is shown this once; only the provider needs it.
        printJson({ id: provider.id, network: provider.network, secret, callback: `/v1/inbox/${provider.id}` });
        return;
      }
      case "rotate":
        printJson({ id: id(), ...(await rotateProviderSecret(storage, id())) });
        return;
      case "list":
        printJson((await storage.inboxProviders.list()).map(({ secrets, ...provider }) => ({ ...provider, secrets: secrets.length })));
        return;
      case "remove":
        await removeProvider(storage, id());
        printJson({ id: id(), removed: true });
        return;
      default:
        throw new UsageError("usage: inbox-providers add --id ID --network NETWORK | inbox-providers rotate --id ID | inbox-providers list | inbox-providers remove --id ID");
    }
  });
}
