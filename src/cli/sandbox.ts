import { UsageError } from "../config";
import { withStorage } from "./storage";
import { findOrg } from "../accounts/orgs";
import { duration } from "../transmission/sandbox/clock";

const hours = (ms: number) => `${(ms / 3_600_000).toFixed(2).replace(/\.?0+$/, "")} h`;

/** `sandbox advance --org ORG --by 90m | sandbox clock --org ORG`: the organization's sandbox clock (docs/transmission.md "Sandbox"). */
export function sandboxCommand(sub: string | undefined, flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    if (!flags.org) throw new UsageError("missing --org ORG");
    const org = await findOrg(storage, flags.org);
    switch (sub) {
      case "advance": {
        const by = flags.by === undefined ? null : duration(flags.by);
        if (!by) throw new UsageError("usage: sandbox advance --org ORG --by DURATION (e.g. 90m, 2h, 15d, 1d12h)");
        const offset = await storage.sandbox.advance(org.id, by);
        console.log(`sandbox clock of ${org.name}: ${hours(offset)} ahead (${new Date(Date.now() + offset).toISOString()}); scheduled attempts moved ${hours(by)} closer`);
        return;
      }
      case "clock": {
        const offset = await storage.sandbox.offset(org.id);
        console.log(`sandbox clock of ${org.name}: ${hours(offset)} ahead (${new Date(Date.now() + offset).toISOString()})`);
        return;
      }
      default:
        throw new UsageError("usage: sandbox advance --org ORG --by DURATION | sandbox clock --org ORG");
    }
  });
}
