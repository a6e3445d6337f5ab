import { expect, test } from "bun:test";
import { Metrics } from "../../src/api/metrics";

test("the exposition: webhook deliveries by outcome (every outcome from zero) and transmissions by status, each a counter", () => {
  const metrics = new Metrics();
  expect(metrics.render()).toContain(
    [
      "# TYPE service_webhook_deliveries_total counter",
      'service_webhook_deliveries_total{outcome="delivered"} 0',
      'service_webhook_deliveries_total{outcome="retrying"} 0',
      'service_webhook_deliveries_total{outcome="failed"} 0',
      'service_webhook_deliveries_total{outcome="suppressed"} 0',
      "# HELP service_transmissions_total Transmissions that reached a status, by status.",
      "# TYPE service_transmissions_total counter",
      "",
    ].join("\n"),
  );
  metrics.countWebhookDelivery("delivered");
  metrics.countWebhookDelivery("delivered");
  metrics.countWebhookDelivery("suppressed");
  for (const status of ["queued", "queued", "delivered", "submitted"]) metrics.countTransmission(status);
  const text = metrics.render();
  expect(text).toContain('service_webhook_deliveries_total{outcome="delivered"} 2\n');
  expect(text).toContain('service_webhook_deliveries_total{outcome="suppressed"} 1\n');
  expect(text.endsWith('service_transmissions_total{status="delivered"} 1\nservice_transmissions_total{status="queued"} 2\nservice_transmissions_total{status="submitted"} 1\n')).toBe(true);
});
