// Test oracle: runs a stylesheet on Saxon-HE (Java), the engine the authorities use, over many
// documents in one JVM so a few hundred runs cost seconds rather than minutes.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const SAXON_HE_JAR = process.env.SAXON_HE_JAR ?? "/usr/share/java/Saxon-HE.jar";

/** Why Saxon-HE cannot run here, or null when it can. */
export function saxonHeUnavailable(): string | null {
  if (!existsSync(SAXON_HE_JAR)) return `Saxon-HE jar not found at ${SAXON_HE_JAR} (apt-get install libsaxonhe-java)`;
  const java = Bun.spawnSync(["java", "-version"], { stderr: "pipe", stdout: "pipe" });
  if (!java.success) return "java is not on PATH";
  return null;
}

/** One document's outcome: the SVRL text, or the error Saxon-HE reported for it. */
export interface SaxonResult {
  svrl: string | null;
  error: string | null;
}

/**
 * Transforms every document with `xsl` in a single Saxon-HE run (`-s:<dir> -o:<dir>`). Saxon
 * carries on after a failing document, so each document gets its own result. Returns results
 * keyed by the document path as given.
 */
export async function runSaxonHe(xsl: string, documents: string[]): Promise<Map<string, SaxonResult>> {
  const work = mkdtempSync(join(tmpdir(), "saxon-he-"));
  const inDir = join(work, "in");
  const outDir = join(work, "out");
  mkdirSync(inDir);
  mkdirSync(outDir);
  try {
    // Numbered links: documents from different folders may share a file name.
    const names = documents.map((doc, i) => {
      const name = `${String(i).padStart(5, "0")}.xml`;
      symlinkSync(resolve(doc), join(inDir, name));
      return name;
    });
    const proc = Bun.spawn(
      ["java", "-cp", SAXON_HE_JAR, "net.sf.saxon.Transform", `-xsl:${resolve(xsl)}`, `-s:${inDir}`, `-o:${outDir}`],
      { stdout: "pipe", stderr: "pipe" },
    );
    const [stderr, , exitCode] = await Promise.all([
      new Response(proc.stderr).text(),
      new Response(proc.stdout).text(),
      proc.exited,
    ]);
    const errors = errorsByDocument(stderr);
    const results = new Map<string, SaxonResult>();
    names.forEach((name, i) => {
      // A document that fails mid-transform may leave a partial output file: the error wins.
      const out = join(outDir, name);
      const error = errors.get(name) ?? (existsSync(out) ? null : `no output (exit ${exitCode})`);
      results.set(documents[i], error ? { svrl: null, error } : { svrl: readFileSync(out, "utf8"), error: null });
    });
    if (errors.size === 0 && exitCode !== 0) {
      // Not a per-document failure: the stylesheet itself did not compile or Java failed.
      throw new Error(`Saxon-HE failed on ${xsl} (exit ${exitCode}):\n${stderr}`);
    }
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Saxon ends each failed document's report with "While processing <file>: <message>". */
function errorsByDocument(stderr: string): Map<string, string> {
  const errors = new Map<string, string>();
  let block: string[] = [];
  for (const line of stderr.split("\n")) {
    const m = /^While processing (\S+): /.exec(line);
    if (!m) {
      block.push(line);
      continue;
    }
    // A report starts at an unindented line. Warnings (a compile-time SXWN9000, a pattern that
    // failed to match in an earlier document) are reports too, but their codes are not this error's.
    const sections: string[][] = [];
    for (const l of block) if (/^\S/.test(l) || !sections.length) sections.push([l]);
    else sections[sections.length - 1].push(l);
    const own = sections.filter((section) => !/^Warning\b/.test(section[0])).map((section) => section.join("\n"));
    const code = /\b([A-Z]{4}\d{4})\b/.exec(own.join("\n"))?.[1];
    errors.set(m[1], `${code ? `${code}: ` : ""}${line.slice(m[0].length).trim()}`);
    block = [];
  }
  return errors;
}
