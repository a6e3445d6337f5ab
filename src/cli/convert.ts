import { readFileSync, writeFileSync } from "node:fs";
import { rulesetBundle } from "../assets/bundle";
import { createEngine } from "../validation/engine";
import { validateDocument } from "../validation/validate";
import { convertDocument, type Converted } from "../convert/convert";
import type { LostElement } from "../convert/losses";
import { CONVERT_FORMATS, FACTURX_REQUEST_PROFILES, type ConvertFormat } from "../profiles/ids";
import { DomainError } from "../errors/domain-error";
import { UsageError } from "../config";

interface ConvertFlags {
  to?: string;
  profile?: string;
  out?: string;
  json?: boolean;
  dropFranceCtcOverlay?: boolean;
}

/**
 * `einvoice convert FILE --to FORMAT`: the API's convert in this process, from the embedded ruleset
 * bundle, offline. The converted file goes to --out (or stdout), the loss report to stderr (or,
 * with --json, the whole outcome to stdout). Exit 0 converted, 1 refused (a loss or an invalid
 * target, the report says which), 2 the file could not be read or the usage is wrong.
 */
export async function convertCommand(files: string[], flags: ConvertFlags): Promise<number> {
  if (files.length !== 1) throw new UsageError("convert needs exactly one FILE");
  const to = flags.to as ConvertFormat | undefined;
  if (!to || !(CONVERT_FORMATS as readonly string[]).includes(to)) throw new UsageError(`--to must be one of ${CONVERT_FORMATS.join(", ")}`);
  const profile = flags.profile as (typeof FACTURX_REQUEST_PROFILES)[number] | undefined;
  if (profile !== undefined && !(FACTURX_REQUEST_PROFILES as readonly string[]).includes(profile)) throw new UsageError(`--profile must be one of ${FACTURX_REQUEST_PROFILES.join(", ")}`);
  const [file] = files;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file!);
  } catch (error) {
    console.error(`einvoice: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 2;
  }
  const engine = createEngine(rulesetBundle());
  let converted: Converted;
  try {
    converted = await convertDocument(
      { bytes, query: { targetFormat: to, targetProfile: profile, dropFranceCtcOverlay: flags.dropFranceCtcOverlay ?? false }, livemode: true, judge: { ruleset: undefined }, now: new Date() },
      { judge: (request) => validateDocument(engine, request) },
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (flags.json) console.log(JSON.stringify({ file, error: { code: error.code, message: error.message, details: error.details } }, null, 2));
    else console.error([`REFUSED ${file}: ${error.code}: ${error.message}`, ...((error.details?.lostElements as LostElement[] | undefined) ?? []).map(lostLine)].join("\n"));
    return 1;
  }
  if (flags.out) writeFileSync(flags.out, converted.file);
  if (flags.json) {
    const { file: output, ...rest } = converted;
    console.log(JSON.stringify({ file, ...(flags.out ? { out: flags.out } : { output: Buffer.from(output).toString("base64") }), ...rest }, null, 2));
    return 0;
  }
  if (!flags.out) process.stdout.write(converted.file);
  console.error([`CONVERTED ${file}: ${converted.sourceFormat} -> ${converted.targetFormat}, ${converted.lost.length} element(s) not carried (acceptable)`, ...converted.lost.map(lostLine)].join("\n"));
  return 0;
}

const lostLine = (l: LostElement) => `  ${l.acceptableLoss ? "dropped" : "cannot carry"} ${l.path}${l.value === null ? "" : ` = ${JSON.stringify(l.value)}`}: ${l.reason}`;
