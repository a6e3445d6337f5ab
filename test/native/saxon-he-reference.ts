// The stylesheet Saxon-HE runs as the reference for a pinned rule file. Saxon-HE 9.9 (Debian's, the
// reference here) cannot compile one XSLT 3.0 pattern form the France CTC UBL Flux2 files use, a
// parenthesized union as a later step: `H/(A | B)/T` stops the compile with "Cannot convert the
// expression {homCheck(...)}". A path distributes over a union (`H/(A | B)/T` selects exactly what
// `H/A/T | H/B/T` selects), so a copy spelling each such match pattern as that union is the same
// stylesheet to an engine that compiles both; every other byte is the pinned file's.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A match pattern `HEAD/(A | B)/TAIL`, A and B single steps. */
const GROUP_STEP = /match="([^"]*?)\/\(([\w:]+) \| ([\w:]+)\)\/([^"]*)"/g;

/** `xslt` itself, or (when it has a pattern Saxon-HE 9.9 cannot compile) the distributed copy written to `work`. */
export function saxonHeReference(xslt: string, work: string): string {
  const text = readFileSync(xslt, "utf8");
  const distributed = text.replace(GROUP_STEP, (_, head, a, b, tail) => `match="${head}/${a}/${tail} | ${head}/${b}/${tail}"`);
  if (distributed === text) return xslt;
  // Not beside the pinned file: the files this applies to open no document() code lists.
  const copy = join(work, `saxon-he-reference-${xslt.replace(/[^\w.-]/g, "_")}`);
  writeFileSync(copy, distributed);
  return copy;
}
