import { ApiError } from "./errors";
import type { Deps } from "./deps";

/** Off, every transmission route refuses alike (send, transmissions and their reads, the inbound callback, webhooks). */
export function transmissionOn(deps: Deps): void {
  if (deps.config.transmission.provider === null) {
    throw new ApiError(503, "TRANSMISSION_DISABLED", "transmission is not enabled on this deployment (TRANSMISSION=off); POST /v1/receive works without it");
  }
}

/** A network the provider does not serve is a 503 to retry later, not a refusal of the request. */
export function networkServed(deps: Deps, network: string, livemode: boolean): void {
  if (!deps.config.transmission.networks.includes(network)) {
    throw new ApiError(503, "TRANSMISSION_NO_PROVIDER", `no provider serves ${network} for ${livemode ? "live" : "test"} keys on this deployment`, undefined, { "retry-after": "3600" });
  }
}
