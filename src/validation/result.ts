import type { JudgedArtifactRow } from "../rulesets/seal";

export type Severity = "fatal" | "error" | "warning" | "info";

export interface ValidationFinding {
  ruleId: string;
  severity: Severity;
  location?: string;
  message: string;
}

/** The spec's Validation result. Optional fields are omitted, never null. */
export interface ValidationResult {
  valid: boolean;
  format: string;
  profileDetected?: string;
  sha256: string;
  rulesetSha256?: string;
  rulesetArtifacts?: JudgedArtifactRow[];
  driftCheckedAt?: string;
  rulesetChannel?: "latest" | "previous";
  rulesetFellBack?: boolean;
  rulesetSunsetsOn?: string;
  schematronVersion?: string;
  ciusVersion?: string;
  peppolVersion?: string;
  romaniaRoCiusVersion?: string;
  netherlandsNlciusVersion?: string;
  italyFatturapaXsdBundle?: string;
  italyFatturapaRuntimeVersion?: string;
  italySdiMessaggiXsdBundle?: string;
  italySdiMessaggiXsdVersion?: string;
  spainFacturaeXsdBundle?: string;
  spainFacturaeRuntimeVersion?: string;
  sloveniaEslogXsdBundle?: string;
  sloveniaEslogRuntimeVersion?: string;
  franceCtcBlockingRuleIds?: string[];
  errors: ValidationFinding[];
  warnings: ValidationFinding[];
}

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
export function verdictLine(result: ValidationResult): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${result.valid ? "pass" : "fail"}; ${plural(result.errors.length, "error")}, ${plural(result.warnings.length, "warning")}`;
}

/** Response headers that mirror the result; a header appears only when its value exists. */
export function resultHeaders(result: ValidationResult): Record<string, string> {
  const headers: Record<string, string> = { "x-validation": verdictLine(result) };
  if (result.format === "ubl" || result.format === "cii") headers["x-syntax"] = result.format;
  if (result.profileDetected) headers["x-profile-detected"] = result.profileDetected;
  if (result.schematronVersion) headers["x-schematron-version"] = result.schematronVersion;
  if (result.rulesetSha256) headers["x-ruleset-sha256"] = result.rulesetSha256;
  if (result.rulesetArtifacts) headers["x-ruleset-artifacts"] = JSON.stringify(result.rulesetArtifacts);
  return headers;
}
