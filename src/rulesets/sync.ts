// Brings every pinned file into build/rulesets/files/<path>, from a local mirror when one is
// present, otherwise from its upstream URL. Every byte that lands is checked against its pin.

import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { unzipSync } from "fflate";
import { pins as allPins, type Pin } from "./pins";
import { sha256Hex } from "./seal";

export const repoRoot = resolve(import.meta.dir, "../..");
export const buildDir = join(repoRoot, "build/rulesets");
export const filesDir = join(buildDir, "files");

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

type SyncAction = "present" | "copied" | "downloaded";

interface SyncOptions {
  /** Where pinned files are taken from; null = download from upstream. */
  mirror: string | null;
  /** Where files are written (default build/rulesets/files). */
  target?: string;
  pins?: readonly Pin[];
  fetch?: typeof fetch;
  onFile?: (pin: Pin, action: SyncAction) => void;
}

interface SyncResult {
  present: number;
  copied: number;
  downloaded: number;
}

/** Reads the bytes of a pinned file from wherever it is taken; says where in `describe`. */
export interface PinReader {
  read(pin: Pin): Promise<Uint8Array>;
  describe(pin: Pin): string;
  kind: "mirror" | "upstream";
}

/**
 * A mirror is a directory, or a URL, laid out like the pins (`<key>/<version>/<path>`); without one
 * every file comes from its upstream URL, zip members unpacked from their zip (fetched once).
 */
export function pinReader(mirror: string | null, doFetch: typeof fetch = fetch): PinReader {
  if (mirror && /^https?:\/\//.test(mirror)) {
    const base = mirror.endsWith("/") ? mirror : `${mirror}/`;
    const url = (pin: Pin) => base + pin.path.split("/").map(encodeURIComponent).join("/");
    return { kind: "mirror", describe: url, read: (pin) => download(doFetch, url(pin)) };
  }
  if (mirror) {
    return {
      kind: "mirror",
      describe: (pin) => join(mirror, pin.path),
      read: async (pin) => {
        const from = join(mirror, pin.path);
        if (!existsSync(from)) throw new Error(`mirror ${mirror} lacks pinned file ${pin.path}`);
        return readFileSync(from);
      },
    };
  }
  const zips = new Map<string, Record<string, Uint8Array>>();
  return {
    kind: "upstream",
    describe: (pin) => (pin.zipMember ? `${pin.upstreamUrl}!/${pin.zipMember}` : pin.upstreamUrl),
    read: async (pin) => {
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
    },
  };
}

/**
 * Syncs all pins. Verifies each file before it becomes visible (temp file + rename), so an
 * interrupted or refused sync never leaves a wrong file under its final name. Throws on the
 * first refused file.
 */
export async function syncRulesets(opts: SyncOptions): Promise<SyncResult> {
  const target = opts.target ?? filesDir;
  const result: SyncResult = { present: 0, copied: 0, downloaded: 0 };
  const reader = pinReader(opts.mirror, opts.fetch ?? fetch);
  for (const pin of opts.pins ?? allPins) {
    const dest = join(target, pin.path);
    if (existsSync(dest) && sha256Hex(readFileSync(dest)) === pin.sha256) {
      result.present++;
      opts.onFile?.(pin, "present");
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await reader.read(pin);
    } catch (error) {
      throw new Error(`cannot sync ${pin.path}: ${(error as Error).message}`);
    }
    const actual = sha256Hex(bytes);
    if (actual !== pin.sha256) throw new HashMismatchError(pin.path, pin.sha256, actual, reader.describe(pin));
    writeAtomically(dest, bytes);
    const action = reader.kind === "mirror" ? "copied" : "downloaded";
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

/** The whole body of `url`, or an error naming the URL: a connection lost mid-body included. */
async function download(doFetch: typeof fetch, url: string): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await doFetch(url);
    if (res.ok) return new Uint8Array(await res.arrayBuffer());
  } catch (error) {
    throw new Error(`download ${url} failed: ${(error as Error).message}`);
  }
  throw new Error(`download ${url} failed: HTTP ${res.status}`);
}
