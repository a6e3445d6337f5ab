import { readFileSync } from "node:fs";
import { rulesetBundle } from "../assets/bundle";
import { createEngine } from "../validation/engine";
import { validateDocument, type Engine, type LayerResult } from "../validation/validate";
import type { ValidationFinding, ValidationResult } from "../validation/result";
import type { FormatHint } from "../syntax/detect";
import { FORMAT_HINTS } from "../profiles/ids";
import { UsageError } from "../config";

/** `layers`: what each validation layer did (the `--json` output shows it). */
type FileVerdict = { file: string; result: ValidationResult; layers: LayerResult[] } | { file: string; error: string };

/**
 * `einvoice validate FILE...`: judges files in this process with the same `validateDocument` the API
 * runs in its workers, from the embedded ruleset bundle, so it needs no server, database or network.
 * Exit 0 when every file is valid, 1 when any is invalid, 2 when any could not be judged at all.
 */
export async function validateCommand(files: string[], flags: { format?: string; json?: boolean }): Promise<number> {
  if (files.length === 0) throw new UsageError("validate needs at least one FILE");
  const format = (flags.format ?? "auto") as FormatHint;
  if (!(FORMAT_HINTS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMAT_HINTS.join(", ")}, not '${flags.format}'`);
  const engine = createEngine(rulesetBundle());
  const verdicts: FileVerdict[] = [];
  for (const file of files) {
    const verdict = await judge(engine, file, format === "auto" ? undefined : format);
    verdicts.push(verdict);
    // Human output streams file by file: a long list shows progress, the JSON array comes whole.
    if (!flags.json) console.log(humanLines(verdict).join("\n"));
  }
  if (flags.json) console.log(JSON.stringify(verdicts, null, 2));
  return exitCode(verdicts);
}

async function judge(engine: Engine, file: string, hint: FormatHint | undefined): Promise<FileVerdict> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { file, error: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (bytes.byteLength === 0) return { file, error: "the file is empty" };
  try {
    const outcome = await validateDocument(engine, { bytes, hint });
    return !outcome.ok ? { file, error: outcome.message } : { file, result: outcome.result, layers: outcome.layers };
  } catch (error) {
    // A rule layer that cannot run is an engine failure, not a verdict on the document.
    return { file, error: `a validation layer could not run: ${(error as Error).message}` };
  }
}

export function exitCode(verdicts: FileVerdict[]): number {
  if (verdicts.some((v) => "error" in v)) return 2;
  return verdicts.every((v) => "result" in v && v.result.valid) ? 0 : 1;
}

function humanLines(verdict: FileVerdict): string[] {
  if ("error" in verdict) return [`ERROR ${verdict.file}: ${verdict.error}`];
  const r = verdict.result;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const head = `${r.valid ? "PASS" : "FAIL"} ${verdict.file} (${r.profileDetected ?? r.format}, ${plural(r.errors.length, "error")}, ${plural(r.warnings.length, "warning")})`;
  return [head, ...[...r.errors, ...r.warnings].map(findingLine)];
}

function findingLine(f: ValidationFinding): string {
  return `  ${f.severity} ${f.ruleId}: ${f.message.replace(/\s+/g, " ").trim()}${f.location ? ` [${f.location}]` : ""}`;
}
