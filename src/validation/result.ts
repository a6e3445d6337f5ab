import { isEn16931Syntax } from "../profiles/ids";
import type { Static } from "@sinclair/typebox";
import type { ValidationFindingSchema, ValidationResultSchema } from "./result-schema";

export type ValidationFinding = Static<typeof ValidationFindingSchema>;
export type Severity = ValidationFinding["severity"];

/** The spec's Validation result. Optional fields are omitted, never null. */
export type ValidationResult = Static<typeof ValidationResultSchema>;

/** The authorities' flags mapped to the spec's severities; an assert without a flag is an error. */
export function severityOfFlag(flag: string | null): Severity {
  switch (flag?.toLowerCase()) {
    case "fatal":
      return "fatal";
    case "warning":
      return "warning";
    case "information":
    case "info":
      return "info";
    default:
      return "error";
  }
}

/** The one-line verdict of the `x-validation` header. */
function verdictLine(result: ValidationResult): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${result.valid ? "pass" : "fail"}; ${plural(result.errors.length, "error")}, ${plural(result.warnings.length, "warning")}`;
}

/** Response headers that mirror the result; a header appears only when its value exists. */
export function resultHeaders(result: ValidationResult): Record<string, string> {
  const headers: Record<string, string> = { "x-validation": verdictLine(result) };
  if (isEn16931Syntax(result.format)) headers["x-syntax"] = result.format;
  if (result.profileDetected) headers["x-profile-detected"] = result.profileDetected;
  if (result.schematronVersion) headers["x-schematron-version"] = result.schematronVersion;
  if (result.rulesetSha256) headers["x-ruleset-sha256"] = result.rulesetSha256;
  if (result.rulesetArtifacts) headers["x-ruleset-artifacts"] = JSON.stringify(result.rulesetArtifacts);
  return headers;
}
