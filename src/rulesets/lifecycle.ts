import { versions as pinnedVersions, type RulesetVersion } from "./pins";
import { utcDay } from "../clock";

/**
 * When each pinned version serves, and until when it stays reachable. Dates come from the
 * authority where it states them (`versions.json`); the rest follows the policy below
 * (docs/rulesets.md). All functions take the day to decide for, so tests can travel in time.
 */
const POLICY = {
  /** A superseded version stays reachable by exact pin this many months after its successor starts serving. */
  retainMonths: 12,
  /** Serving date of versions whose publisher states no release date: the day the project pinned them. */
  firstPinned: "2026-11-01",
} as const;

/** What the lifecycle needs to know about one version; dates are `YYYY-MM-DD`. */
export interface VersionFacts extends Pick<RulesetVersion, "key" | "version" | "releaseDate" | "supersededMandatoryOn">, Partial<Omit<RulesetVersion, "key" | "version" | "releaseDate" | "supersededMandatoryOn">> {
  /** Day the version starts serving, when it differs from its release (a change announced ahead). */
  servingFrom?: string | null;
  /** Day a breaking change was announced, for `scheduledChanges[]`. */
  noticePublishedOn?: string | null;
  /** False for a bump that cannot change a verdict; it then rolls into latest and keeps no previous. */
  breaking?: boolean;
  /** For `scheduledChanges[]`. */
  formats?: string[];
  capabilities?: string[];
}

interface Lifecycle {
  key: string;
  version: string;
  releaseDate: string | null;
  servingFrom: string;
  /** Last day an exact pin resolves; null while the version is the newest serving one. */
  retainedUntil: string | null;
  supersededMandatoryOn: string | null;
  breaking: boolean;
  noticePublishedOn: string | null;
  formats: string[];
  capabilities: string[];
}

function addMonths(day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return utcDay(d);
}

function dayOf(releaseDate: string | null): string | null {
  if (!releaseDate) return null;
  return /^\d{4}-\d{2}$/.test(releaseDate) ? `${releaseDate}-01` : releaseDate;
}

/** Versions of every key in serving order, with their computed dates. */
function lifecycles(facts: readonly VersionFacts[] = pinnedVersions): Map<string, Lifecycle[]> {
  const byKey = new Map<string, Lifecycle[]>();
  for (const f of facts) {
    const row: Lifecycle = {
      key: f.key,
      version: f.version,
      releaseDate: f.releaseDate,
      servingFrom: f.servingFrom ?? dayOf(f.releaseDate) ?? POLICY.firstPinned,
      retainedUntil: null,
      supersededMandatoryOn: f.supersededMandatoryOn,
      breaking: f.breaking ?? true,
      noticePublishedOn: f.noticePublishedOn ?? null,
      formats: f.formats ?? [],
      capabilities: f.capabilities ?? [],
    };
    byKey.set(f.key, [...(byKey.get(f.key) ?? []), row]);
  }
  for (const rows of byKey.values()) {
    rows.sort((a, b) => a.servingFrom.localeCompare(b.servingFrom));
    rows.forEach((row, i) => {
      const successor = rows[i + 1];
      if (successor) row.retainedUntil = addMonths(successor.servingFrom, POLICY.retainMonths);
    });
  }
  return byKey;
}

export class RulesetLifecycle {
  private readonly byKey: Map<string, Lifecycle[]>;

  constructor(readonly facts: readonly VersionFacts[] = pinnedVersions) {
    this.byKey = lifecycles(facts);
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  versionsOf(key: string): Lifecycle[] {
    const rows = this.byKey.get(key);
    if (!rows) throw new Error(`no pinned versions of ruleset '${key}'`);
    return rows;
  }

  find(key: string, version: string): Lifecycle | undefined {
    return this.byKey.get(key)?.find((r) => r.version === version);
  }

  /**
   * The newest version serving on `day`. A key's first pinned version serves from the start: there
   * is nothing older to serve, whatever its stated date.
   */
  latest(key: string, day: string): Lifecycle {
    const rows = this.versionsOf(key);
    return rows.filter((r) => r.servingFrom <= day).at(-1) ?? rows[0];
  }

  /**
   * The version retained before the most recent breaking change, while `previous` may still select
   * it (on or before its retainedUntil, and before the successor's mandatory date); else undefined.
   */
  previous(key: string, day: string): Lifecycle | undefined {
    const serving = this.versionsOf(key).filter((r) => r.servingFrom <= day);
    for (let i = serving.length - 1; i > 0; i--) {
      if (!serving[i].breaking) continue;
      const candidate = serving[i - 1];
      return previousReachable(candidate, day) ? candidate : undefined;
    }
    return undefined;
  }

  /** Whether an exact pin of this version resolves on `day`. */
  pinReachable(row: Lifecycle, day: string): boolean {
    if (row.servingFrom > day) return this.latest(row.key, day) === row;
    return row.retainedUntil === null || day <= row.retainedUntil || this.latest(row.key, day) === row;
  }

  /** Versions still reachable by pin on `day` other than the latest: the catalogue's `retained[]`. */
  retained(key: string, day: string): Lifecycle[] {
    const latest = this.latest(key, day);
    return this.versionsOf(key).filter((r) => r !== latest && r.servingFrom <= day && this.pinReachable(r, day));
  }

  /** Breaking bumps announced but not yet in force on `day`. */
  scheduled(day: string): { from: Lifecycle; to: Lifecycle }[] {
    const out: { from: Lifecycle; to: Lifecycle }[] = [];
    for (const key of this.keys()) {
      for (const row of this.versionsOf(key)) {
        if (!row.breaking || row.servingFrom <= day || !row.noticePublishedOn || row.noticePublishedOn > day) continue;
        out.push({ from: this.latest(key, day), to: row });
      }
    }
    return out;
  }
}

function previousReachable(row: Lifecycle, day: string): boolean {
  if (row.retainedUntil !== null && day > row.retainedUntil) return false;
  return row.supersededMandatoryOn === null || day < row.supersededMandatoryOn;
}

/** The day a retained version stops being served to a request that reached it this way. */
export function sunsetOf(row: Lifecycle, via: "previous" | "pin"): string | null {
  if (via === "pin" || row.supersededMandatoryOn === null) return row.retainedUntil;
  if (row.retainedUntil === null) return row.supersededMandatoryOn;
  // `previous` stops on the mandatory date itself: the last day it serves is the day before.
  const lastPreviousDay = utcDay(new Date(Date.parse(`${row.supersededMandatoryOn}T00:00:00Z`) - 86_400_000));
  return lastPreviousDay < row.retainedUntil ? lastPreviousDay : row.retainedUntil;
}
