import { DomainError } from "../errors/domain-error";
import { sunsetOf, type RulesetLifecycle } from "./lifecycle";

export type Channel = "latest" | "previous";

/** What a request asked for: a channel (from the header or the organization) and exact pins per key. */
export interface RulesetRequest {
  channel: Channel;
  /** True when the channel was chosen explicitly (header, or an organization default of previous). */
  channelSelected: boolean;
  pins: Record<string, string>;
  /** The request carried `Service-Ruleset`. */
  headerSent: boolean;
}

export const DEFAULT_REQUEST: RulesetRequest = { channel: "latest", channelSelected: false, pins: {}, headerSent: false };

const PIN = /^([a-z0-9_]+):([A-Za-z0-9._-]+)$/;

const malformed = (message: string) => new DomainError(400, "VALIDATION_ERROR", message);

/** A pin that names a version (or key) the service no longer serves, or never did. */
const notServed = (message: string) => new DomainError(422, "VALIDATION_ERROR", message);

/**
 * `Service-Ruleset: latest | previous | <versionKey>:<version>[, <versionKey>:<version>...]`;
 * the header overrides the organization's default channel. Pins leave the other keys on the
 * organization's channel.
 */
export function rulesetRequest(header: string | null, orgChannel: Channel): RulesetRequest {
  const base: RulesetRequest = { channel: orgChannel, channelSelected: orgChannel === "previous", pins: {}, headerSent: header !== null };
  if (header === null) return base;
  const value = header.trim();
  if (value === "latest" || value === "previous") return { ...base, channel: value, channelSelected: true };
  const pins: Record<string, string> = {};
  for (const part of value.split(",").map((p) => p.trim())) {
    const match = PIN.exec(part);
    if (!match) {
      throw malformed(
        `Service-Ruleset must be 'latest', 'previous' or comma-separated '<versionKey>:<version>' pins (e.g. en16931_ubl_schematron:1.3.15); '${part}' is none of these`,
      );
    }
    if (pins[match[1]] !== undefined) throw malformed(`Service-Ruleset pins ${match[1]} twice`);
    pins[match[1]] = match[2];
  }
  return { ...base, pins };
}

export interface ResolvedArtifact {
  version: string;
  /** How the version was reached; `retained` is true when it is not the latest serving version. */
  via: "latest" | "previous" | "pin";
  retained: boolean;
  /** The artifact asked for `previous`, has an older release, and none is reachable any more. */
  fellBack: boolean;
  sunsetsOn: string | null;
}

/** Checks every pin before anything runs, so a stale pin is a 422 and not a partial verdict. */
export function checkPins(lifecycle: RulesetLifecycle, request: RulesetRequest, day: string): void {
  for (const [key, version] of Object.entries(request.pins)) {
    const row = lifecycle.keys().includes(key) ? lifecycle.find(key, version) : undefined;
    if (!row) throw notServed(`Service-Ruleset pins ${key}:${version}, which is not a pinned ruleset version; GET /v1/rulesets lists what is served`);
    if (!lifecycle.pinReachable(row, day)) {
      throw notServed(`${key}:${version} is no longer served: it was retained until ${row.retainedUntil}; pin a version listed in GET /v1/rulesets`);
    }
  }
}

export function resolveArtifact(lifecycle: RulesetLifecycle, key: string, request: RulesetRequest, day: string): ResolvedArtifact {
  const latest = lifecycle.latest(key, day);
  const pinned = request.pins[key];
  if (pinned !== undefined) {
    const row = lifecycle.find(key, pinned)!;
    const retained = row !== latest;
    return { version: row.version, via: "pin", retained, fellBack: false, sunsetsOn: retained ? sunsetOf(row, "pin") : null };
  }
  if (request.channel === "previous") {
    const previous = lifecycle.previous(key, day);
    if (previous) return { version: previous.version, via: "previous", retained: true, fellBack: false, sunsetsOn: sunsetOf(previous, "previous") };
    const hasOlder = lifecycle.versionsOf(key).some((r) => r.servingFrom < latest.servingFrom);
    return { version: latest.version, via: "latest", retained: false, fellBack: hasOlder, sunsetsOn: null };
  }
  return { version: latest.version, via: "latest", retained: false, fellBack: false, sunsetsOn: null };
}

/** The result fields and header that describe how versions were chosen for one request. */
export function selectionReport(request: RulesetRequest, resolved: ResolvedArtifact[]) {
  const retained = resolved.filter((r) => r.retained);
  const sunsets = retained.map((r) => r.sunsetsOn).filter((d): d is string => d !== null).sort();
  const fields: { rulesetChannel?: Channel; rulesetFellBack?: boolean; rulesetSunsetsOn?: string } = {};
  if (request.channelSelected) {
    fields.rulesetChannel = request.channel;
    if (request.channel === "previous") fields.rulesetFellBack = resolved.some((r) => r.fellBack) || retained.length === 0;
    else fields.rulesetFellBack = false;
  }
  if (sunsets.length) fields.rulesetSunsetsOn = sunsets[0];
  const resolvedHeader: Channel | undefined = request.headerSent ? (retained.length ? "previous" : "latest") : undefined;
  return { fields, resolvedHeader };
}
