import { readFileSync } from "node:fs";
import { systemClock } from "../clock";
import { UsageError } from "../config";
import { withStorage } from "./storage";
import { findOrg } from "../accounts/orgs";
import { addUser, createSignInLink } from "../dashboard/sign-in";

/** Where printed links point unless --url says otherwise: the port `serve` would listen on here. */
const defaultBase = () => `http://localhost:${process.env.PORT || 8080}`;

export const signInUrl = (base: string, token: string) => `${base.replace(/\/+$/, "")}/dashboard/link?token=${token}`;

/** Reads a password without echoing it when a person types it; otherwise the first line of stdin. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return (await new Response(Bun.stdin.stream()).text()).split(/\r?\n/)[0] ?? "";
  process.stdout.write("Password (at least 12 characters): ");
  process.stdin.setRawMode(true);
  let typed = "";
  try {
    for await (const chunk of process.stdin) {
      for (const char of String(chunk)) {
        if (char === "\r" || char === "\n") return typed;
        if (char === "\u0003") throw new UsageError("cancelled");
        typed = char === "\u007f" ? typed.slice(0, -1) : typed + char;
      }
    }
    return typed;
  } finally {
    process.stdin.setRawMode(false);
    process.stdout.write("\n");
  }
}

/** `dashboard add-user --org ORG --email E [--password-file F] | link --org ORG [--url BASE]` */
export function dashboardCommand(sub: string | undefined, flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    if (!flags.org) throw new UsageError("missing --org ORG");
    const org = await findOrg(storage, flags.org);
    switch (sub) {
      case "add-user": {
        if (!flags.email) throw new UsageError("usage: dashboard add-user --org ORG --email EMAIL [--password-file FILE]");
        const password = flags["password-file"] ? (readFileSync(flags["password-file"], "utf8").split(/\r?\n/)[0] ?? "") : await readPassword();
        const user = await addUser(storage, systemClock, org, flags.email, password);
        console.log(JSON.stringify({ userId: user.userId, email: user.email, orgId: org.id }));
        return;
      }
      case "link": {
        const link = await createSignInLink(storage, systemClock, org);
        console.log(`${signInUrl(flags.url ?? defaultBase(), link.token)}\n(one use, until ${link.expiresAt})`);
        return;
      }
      default:
        throw new UsageError("usage: dashboard add-user --org ORG --email EMAIL [--password-file FILE] | dashboard link --org ORG [--url BASE]");
    }
  });
}
