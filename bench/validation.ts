/**
 * Validation figures of the benchmark: POST /v1/validate per profile against the executable, and
 * in-process SaxonJS timings (whole document and per stylesheet) next to Saxon-HE on the same
 * stylesheets and documents.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { load, paced, type LoadResult } from "./http";
import { TARGETS } from "./targets";
import type { TimedJob, TimedLayer } from "./timed-validate";

const CORPUS = join(import.meta.dir, "..", "..", "shared", "corpus");
const RULESETS_BUILD = join(import.meta.dir, "..", "build", "rulesets");

export interface BenchDocument {
  name: string;
  file: string;
  profile: string;
  /** The verdict the document should get (default valid). */
  valid?: boolean;
}

/** One valid corpus document per headline profile; the Factur-X one is a hybrid PDF. */
export const PROFILE_DOCUMENTS: BenchDocument[] = [
  { name: "XRechnung UBL", file: "xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml", profile: "xrechnung" },
  { name: "XRechnung CII", file: "xrechnung-testsuite/src/test/business-cases/standard/01.02a-INVOICE_uncefact.xml", profile: "xrechnung" },
  { name: "Peppol UBL", file: "peppol-bis3/rules/examples/Vat-category-S.xml", profile: "peppol" },
  { name: "Factur-X EN16931 (PDF)", file: "akretion-factur-x/tests/fixtures/pdf/invoice_EN16931.pdf", profile: "facturx:en16931" },
  { name: "Factur-X EXTENDED (CII)", file: "zugferd-corpus/ZUGFeRDv2/correct/Mustangproject/testout-ZF2PushReverseCharge.xml", profile: "facturx:extended" },
  { name: "FatturaPA FPR12", file: "zugferd-corpus/fatturaPA/official/valid/IT01234567890_FPR01.xml", profile: "italy-fatturapa-ordinaria-fpr12" },
].map((d) => ({ ...d, file: join(CORPUS, d.file) }));

/** The invoice the synthetic many-line documents are made from. */
export const LINES_SOURCE = PROFILE_DOCUMENTS[0].file;

/**
 * The corpus has no France CTC invoice, so the EXTENDED one declares EXTENDED-CTC-FR instead: the
 * France rule files then judge it (it lacks what they require, so it is invalid; the cost is the point).
 */
export function franceCtcDocument(dir: string): BenchDocument {
  const source = PROFILE_DOCUMENTS.find((d) => d.profile === "facturx:extended")!;
  const file = join(dir, "france-ctc.xml");
  writeFileSync(file, readFileSync(source.file, "utf8").replace("urn:factur-x.eu:1p0:extended</ram:ID>", "urn.cpro.gouv.fr:1p0:extended-ctc-fr</ram:ID>"));
  return { name: "France EXTENDED-CTC-FR (CII)", file, profile: "facturx:extended", valid: false };
}

export interface HttpFigure {
  document: BenchDocument;
  result: LoadResult;
  /** Why an answer was not the expected verdict, when one was not. */
  mismatch?: string;
  /** The rule files the first answer names (`key/version` of its schematron artifacts). */
  ruleFiles: string[];
}

/** Request i of a load: POST /v1/validate of `document` with the key i spreads to. */
export function validatePoster(base: string, keys: string[], document: BenchDocument): (i: number) => Promise<Response> {
  const body = readFileSync(document.file);
  const type = document.file.endsWith(".pdf") ? "application/pdf" : "application/xml";
  return (i) => fetch(`${base}/v1/validate`, { method: "POST", headers: { "x-api-key": keys[i % keys.length], "content-type": type }, body });
}

/**
 * `concurrency` clients post `document` for `seconds` (at most `maxRequests`), spread over `keys`
 * so no burst limit is met, after `warmups` requests one at a time (the first checks the answer).
 * Bun's fetch keeps connections alive: one client makes its requests on one connection.
 */
export async function validateOverHttp(base: string, keys: string[], document: BenchDocument, concurrency: number, seconds: number, maxRequests: number, warmups = 1): Promise<HttpFigure> {
  const post = validatePoster(base, keys, document);
  const check = await post(0);
  const answer = (await check.json()) as { data?: { valid: boolean; profileDetected?: string; rulesetArtifacts?: { key: string; version: string }[] } };
  const mismatch =
    check.status !== 200 || answer.data?.valid !== (document.valid ?? true) || answer.data.profileDetected !== document.profile
      ? `status ${check.status}, valid ${answer.data?.valid}, profile ${answer.data?.profileDetected}`
      : undefined;
  const ruleFiles = (answer.data?.rulesetArtifacts ?? []).filter((a) => a.key.endsWith("_schematron")).map((a) => `${a.key}/${a.version}`);
  for (let i = 1; i < warmups; i++) await (await post(i)).arrayBuffer();
  return { document, result: await load(post, concurrency, seconds, maxRequests), mismatch, ruleFiles };
}

export const VALIDATE_SECONDS = 6;
/** The typical invoice's latency is measured at half the throughput target, for this long. */
export const PACED_PER_SECOND = TARGETS.perSecond / 2;
export const PACED_SECONDS = 10;
/** Untimed seconds at the paced rate before the timed ones. */
export const PACED_SETTLE_SECONDS = 10;

/**
 * The validate loads of the bench's first server, in order (bench/memory-phases.ts replays them):
 * `sequential` one request at a time, service warm (a few hundred typical requests first, a few of
 * each large document so every worker has run it); each of `profiles` with `clients` concurrent
 * clients; then the first profile's document paced at `PACED_PER_SECOND`, an open loop, timed after
 * `PACED_SETTLE_SECONDS` untimed at that rate.
 */
export async function validateLoads(base: string, keys: string[], sequential: (BenchDocument & { lines: number })[], profiles: BenchDocument[], clients: number) {
  const sequentialFigures: HttpFigure[] = [];
  for (const document of sequential) {
    const large = document.lines > 100;
    sequentialFigures.push(await validateOverHttp(base, keys, document, 1, large ? 15 : VALIDATE_SECONDS, large ? 100 : 2000, large ? clients : 200));
  }
  const throughputFigures: HttpFigure[] = [];
  for (const document of profiles) throughputFigures.push(await validateOverHttp(base, keys, document, clients, VALIDATE_SECONDS, keys.length * 100));
  let pacedFigure: LoadResult | undefined;
  if (profiles.length) {
    // The figure is the steady state at that load: the queue the saturating load above left behind
    // drains first, untimed, at the same rate.
    const post = validatePoster(base, keys, profiles[0]);
    await paced(post, PACED_PER_SECOND, PACED_SETTLE_SECONDS, PACED_PER_SECOND * PACED_SETTLE_SECONDS);
    pacedFigure = await paced(post, PACED_PER_SECOND, PACED_SECONDS, PACED_PER_SECOND * PACED_SECONDS);
  }
  // The large documents again, now that the server holds every profile's rules: its heaps are
  // larger and its collections tighter (src/cli/memory-target.ts), so they take longer than when
  // measured first. No target; printed so that the ratios are not read as the only state.
  const settledFigures: HttpFigure[] = [];
  if (profiles.length) for (const document of sequential.filter((d) => d.lines > 100)) settledFigures.push(await validateOverHttp(base, keys, document, 1, 15, 40, clients));
  return { sequentialFigures, throughputFigures, pacedFigure, settledFigures };
}

export interface TimedFigure {
  layers: TimedLayer[];
  valid?: boolean;
  totalMs: number[];
  layerMs: Record<string, number[]>;
  /** The child was stopped at its bound before the timed runs finished. */
  stopped: boolean;
}

/** Runs bench/timed-validate.ts on one job, killed after `boundSeconds`. */
export async function timeInProcess(job: TimedJob, boundSeconds: number): Promise<TimedFigure> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "timed-validate.ts"), JSON.stringify(job)], { stdout: "pipe", stderr: "inherit" });
  let stopped = false;
  const timer = setTimeout(() => {
    stopped = true;
    child.kill();
  }, boundSeconds * 1000);
  const out = await new Response(child.stdout).text();
  clearTimeout(timer);
  const figure: TimedFigure = { layers: [], totalMs: [], layerMs: {}, stopped };
  for (const line of out.split("\n").filter(Boolean)) Object.assign(figure, JSON.parse(line));
  return figure;
}

/** The stylesheet Saxon-HE runs for a layer: the file its SEF was compiled from. */
export const xslPath = (layer: TimedLayer) => join(RULESETS_BUILD, layer.xslt);

/** A layer's rule file as an answer's artifacts name it (`key/version`). */
export const ruleFileOf = (layer: TimedLayer) => layer.entry.split("/").slice(0, 2).join("/");

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};
