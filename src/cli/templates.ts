import { readFileSync } from "node:fs";
import { Value } from "@sinclair/typebox/value";
import { systemClock } from "../clock";
import { UsageError } from "../config";
import { withStorage } from "./storage";
import { findOrg } from "../accounts/orgs";
import { AccountError } from "../accounts/errors";
import { TemplateDefinition } from "../pdf/design";
import { createTemplate, deleteTemplate, listTemplates } from "../templates/store";
import { designProblems } from "../pdf/design-check";

/** `templates create --org ORG --name NAME --file DEFINITION.json | list --org ORG | delete --org ORG REF` */
export function templatesCommand(sub: string | undefined, args: string[], flags: Record<string, string | undefined>): Promise<void> {
  return withStorage(flags.db, async (storage) => {
    if (!flags.org) throw new UsageError("missing --org ORG");
    const org = await findOrg(storage, flags.org);
    switch (sub) {
      case "create": {
        if (!flags.name || !flags.file) throw new UsageError("usage: templates create --org ORG --name NAME --file DEFINITION.json");
        let definition: unknown;
        try {
          definition = JSON.parse(readFileSync(flags.file, "utf8"));
        } catch (error) {
          throw new AccountError(`cannot read ${flags.file} as JSON: ${(error as Error).message}`);
        }
        if (!Value.Check(TemplateDefinition, definition)) {
          const problems = [...Value.Errors(TemplateDefinition, definition)].map((e) => `  ${e.path || "/"}: ${e.message}`);
          throw new AccountError(`${flags.file} is not a valid template definition (docs/pdf.md):\n${problems.join("\n")}`);
        }
        const problems = designProblems(definition);
        if (problems.length) throw new AccountError(`${flags.file}: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`);
        console.log(JSON.stringify(await createTemplate(storage, systemClock, org.id, flags.name, definition), null, 2));
        return;
      }
      case "list":
        console.log(JSON.stringify(await listTemplates(storage, org.id), null, 2));
        return;
      case "delete":
        if (!args[0]) throw new UsageError("usage: templates delete --org ORG REF");
        if (!(await deleteTemplate(storage, org.id, args[0]))) throw new AccountError(`no template '${args[0]}' in organization ${org.name}`);
        console.log(JSON.stringify({ ref: args[0].toUpperCase(), deleted: true }));
        return;
      default:
        throw new UsageError("usage: templates create --org ORG --name NAME --file F | templates list --org ORG | templates delete --org ORG REF");
    }
  });
}
