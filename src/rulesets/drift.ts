import { StorageUnavailable, type DriftRow, type Storage } from "../db/storage";
import { pins as allPins, type Pin } from "./pins";
import type { PinReader } from "./sync";
import { sha256Hex } from "./seal";
import type { ArtifactRow } from "./seal";

interface DriftSummary {
  checked: number;
  matched: number;
  mismatched: Pin[];
  failed: { pin: Pin; error: string }[];
}

/**
 * Compares every pinned file with its source and records each outcome. A mismatch is logged and
 * kept in history; it never changes what runs (the pinned bytes stay the truth).
 */
export async function runDriftCheck(storage: Storage, now: () => Date, reader: PinReader, pins: readonly Pin[] = allPins): Promise<DriftSummary> {
  const summary: DriftSummary = { checked: 0, matched: 0, mismatched: [], failed: [] };
  for (const pin of pins) {
    const base = { key: pin.key, version: pin.version, path: pin.path, source: reader.describe(pin), expectedSha256: pin.sha256 };
    let row: DriftRow;
    try {
      const actual = sha256Hex(await reader.read(pin));
      const outcome = actual === pin.sha256 ? "match" : "mismatch";
      row = { ...base, checkedAt: now().toISOString(), actualSha256: actual, outcome, detail: null };
      if (outcome === "match") summary.matched++;
      else {
        summary.mismatched.push(pin);
        console.error(JSON.stringify({ level: "warn", event: "ruleset-drift", path: pin.path, expected: pin.sha256, actual, source: base.source }));
      }
    } catch (error) {
      row = { ...base, checkedAt: now().toISOString(), actualSha256: null, outcome: "error", detail: (error as Error).message };
      summary.failed.push({ pin, error: (error as Error).message });
    }
    await storage.drift.insert(row);
    summary.checked++;
  }
  return summary;
}

type LatestCheck = { outcome: "match" | "mismatch" | "error"; checkedAt: string; source: string };

/** The newest check of every file that has one. */
export async function latestChecks(storage: Storage): Promise<Map<string, LatestCheck>> {
  const latest = new Map<string, LatestCheck>();
  for (const row of await storage.drift.newestFirst()) {
    if (!latest.has(row.path)) latest.set(row.path, { outcome: row.outcome, checkedAt: row.checkedAt, source: row.source });
  }
  return latest;
}

export function checkHistory(storage: Storage, path: string): Promise<DriftRow[]> {
  return storage.drift.history(path);
}

/**
 * `driftCheckedAt` of a verdict: only when every pinned file of every artifact that judged (the
 * entry and everything it includes or imports) matched on its newest check; the oldest of those
 * check times, as a lower bound.
 */
export function driftCheckedAt(latest: Map<string, LatestCheck>, rows: readonly ArtifactRow[], pins: readonly Pin[] = allPins): string | undefined {
  let oldest: string | undefined;
  for (const row of rows) {
    const files = pins.filter((p) => p.key === row.key && p.version === row.version);
    for (const file of files) {
      const check = latest.get(file.path);
      if (!check || check.outcome !== "match") return undefined;
      if (oldest === undefined || check.checkedAt < oldest) oldest = check.checkedAt;
    }
  }
  return oldest;
}

/** Newest checks, re-read at most once a minute: a drift run (CLI or nightly) lands within that. */
export class DriftState {
  private cached?: { at: number; latest: Map<string, LatestCheck> };

  constructor(private readonly storage: Storage) {}

  async checkedAt(rows: readonly ArtifactRow[], nowMs: number): Promise<string | undefined> {
    // A clock that went back (tests travel in time) also re-reads.
    if (!this.cached || nowMs - this.cached.at > 60_000 || nowMs < this.cached.at) {
      try {
        this.cached = { at: nowMs, latest: await latestChecks(this.storage) };
      } catch (error) {
        // The verdict is computed and paid for: without the history it goes out without the drift date, not as an error.
        if (!(error instanceof StorageUnavailable)) throw error;
        return undefined;
      }
    }
    return driftCheckedAt(this.cached.latest, rows);
  }
}
