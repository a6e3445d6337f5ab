/**
 * Saxon-HE side of the benchmark: compiles bench/SaxonTiming.java with javac and runs every
 * (stylesheet, document) job in one JVM. Returns null with the reason when Java or the jar is missing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const JAR = process.env.SAXON_HE_JAR ?? "/usr/share/java/Saxon-HE.jar";

export interface SaxonJob {
  xsl: string;
  xml: string;
  warmups: number;
  runs: number;
}

/** Milliseconds per timed run, keyed `xsl\txml`; a string is the error Saxon-HE reported. */
export type SaxonTimes = Map<string, number[] | string>;

export const jobKey = (xsl: string, xml: string) => `${xsl}\t${xml}`;

export function saxonHeMissing(): string | null {
  if (!existsSync(JAR)) return `no Saxon-HE jar at ${JAR}`;
  for (const tool of ["java", "javac"]) if (!Bun.which(tool)) return `${tool} is not on PATH`;
  return null;
}

/** What `net.sf.saxon.Version` says (e.g. "SAXON-HE 9.9.1.5J from Saxonica") and the JVM's version line. */
export function saxonHeVersion(): string {
  const saxon = Bun.spawnSync(["java", "-cp", JAR, "net.sf.saxon.Version"], { stderr: "pipe" });
  const java = Bun.spawnSync(["java", "-version"], { stderr: "pipe" });
  const first = (r: typeof saxon) => (r.stdout.toString() + r.stderr.toString()).trim().split("\n")[0];
  return `${first(saxon)} on ${first(java)}`;
}

export async function timeOnSaxonHe(jobs: SaxonJob[], boundSeconds: number): Promise<SaxonTimes> {
  const dir = mkdtempSync(join(tmpdir(), "bench-saxon-"));
  try {
    const javac = Bun.spawnSync(["javac", "-cp", JAR, "-d", dir, join(import.meta.dir, "SaxonTiming.java")], { stderr: "pipe" });
    if (javac.exitCode !== 0) throw new Error(`javac failed: ${javac.stderr.toString()}`);
    const jobsFile = join(dir, "jobs.tsv");
    writeFileSync(jobsFile, jobs.map((j) => [j.xsl, j.xml, j.warmups, j.runs].join("\t")).join("\n"));
    const java = Bun.spawn(["java", "-cp", `${JAR}:${dir}`, "SaxonTiming", jobsFile], { stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => java.kill(), boundSeconds * 1000);
    const out = await new Response(java.stdout).text();
    clearTimeout(timer);
    const times: SaxonTimes = new Map();
    for (const line of out.split("\n").filter(Boolean)) {
      const [xsl, xml, result] = line.split("\t");
      times.set(jobKey(xsl, xml), result.startsWith("ERROR") ? result : result.split(",").map(Number));
    }
    return times;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
