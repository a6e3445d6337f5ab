// Brings every pinned file into build/rulesets/files/<path>, from a local mirror when one is
// present, otherwise from its upstream URL. Every byte that lands is checked against its pin.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { unzipSync } from "fflate";
import { pins as allPins, type Pin } from "./pins";

export const repoRoot = resolve(import.meta.dir, "../..");
export const buildDir = join(repoRoot, "build/rulesets");
export const filesDir = join(buildDir, "files");

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** RULESETS_MIRROR if set (it must exist), else ../shared/rulesets beside the repo if it exists, else null. */
export function mirrorDir(env: Record<string, string | undefined> = process.env): string | null {
  if (env.RULESETS_MIRROR) {
    const dir = resolve(env.RULESETS_MIRROR);
    if (!existsSync(dir)) throw new Error(`RULESETS_MIRROR=${env.RULESETS_MIRROR} does not exist`);
    return dir;
  }
  const dflt = resolve(repoRoot, "../shared/rulesets");
  return existsSync(dflt) ? dflt : null;
}

export class HashMismatchError extends Error {
  constructor(readonly path: string, readonly expected: string, readonly actual: string, from: string) {
    super(`refusing ${path} from ${from}: SHA-256 expected ${expected}, got ${actual}`);
  }
}

export type SyncAction = "present" | "copied" | "downloaded";

export interface SyncOptions {
  /** Where pinned files are taken from; null = download from upstream. */
  mirror: string | null;
  /** Where files are written (default build/rulesets/files). */
  target?: string;
  pins?: readonly Pin[];
  fetch?: typeof fetch;
  onFile?: (pin: Pin, action: SyncAction) => void;
}

export interface SyncResult {
  present: number;
  copied: number;
  downloaded: number;
}

/**
 * Syncs all pins. Verifies each file before it becomes visible (temp file + rename), so an
 * interrupted or refused sync never leaves a wrong file under its final name. Throws on the
 * first refused file.
 */
export async function syncRulesets(opts: SyncOptions): Promise<SyncResult> {
  const target = opts.target ?? filesDir;
  const result: SyncResult = { present: 0, copied: 0, downloaded: 0 };
  const zips = new Map<string, Record<string, Uint8Array>>();
  const doFetch = opts.fetch ?? fetch;

  async function fromUpstream(pin: Pin): Promise<Uint8Array> {
    if (!pin.zipMember) return download(doFetch, pin.upstreamUrl);
    let members = zips.get(pin.upstreamUrl);
    if (!members) {
      // Zips are small (< 1 MB); unpacking once serves all members pinned from it.
      members = unzipSync(await download(doFetch, pin.upstreamUrl));
      zips.set(pin.upstreamUrl, members);
    }
    const bytes = members[pin.zipMember];
    if (!bytes) throw new Error(`${pin.upstreamUrl} has no member ${pin.zipMember} (needed for ${pin.path})`);
    return bytes;
  }

  for (const pin of opts.pins ?? allPins) {
    const dest = join(target, pin.path);
    if (existsSync(dest) && sha256(readFileSync(dest)) === pin.sha256) {
      result.present++;
      opts.onFile?.(pin, "present");
      continue;
    }
    let bytes: Uint8Array;
    let from: string;
    let action: SyncAction;
    if (opts.mirror) {
      from = join(opts.mirror, pin.path);
      if (!existsSync(from)) throw new Error(`mirror ${opts.mirror} lacks pinned file ${pin.path}`);
      bytes = readFileSync(from);
      action = "copied";
    } else {
      from = pin.zipMember ? `${pin.upstreamUrl}!/${pin.zipMember}` : pin.upstreamUrl;
      bytes = await fromUpstream(pin);
      action = "downloaded";
    }
    const actual = sha256(bytes);
    if (actual !== pin.sha256) throw new HashMismatchError(pin.path, pin.sha256, actual, from);
    writeAtomically(dest, bytes);
    result[action]++;
    opts.onFile?.(pin, action);
  }
  return result;
}

export function writeAtomically(dest: string, bytes: Uint8Array | string): void {
  mkdirSync(dirname(dest), { recursive: true });
  const tmp = `${dest}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, dest);
  } catch (e) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw e;
  }
}

async function download(doFetch: typeof fetch, url: string): Promise<Uint8Array> {
  const res = await doFetch(url);
  if (!res.ok) throw new Error(`download ${url} failed: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
