import { systemClock } from "../clock";
import { UsageError } from "../config";
import { registerProvider, removeProvider, rotateProviderSecret } from "../transmission/inbox-providers";
import { withStorage } from "./storage";

/** `inbox-providers add|list|rotate|remove`: who may call POST /v1/inbox/:providerId, and with which secret. */
export function inboxProvidersCommand(sub: string | undefined, flags: Record<string, string | boolean | undefined>): Promise<void> {
  const text = (name: string) => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
  const id = () => {
    const value = text("id");
    if (!value) throw new UsageError("missing --id PROVIDER");
    return value;
  };
  const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
  return withStorage(text("db"), async (storage) => {
    switch (sub) {
      case "add": {
        const network = text("network");
        if (!network) throw new UsageError("missing --network NETWORK");
        const { provider, secret } = await registerProvider(storage, systemClock, id(), network);
        // The secret is shown this once; only the provider needs it.
        print({ id: provider.id, network: provider.network, secret, callback: `/v1/inbox/${provider.id}` });
        return;
      }
      case "rotate":
        print({ id: id(), ...(await rotateProviderSecret(storage, id())) });
        return;
      case "list":
        print((await storage.inboxProviders.list()).map(({ secrets, ...provider }) => ({ ...provider, secrets: secrets.length })));
        return;
      case "remove":
        await removeProvider(storage, id());
        print({ id: id(), removed: true });
        return;
      default:
        throw new UsageError("usage: inbox-providers add --id ID --network NETWORK | inbox-providers rotate --id ID | inbox-providers list | inbox-providers remove --id ID");
    }
  });
}
