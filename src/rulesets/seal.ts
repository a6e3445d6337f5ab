/** One pinned file that judged a document. */
export interface ArtifactRow {
  key: string;
  version: string;
  fileSha256: string;
}

/** What ran a pinned file; named in results beside the row, outside the seal (the artifact is the same). */
export type JudgingEngine = "libxml2-wasm" | "native" | "saxonjs";

export interface JudgedArtifactRow extends ArtifactRow {
  engine: JudgingEngine;
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** The spec's recipe: sort the lines `<key>@<version>=<fileSha256>`, join with newlines, SHA-256. */
export function rulesetSha256(rows: readonly ArtifactRow[]): string {
  return sha256Hex(rows.map((r) => `${r.key}@${r.version}=${r.fileSha256}`).sort().join("\n"));
}
