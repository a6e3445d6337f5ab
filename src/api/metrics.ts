/**
 * Operator metrics in the Prometheus text format: 429s by subtype, request durations by route,
 * webhook delivery attempts by outcome and transmission status changes by status (docs/webhooks.md,
 * "Metrics"). Each instance counts what it did itself; a scrape of every instance adds up.
 */
export type ThrottleSubtype = "rate_limit_hit" | "quota_exhausted" | "abuse_throttle_hit" | "unknown";
/** A recorded attempt that was answered 2xx, will be retried, gave up; or a test-key event recorded and never sent. */
export type WebhookOutcome = "delivered" | "retrying" | "failed" | "suppressed";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

export class Metrics {
  private readonly throttled = new Map<ThrottleSubtype, number>([
    ["rate_limit_hit", 0],
    ["quota_exhausted", 0],
    ["abuse_throttle_hit", 0],
    ["unknown", 0],
  ]);
  private readonly durations = new Map<string, Histogram>();
  private readonly webhooks = new Map<WebhookOutcome, number>([
    ["delivered", 0],
    ["retrying", 0],
    ["failed", 0],
    ["suppressed", 0],
  ]);
  private readonly transmissions = new Map<string, number>();

  count429(subtype: ThrottleSubtype): void {
    this.throttled.set(subtype, (this.throttled.get(subtype) ?? 0) + 1);
  }

  countWebhookDelivery(outcome: WebhookOutcome, n = 1): void {
    this.webhooks.set(outcome, (this.webhooks.get(outcome) ?? 0) + n);
  }

  /** A transmission reached `status` (created in it, or moved into it) on this instance. */
  countTransmission(status: string): void {
    this.transmissions.set(status, (this.transmissions.get(status) ?? 0) + 1);
  }

  observe(method: string, route: string, seconds: number): void {
    const key = JSON.stringify([method, route]);
    let h = this.durations.get(key);
    if (!h) this.durations.set(key, (h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) h.counts[i]++;
    });
    h.sum += seconds;
    h.count++;
  }

  render(): string {
    const lines = [
      "# HELP service_api_http_429_total Requests answered 429, by throttle subtype.",
      "# TYPE service_api_http_429_total counter",
      ...[...this.throttled].map(([subtype, n]) => `service_api_http_429_total{subtype="${subtype}"} ${n}`),
      "# HELP service_api_http_request_duration_seconds Time from request to response, by method and route template.",
      "# TYPE service_api_http_request_duration_seconds histogram",
    ];
    for (const [key, h] of [...this.durations].sort(([a], [b]) => a.localeCompare(b))) {
      const [method, route] = JSON.parse(key) as [string, string];
      const labels = `method="${method}",route="${route}"`;
      BUCKETS.forEach((le, i) => lines.push(`service_api_http_request_duration_seconds_bucket{${labels},le="${le}"} ${h.counts[i]}`));
      lines.push(`service_api_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
      lines.push(`service_api_http_request_duration_seconds_sum{${labels}} ${h.sum}`);
      lines.push(`service_api_http_request_duration_seconds_count{${labels}} ${h.count}`);
    }
    lines.push(
      "# HELP service_webhook_deliveries_total Webhook delivery attempts by outcome; suppressed counts test-key events recorded and never sent.",
      "# TYPE service_webhook_deliveries_total counter",
      ...[...this.webhooks].map(([outcome, n]) => `service_webhook_deliveries_total{outcome="${outcome}"} ${n}`),
      "# HELP service_transmissions_total Transmissions that reached a status, by status.",
      "# TYPE service_transmissions_total counter",
      ...[...this.transmissions].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `service_transmissions_total{status="${status}"} ${n}`),
    );
    return lines.join("\n") + "\n";
  }
}
