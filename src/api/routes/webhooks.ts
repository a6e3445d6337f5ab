import { Type } from "@sinclair/typebox";
import { defineRoute, type RequestContext } from "../route";
import { transmissionOn } from "../transmission-gate";
import { STRICT_WEBHOOK_DESTINATIONS } from "../../config";
import { MAX_URL_LENGTH, MIN_URL_LENGTH } from "../../webhooks/destination";
import {
  createSubscription,
  deleteSubscription,
  enableSubscription,
  getSubscription,
  listDeliveries,
  listSubscriptions,
  redeliver,
  rotateSecret,
  WEBHOOK_EVENTS,
  type NewSubscription,
} from "../../webhooks/subscriptions";

const tags = ["webhooks (preview)"];
const params = { id: "the subscription's id, wh_…" };

const EventType = Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e)));

const CreateRequest = Type.Object(
  {
    url: Type.String({ minLength: MIN_URL_LENGTH, maxLength: MAX_URL_LENGTH, description: "https URL without credentials; refused when it names a private, loopback or link-local address (docs/webhooks.md, Destinations)" }),
    eventTypes: Type.Optional(Type.Array(EventType, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, description: "default: every event type" })),
  },
  { additionalProperties: false, title: "CreateWebhookSubscription" },
);

const Subscription = Type.Object(
  {
    id: Type.String({ description: "wh_…" }),
    url: Type.String(),
    eventTypes: Type.Array(EventType),
    status: Type.Union([Type.Literal("active"), Type.Literal("disabled")]),
    disabledReason: Type.Union([Type.String(), Type.Null()], { description: "why it was disabled: a 410 Gone, or sustained failure" }),
    consecutiveFailures: Type.Integer({ description: "failed attempts since the last delivered one" }),
    previousSecretRetiresAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "while a rotation's overlap lasts, when the previous secret stops signing" }),
    createdAt: Type.String({ format: "date-time" }),
  },
  { title: "WebhookSubscription" },
);

const WithSecret = Type.Composite([Subscription, Type.Object({ secret: Type.String({ description: "whsec_…, the signing secret: shown this once" }) })], { title: "WebhookSubscriptionWithSecret" });

const Delivery = Type.Object(
  {
    id: Type.Integer(),
    status: Type.Union(["pending", "delivered", "failed", "suppressed"].map((s) => Type.Literal(s)), { description: "suppressed: a test-key event, recorded and never sent" }),
    attempts: Type.Integer(),
    nextAttemptAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
  },
  { title: "WebhookDelivery" },
);


const org = (ctx: RequestContext<"key">) => {
  transmissionOn(ctx.deps);
  return ctx.caller.org.id;
};

const errors = ["TRANSMISSION_DISABLED", "NOT_FOUND"] as const;

export const createWebhookRoute = defineRoute<NewSubscription>({
  method: "POST",
  path: "/v1/webhooks",
  auth: "key",
  body: { kind: "json", schema: CreateRequest, contentTypes: ["application/json"], maxBytes: 16 * 1024 },
  doc: {
    summary: "Subscribe a URL to transmission events (preview)",
    description: `Answers the subscription with its signing secret, shown this once. At most 10 per organization. Deliveries are signed per Standard Webhooks (docs/webhooks.md).`,
    tags,
    errors: ["TRANSMISSION_DISABLED"],
    response: { data: WithSecret },
  },
  handle: (ctx, { body }) => createSubscription(ctx.deps.storage, ctx.deps.clock, ctx.deps.config.transmission.webhooks ?? STRICT_WEBHOOK_DESTINATIONS, org(ctx), body),
});

export const listWebhooksRoute = defineRoute({
  method: "GET",
  path: "/v1/webhooks",
  auth: "key",
  doc: { summary: "The organization's webhook subscriptions, without their secrets (preview)", tags, errors: ["TRANSMISSION_DISABLED"], response: { data: Type.Array(Subscription) } },
  handle: (ctx) => listSubscriptions(ctx.deps.storage, ctx.deps.clock, org(ctx)),
});

export const getWebhookRoute = defineRoute({
  method: "GET",
  path: "/v1/webhooks/:id",
  auth: "key",
  doc: { summary: "One webhook subscription, without its secret (preview)", tags, params, errors: [...errors], response: { data: Subscription } },
  handle: (ctx) => getSubscription(ctx.deps.storage, ctx.deps.clock, org(ctx), ctx.params.id),
});

export const deleteWebhookRoute = defineRoute({
  method: "DELETE",
  path: "/v1/webhooks/:id",
  auth: "key",
  doc: { summary: "Delete a webhook subscription and its delivery records (preview)", tags, params, errors: [...errors], response: { data: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }) } },
  async handle(ctx) {
    await deleteSubscription(ctx.deps.storage, org(ctx), ctx.params.id);
    return { id: ctx.params.id, deleted: true };
  },
});

export const rotateWebhookSecretRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/:id/rotate-secret",
  auth: "key",
  doc: {
    summary: "A new signing secret, shown this once; the previous one keeps signing alongside for 24 h (preview)",
    tags,
    params,
    errors: [...errors],
    response: { data: WithSecret },
  },
  handle: (ctx) => rotateSecret(ctx.deps.storage, ctx.deps.clock, org(ctx), ctx.params.id),
});

export const enableWebhookRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/:id/enable",
  auth: "key",
  doc: { summary: "Active again after an automatic disable; pending deliveries resume (preview)", tags, params, errors: [...errors], response: { data: Subscription } },
  handle: (ctx) => enableSubscription(ctx.deps.storage, ctx.deps.clock, org(ctx), ctx.params.id),
});

export const webhookDeliveriesRoute = defineRoute({
  method: "GET",
  path: "/v1/webhooks/:id/deliveries",
  auth: "key",
  doc: { summary: "The subscription's 50 most recent deliveries, newest first (preview)", tags, params, errors: [...errors], response: { data: Type.Array(Delivery) } },
  handle: (ctx) => listDeliveries(ctx.deps.storage, org(ctx), ctx.params.id),
});

export const redeliverWebhookRoute = defineRoute({
  method: "POST",
  path: "/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
  auth: "key",
  doc: {
    summary: "Send a delivery once more, now; never a test-key event (preview)",
    tags,
    params: { ...params, deliveryId: "the delivery's id, from the deliveries list" },
    errors: [...errors, "VALIDATION_ERROR"],
    response: { data: Delivery },
  },
  handle: (ctx) => redeliver(ctx.deps.storage, ctx.deps.clock, org(ctx), ctx.params.id, ctx.params.deliveryId),
});

export const WEBHOOK_ROUTES = [
  createWebhookRoute,
  listWebhooksRoute,
  getWebhookRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  enableWebhookRoute,
  webhookDeliveriesRoute,
  redeliverWebhookRoute,
];
