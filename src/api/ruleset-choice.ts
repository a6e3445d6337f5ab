import type { RequestContext } from "./route";
import { checkPins, rulesetRequest } from "../rulesets/selection";
import type { ValidateRequest } from "../validation/validate";
import type { Channel } from "../rulesets/selection";
import { versions as pinnedVersions } from "../rulesets/pins";
import { today } from "../clock";

/**
 * The ruleset versions a request asks for: `Service-Ruleset` (validate only) over the organization's
 * default channel. Pins are checked here, before any unit is spent or anything runs.
 */
export function rulesetChoice(ctx: RequestContext<"key">, header: string | null): NonNullable<ValidateRequest["ruleset"]> {
  const day = today(ctx.deps.clock);
  const request = rulesetRequest(header, ctx.caller.org.rulesetChannel as Channel);
  checkPins(ctx.deps.lifecycle, request, day);
  // The pinned table is built once in each worker; only a substituted one (tests) travels along.
  const substituted = ctx.deps.lifecycle.facts !== pinnedVersions;
  return { request, day, ...(substituted ? { versions: [...ctx.deps.lifecycle.facts] } : {}) };
}
