#!/usr/bin/env bun
import { parseArgs } from "node:util";
import { orgsCommand, keysCommand, participantsCommand } from "./cli/accounts";
import { defaultWorkerCount, UsageError } from "./config";
import { applyMemoryTarget } from "./cli/memory-target";
import { AccountError } from "./accounts/errors";
import { StorageUnavailable } from "./db/storage";

const HELP = `einvoice: EN 16931 e-invoicing API

  serve [--port N] [--db PATH|URL]      start the HTTP API (env PORT, DATABASE_PATH or DATABASE_URL,
                                        MEMORY_TARGET_MIB)
  db migrate                            apply pending migrations (under a lock on PostgreSQL)
  db check                              connection and migration state; exit 1 when unreachable
                                        or migrations are pending
  orgs create --name NAME [--plan free|starter|growth|business|scale] [--billing-day 1-28]
  orgs set-plan ORG --plan PLAN
  orgs set-channel ORG latest|previous  default ruleset channel of the organization
  orgs list
  keys create --org ORG --mode live|test [--label L]
  keys list --org ORG
  keys revoke KEY_ID
  participants add --org ORG --scheme SCHEME --id ID [--country CC] [--confirmed]
  participants confirm --org ORG --scheme SCHEME --id ID
  participants list --org ORG
  participants remove --org ORG --scheme SCHEME --id ID
                                        sender identifiers the organization may send from
  inbox-providers add --id ID --network NETWORK   a provider that may call POST /v1/inbox/ID; prints
                                        its Standard Webhooks secret once
  inbox-providers rotate --id ID | list | remove --id ID
  validate FILE... [--format auto|cii|ubl|fatturapa|facturae|eslog|sdi_messaggio] [--json]
                                        judge XML or hybrid PDF files offline; exit 0 all valid,
                                        1 any invalid, 2 a file could not be judged
  convert FILE --to cii|ubl|zugferd|facturx|xrechnung|peppol-bis [--profile LEVEL] [--out FILE]
          [--drop-france-ctc-overlay] [--json]
                                        convert offline; the file to --out or stdout, the loss
                                        report to stderr; exit 0 converted, 1 refused, 2 unreadable
  rulesets drift-check [--mirror DIR|URL]  compare every pinned file with upstream (or a mirror)
                                        and record the outcome; exit 1 on any difference
  rulesets status                       versions, retention dates, engine and drift state
  templates create --org ORG --name NAME --file DEFINITION.json
  templates list --org ORG
  templates delete --org ORG REF        stored PDF templates (docs/pdf.md)
  webhooks create --org ORG --url URL [--events TYPE,TYPE]
  webhooks list --org ORG
  webhooks rotate --org ORG ID
  webhooks delete --org ORG ID          webhook subscriptions; a secret is shown once (docs/webhooks.md)
  dashboard add-user --org ORG --email EMAIL [--password-file FILE]
                                        a dashboard user (the password is asked for when omitted)
  dashboard link --org ORG [--url BASE] a one-time sign-in link, valid 15 minutes (docs/dashboard.md)
  sandbox advance --org ORG --by DURATION  move the organization's sandbox network clock forward
                                        (90m, 2h, 15d, 1d12h): delays, deadlines, grace and retries
  sandbox clock --org ORG               how far ahead it runs (docs/transmission.md "Sandbox")

ORG is an organization id or its unique name. The account, template, webhook, ruleset and db commands take
--db PATH|URL: a SQLite file, or a postgres:// URL (else DATABASE_URL, DATABASE_PATH).`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: "string" },
      db: { type: "string" },
      name: { type: "string" },
      plan: { type: "string" },
      "billing-day": { type: "string" },
      org: { type: "string" },
      mode: { type: "string" },
      label: { type: "string" },
      format: { type: "string" },
      json: { type: "boolean" },
      mirror: { type: "string" },
      file: { type: "string" },
      to: { type: "string" },
      profile: { type: "string" },
      out: { type: "string" },
      "drop-france-ctc-overlay": { type: "boolean" },
      scheme: { type: "string" },
      id: { type: "string" },
      country: { type: "string" },
      confirmed: { type: "boolean" },
      network: { type: "string" },
      url: { type: "string" },
      events: { type: "string" },
      email: { type: "string" },
      "password-file": { type: "string" },
      by: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    console.log(HELP);
    return command || values.help ? 0 : 2;
  }
  const flags = values as Record<string, string | undefined>;
  switch (command) {
    case "serve": {
      // Before the server's modules load: this may re-execute the process (see memory-target.ts).
      const memory = applyMemoryTarget(defaultWorkerCount());
      const { serve } = await import("./cli/serve");
      await serve(flags, memory);
      return -1;
    }
    case "orgs":
      await orgsCommand(sub, rest, flags);
      return 0;
    case "keys":
      await keysCommand(sub, rest, flags);
      return 0;
    case "participants":
      await participantsCommand(sub, flags, values.confirmed === true);
      return 0;
    case "inbox-providers": {
      const { inboxProvidersCommand } = await import("./cli/inbox");
      await inboxProvidersCommand(sub, flags);
      return 0;
    }
    case "validate": {
      // Loaded on demand: SaxonJS and the schema engine would add ~0.3 s and ~60 MB to every other command.
      const { validateCommand } = await import("./cli/validate");
      return validateCommand(positionals.slice(1), { format: values.format, json: values.json });
    }
    case "convert": {
      const { convertCommand } = await import("./cli/convert");
      return convertCommand(positionals.slice(1), { to: values.to, profile: values.profile, out: values.out, json: values.json, dropFranceCtcOverlay: values["drop-france-ctc-overlay"] });
    }
    case "templates": {
      const { templatesCommand } = await import("./cli/templates");
      await templatesCommand(sub, rest, flags);
      return 0;
    }
    case "webhooks": {
      const { webhooksCommand } = await import("./cli/webhooks");
      await webhooksCommand(sub, rest, flags);
      return 0;
    }
    case "dashboard": {
      const { dashboardCommand } = await import("./cli/dashboard");
      await dashboardCommand(sub, flags);
      return 0;
    }
    case "sandbox": {
      const { sandboxCommand } = await import("./cli/sandbox");
      await sandboxCommand(sub, flags);
      return 0;
    }
    case "db": {
      const { dbCommand } = await import("./cli/db");
      return dbCommand(sub, flags);
    }
    case "rulesets": {
      const { rulesetsCommand } = await import("./cli/rulesets");
      return rulesetsCommand(sub, flags);
    }
    default:
      throw new UsageError(`unknown command '${command}'\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      console.error(`einvoice: ${error.message}`);
      process.exit(2);
    }
    if (error instanceof AccountError || error instanceof StorageUnavailable) {
      console.error(`einvoice: ${error.message}`);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  },
);
