import { Type } from "@sinclair/typebox";
import { defineRoute, type BinaryBody } from "../route";
import { ApiError } from "../errors";
import { checkSchema } from "../schema-check";
import { successResponse } from "../respond";
import { unmetered } from "../metering";
import type { ValidateRequest } from "../../validation/validate";
import { verifiedProvider } from "../../transmission/inbox-providers";
import { acceptInbound, type InboundDocument } from "../../transmission/inbound";
import { transmissionOn } from "../transmission-gate";

const Participant = Type.Object({ scheme: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });

const InboundPayload = Type.Object(
  {
    messageId: Type.String({ minLength: 1, maxLength: 200, description: "the provider's id for the message; the same id again is a retry of the same document" }),
    sender: Participant,
    recipient: Participant,
    format: Type.Union([Type.Literal("ubl"), Type.Literal("cii")]),
    xml: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false, title: "InboundDocument" },
);

const Received = Type.Object(
  {
    id: Type.String({ description: "the inbound transmission, txn_…" }),
    status: Type.String({ description: "available, failed, or received while the engine is unavailable" }),
    duplicate: Type.Boolean({ description: "true when this messageId was received before: nothing new was recorded" }),
  },
  { title: "InboundReceipt" },
);

export const inboxRoute = defineRoute<BinaryBody>({
  method: "POST",
  path: "/v1/inbox/:providerId",
  auth: "none",
  body: { kind: "binary", contentTypes: ["application/json"], maxBytes: 5 * 1024 * 1024 },
  doc: {
    summary: "Inbound network callback, for providers (preview)",
    description:
      "Signed per Standard Webhooks (webhook-id, webhook-timestamp within 5 minutes, webhook-signature: v1 HMAC-SHA256 with the provider's whsec_ secret over `id.timestamp.body`). The body is an InboundDocument for a recipient a confirmed participant of some organization holds. 202 once recorded; the document is judged and read in an engine worker and made available with its verdict (a failing verdict included), or failed when unreadable. docs/transmission.md, Inbound.",
    tags: ["transmissions (preview)"],
    params: { providerId: "the provider's id, as registered with einvoice inbox-providers add" },
    errors: ["TRANSMISSION_DISABLED", "INBOX_UNKNOWN_PROVIDER", "INBOX_VERIFICATION_FAILED", "INBOX_SIGNATURE_EXPIRED", "VALIDATION_ERROR"],
    response: { data: Received },
  },
  async handle(ctx, { body }) {
    transmissionOn(ctx.deps);
    // The signature covers the bytes as sent: verified before they are parsed at all.
    const provider = await verifiedProvider(ctx.deps.storage, ctx.params.providerId, ctx.request.headers, body.bytes, ctx.deps.clock());
    let payload: unknown;
    try {
      payload = JSON.parse(new TextDecoder().decode(body.bytes));
    } catch {
      throw new ApiError(400, "VALIDATION_ERROR", "the callback body is not JSON");
    }
    const document: InboundDocument = { ...checkSchema(InboundPayload, payload, "body"), network: provider.network };
    const steps = {
      storage: ctx.deps.storage,
      now: ctx.deps.clock,
      // Judged under the latest rules: an inbound document belongs to no key's channel.
      judge: (request: ValidateRequest) => unmetered(ctx, (signal) => ctx.deps.workers().receive(request, signal)),
    };
    const { transmission, duplicate } = await acceptInbound(steps, provider.id, document);
    if (!duplicate) ctx.deps.metrics.countTransmission(transmission.status);
    return successResponse({ id: transmission.id, status: transmission.status, duplicate }, duplicate ? 200 : 202);
  },
});
