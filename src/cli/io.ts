import { UsageError } from "../config";

/** A flag the command cannot go without: its absence is a usage error naming it. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new UsageError(`missing ${flag}`);
  return value;
}

/** What the account, participant, provider and webhook commands answer: JSON, for people and scripts alike. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}
