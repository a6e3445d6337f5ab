// The Debian PDF tools (qpdf, poppler-utils) as test oracles: independent readers of what we write.
// A check whose tool is not installed fails in CI and is skipped elsewhere (cannotRun).

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cannotRun } from "../support/requirements.ts";

/** Whether a check needing `tools` cannot run here: pass to `test.skipIf`. */
export function lacking(...tools: string[]): boolean {
  const absent = tools.filter((tool) => Bun.which(tool) === null);
  return cannotRun(`checks with ${tools.join(", ")}`, absent.length ? `${absent.join(", ")} not on PATH (apt-get install qpdf poppler-utils)` : null);
}

/** Runs a tool; stdout as text. Throws with stderr on a non-zero exit, except where allowed. */
export function run(cmd: string[], okCodes: number[] = [0]): string {
  const p = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  const out = p.stdout.toString();
  if (!okCodes.includes(p.exitCode ?? -1)) throw new Error(`${cmd.join(" ")} exited ${p.exitCode}: ${p.stderr.toString()}${out}`);
  return out;
}

/** A scratch directory for generated files; never inside the repository. */
export function scratch(): { dir: string; write(name: string, bytes: Uint8Array): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "einvoice-pdf-"));
  return {
    dir,
    write(name, bytes) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Share of non-white pixels of a binary (P5) PGM, as `pdftoppm -gray` writes it. */
export function inkShare(pgm: Uint8Array): number {
  const header = new TextDecoder("latin1").decode(pgm.subarray(0, 64));
  const m = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(header);
  if (!m) throw new Error("not a binary PGM");
  const [width, height] = [Number(m[1]), Number(m[2])];
  const pixels = pgm.subarray(m[0].length, m[0].length + width * height);
  let ink = 0;
  for (const p of pixels) if (p < 200) ink++;
  return ink / pixels.length;
}

/**
 * Page texts via pdftotext in content-stream order (-raw), split on form feeds (one entry per
 * page), whitespace removed: rotated text such as the watermark comes out one glyph per line.
 */
export function pageTexts(path: string): string[] {
  return run(["pdftotext", "-raw", path, "-"]).split("\f").slice(0, -1).map((page) => page.replace(/\s+/g, ""));
}
