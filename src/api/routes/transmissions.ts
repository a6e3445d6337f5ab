import { Type } from "@sinclair/typebox";
import type { ErrorCode } from "../../errors/error-codes";
import { defineRoute, type RequestContext } from "../route";
import { ApiError, badRequest } from "../errors";
import { unmetered } from "../metering";
import { successResponse } from "../respond";
import { NETWORKS } from "../../transmission/states";
import { checkIdempotencyKey, createTransmission, requestFingerprint, type Accepted, type CreateSteps, type TransmissionRequest } from "../../transmission/create";
import { sendInvoice, type SendRequest } from "../../transmission/send";
import { inboxRoute } from "./inbox";
import { networkServed, transmissionOn } from "../transmission-gate";
import { GenerateRequest, type GenerateRequestInput } from "../../generate/request";
import { quotaStatus } from "../../accounts/quota";
import { secondsUntil } from "../../accounts/windows";
import { rulesetChoice } from "../ruleset-choice";
import { DOCUMENT_BODY_MAX_BYTES } from "../limits";
import { verifyChain } from "../../transmission/event-chain";
import type { TransmissionCursor, TransmissionRow } from "../../db/storage";

const tags = ["transmissions (preview)"];

/** What send and transmissions alike may answer instead of queueing (docs/transmission.md, "Accepting a document"). */
const ACCEPTING_REFUSALS: ErrorCode[] = [
  "TRANSMISSION_DISABLED",
  "TRANSMISSION_NO_PROVIDER",
  "INVALID_IDEMPOTENCY_KEY",
  "IDEMPOTENCY_KEY_REUSED",
  "RECIPIENT_NOT_ROUTABLE",
  "SENDER_NOT_REGISTERED",
  "SENDER_COUNTRY_MISSING",
  "QUOTA_EXCEEDED",
  "UNSUPPORTED_SYNTAX",
  "INVALID_INVOICE",
  "MISSING_CUSTOMIZATION_ID",
  "MISSING_PROCESS_ID",
  "DOCUMENT_PARTY_MISMATCH",
  "FRENCH_DOMESTIC_FLOW",
  "FRANCE_CTC_NOT_JUDGED",
  "FRANCE_CTC_BLOCKING_FINDINGS",
  "FRANCE_INVOICE_NUMBER_BURNED",
  "CONTENT_ALREADY_SENT",
  "ENGINE_UNAVAILABLE",
];
const params = { id: "the transmission's id, txn_…" };

const Network = Type.Union(NETWORKS.map((n) => Type.Literal(n)));
const Participant = Type.Object(
  { scheme: Type.String({ minLength: 1, maxLength: 64, description: "identifier scheme, e.g. the ISO 6523 ICD 0088" }), id: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

const CreateRequest = Type.Object(
  {
    network: Network,
    sender: Participant,
    recipient: Participant,
    format: Type.Union([Type.Literal("ubl"), Type.Literal("cii")]),
    xml: Type.String({ description: "the UTF-8 XML document, already validated by the caller (it is judged again: nothing invalid travels)" }),
    documentTypeId: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    deadlineAt: Type.Optional(Type.String({ format: "date-time", description: "instant by which delivery must succeed; drives atRisk" })),
  },
  { additionalProperties: false, title: "CreateTransmission" },
);

const Verdict = Type.Object(
  {
    valid: Type.Boolean(),
    format: Type.String(),
    profileDetected: Type.Optional(Type.String()),
    errors: Type.Array(Type.Unknown()),
    warnings: Type.Array(Type.Unknown()),
  },
  { description: "the validation result subset the document was accepted with" },
);

const Transmission = Type.Object(
  {
    id: Type.String({ description: "txn_…" }),
    status: Type.String(),
    direction: Type.Union([Type.Literal("outbound"), Type.Literal("inbound")]),
    network: Network,
    counterparty: Participant,
    deadlineAt: Type.Optional(Type.String({ format: "date-time" })),
    atRisk: Type.Boolean(),
    livemode: Type.Boolean(),
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
    deduplicated: Type.Optional(Type.Boolean({ description: "on send and create: true when an Idempotency-Key replay answered an earlier request" })),
    verdict: Type.Optional(Verdict),
  },
  { title: "Transmission" },
);

const Event = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    type: Type.String(),
    status: Type.String(),
    at: Type.String({ format: "date-time", description: "exactly the string the hash covers" }),
    data: Type.Record(Type.String(), Type.Unknown()),
    prevHash: Type.String(),
    hash: Type.String({ description: "SHA-256 of the canonical JSON of the event without hash (docs/transmission.md)" }),
  },
  { title: "TransmissionEvent" },
);

/** The resource as the spec shows it; `verdict` and `deduplicated` on the answers that create one. */
function resource(row: TransmissionRow, extra: { deduplicated?: boolean; withVerdict?: boolean } = {}) {
  return {
    id: row.id,
    status: row.status,
    direction: row.direction,
    network: row.network,
    counterparty: { scheme: row.counterpartyScheme, id: row.counterpartyId },
    ...(row.deadlineAt !== null && { deadlineAt: row.deadlineAt }),
    atRisk: row.atRisk,
    livemode: row.livemode,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(extra.deduplicated !== undefined && { deduplicated: extra.deduplicated }),
    ...(extra.withVerdict && row.verdict !== null && { verdict: JSON.parse(row.verdict) }),
  };
}

function transmissionEnabled(ctx: RequestContext<"key">, network?: string): void {
  transmissionOn(ctx.deps);
  if (network !== undefined) networkServed(ctx.deps, network, ctx.caller.livemode);
}

const notFound = (id: string) => new ApiError(404, "NOT_FOUND", `no transmission '${id}' in this organization`);

async function owned(ctx: RequestContext<"key">): Promise<TransmissionRow> {
  transmissionEnabled(ctx);
  const row = await ctx.deps.storage.transmissions.byId(ctx.caller.org.id, ctx.params.id);
  if (!row) throw notFound(ctx.params.id);
  return row;
}

export const createTransmissionRoute = defineRoute<TransmissionRequest>({
  method: "POST",
  path: "/v1/transmissions",
  auth: "key",
  body: { kind: "json", schema: CreateRequest, contentTypes: ["application/json"], maxBytes: 5 * 1024 * 1024 },
  doc: {
    summary: "Queue an already validated UBL or CII document for delivery (preview)",
    description:
      "Judges the document again in an engine worker and refuses what cannot travel before anything is written: nothing refused is queued or billed. 202 with the queued transmission; an Idempotency-Key replay answers 200 with the first one. Billing: one unit when it is delivered (docs/transmission.md).",
    tags,
    requestHeaders: ["Idempotency-Key"],
    errors: [...ACCEPTING_REFUSALS, "EMPTY_DOCUMENT", "MALFORMED_DOCUMENT"],
    response: { data: Transmission },
  },
  async handle(ctx, { body }) {
    transmissionEnabled(ctx, body.network);
    return accepted(ctx, await createTransmission(createSteps(ctx), callerOf(ctx), body, idempotencyOf(ctx, body)));
  },
});

const callerOf = (ctx: RequestContext<"key">) => ({ orgId: ctx.caller.org.id, livemode: ctx.caller.livemode });

/** Checked before anything is spent; the fingerprint is of the request as parsed. */
function idempotencyOf(ctx: RequestContext<"key">, body: object) {
  const key = checkIdempotencyKey(ctx.request.headers.get("idempotency-key"));
  return key === null ? null : { key, requestSha256: requestFingerprint(body) };
}

function createSteps(ctx: RequestContext<"key">): CreateSteps {
  return {
    storage: ctx.deps.storage,
    now: ctx.deps.clock,
    // Reading the document is engine work on caller bytes, under the queue and deadline; it costs no unit (delivery does).
    inspect: (order) => unmetered(ctx, (signal) => ctx.deps.workers().inspectForTransmission(order, signal)),
    async unitLeft() {
      // Test keys never bill; a live delivery bills one unit, so a used-up window queues nothing more.
      if (!ctx.caller.livemode) return;
      const status = await quotaStatus(ctx.deps.storage, ctx.deps.clock(), ctx.caller.org, true);
      if (status.remaining > 0) return;
      throw new ApiError(
        429,
        "QUOTA_EXCEEDED",
        `the monthly quota is used up (${status.used} of ${status.limit}; it resets at ${status.resetsAt}); a delivery bills one unit, so nothing was queued`,
        undefined,
        { "retry-after": String(secondsUntil(new Date(status.resetsAt), ctx.deps.clock())) },
      );
    },
  };
}

/** 202 for a new transmission, 200 for an Idempotency-Key replay. */
function accepted(ctx: RequestContext<"key">, result: Accepted): Response {
  if (!result.deduplicated) ctx.deps.metrics.countTransmission(result.transmission.status);
  return successResponse(resource(result.transmission, { deduplicated: result.deduplicated, withVerdict: true }), result.deduplicated ? 200 : 202);
}

const SendBody = Type.Object(
  {
    ...Type.Pick(GenerateRequest, ["standard", "profile", "facturxProfile", "syntax", "invoice"]).properties,
    network: Network,
    sender: Participant,
    recipient: Participant,
    documentTypeId: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    deadlineAt: Type.Optional(Type.String({ format: "date-time", description: "instant by which delivery must succeed; drives atRisk" })),
  },
  { additionalProperties: false, title: "SendRequest" },
);

export const sendRoute = defineRoute<SendRequest>({
  method: "POST",
  path: "/v1/send",
  auth: "key",
  body: { kind: "json", schema: SendBody, contentTypes: ["application/json"], maxBytes: DOCUMENT_BODY_MAX_BYTES },
  doc: {
    summary: "Generate, validate and queue an invoice for delivery (preview)",
    description:
      "Generates and validates exactly as generate (a failing verdict is 422 INVALID_INVOICE with the verdict, nothing queued), then queues the XML as POST /v1/transmissions does, with the same refusals. 202 with the queued transmission and its verdict; an Idempotency-Key replay answers 200 before anything is generated again. The generation costs no unit of its own: a send bills one unit when it is delivered (docs/transmission.md).",
    tags,
    requestHeaders: ["Idempotency-Key"],
    errors: [...ACCEPTING_REFUSALS, "PROFILE_STANDARD_MISMATCH", "DOCUMENT_TYPE_STANDARD_MISMATCH", "INVALID_REQUEST"],
    response: { data: Transmission },
  },
  async handle(ctx, { body }) {
    transmissionEnabled(ctx, body.network);
    const idempotency = idempotencyOf(ctx, body);
    const steps = {
      ...createSteps(ctx),
      // The generate job, as generate runs it for XML output: its refusals come back as they are; no unit of its own.
      generate: (request: GenerateRequestInput) =>
        unmetered(ctx, (signal) => ctx.deps.workers().generate({ request, livemode: ctx.caller.livemode, judge: { ruleset: rulesetChoice(ctx, null) } }, async () => {}, signal)),
    };
    return accepted(ctx, await sendInvoice(steps, callerOf(ctx), body, idempotency));
  },
});

const ListQuery = Type.Object(
  {
    direction: Type.Optional(Type.Union([Type.Literal("outbound"), Type.Literal("inbound")])),
    status: Type.Optional(Type.String({ maxLength: 40 })),
    network: Type.Optional(Network),
    limit: Type.Optional(Type.String({ pattern: "^(100|[1-9][0-9]?)$", description: "page size 1-100; default 20" })),
    cursor: Type.Optional(Type.String({ maxLength: 500, description: "nextCursor of the previous page" })),
  },
  { additionalProperties: false },
);

/** Opaque to callers: where the previous page ended, in base64url JSON. */
const encodeCursor = (row: TransmissionRow) => Buffer.from(JSON.stringify({ c: row.createdAt, i: row.id })).toString("base64url");

function decodeCursor(cursor: string): TransmissionCursor {
  try {
    const { c, i } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof c === "string" && typeof i === "string") return { createdAt: c, id: i };
  } catch {}
  throw badRequest("cursor is not a nextCursor this API gave; start again without it", [{ path: "/cursor", message: "not a cursor this API gave", keyword: "format" }]);
}

const DEFAULT_PAGE = 20;

export const listTransmissionsRoute = defineRoute<unknown, { direction?: string; status?: string; network?: string; limit?: string; cursor?: string }>({
  method: "GET",
  path: "/v1/transmissions",
  auth: "key",
  query: ListQuery,
  doc: {
    summary: "The organization's transmissions, most recent first (preview)",
    tags,
    errors: ["TRANSMISSION_DISABLED"],
    response: {
      data: Type.Object({
        items: Type.Array(Type.Pick(Transmission, ["id", "direction", "network", "status", "atRisk"], { title: "TransmissionListItem" })),
        nextCursor: Type.Union([Type.String(), Type.Null()]),
      }),
    },
  },
  async handle(ctx, { query }) {
    transmissionEnabled(ctx);
    const limit = query.limit === undefined ? DEFAULT_PAGE : Number(query.limit);
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    // One row more than the page says whether another page follows.
    const rows = await ctx.deps.storage.transmissions.list(ctx.caller.org.id, { direction: query.direction, status: query.status, network: query.network }, limit + 1, cursor);
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => ({ id: row.id, direction: row.direction, network: row.network, status: row.status, atRisk: row.atRisk })),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
    };
  },
});

export const getTransmissionRoute = defineRoute({
  method: "GET",
  path: "/v1/transmissions/:id",
  auth: "key",
  doc: { summary: "One transmission (preview)", tags, params, errors: ["TRANSMISSION_DISABLED", "NOT_FOUND"], response: { data: Transmission } },
  async handle(ctx) {
    return resource(await owned(ctx));
  },
});

export const transmissionEventsRoute = defineRoute({
  method: "GET",
  path: "/v1/transmissions/:id/events",
  auth: "key",
  doc: {
    summary: "The hash-chained audit trail of a transmission, verified on every read (preview)",
    tags,
    params,
    errors: ["TRANSMISSION_DISABLED", "NOT_FOUND"],
    response: {
      data: Type.Object({
        items: Type.Array(Event),
        chainOk: Type.Boolean({ description: "every event links to the one before and the last is the head the transmission keeps" }),
        brokenAt: Type.Optional(Type.Integer({ description: "the first sequence number whose link fails" })),
      }),
    },
  },
  async handle(ctx) {
    const row = await owned(ctx);
    const items = (await ctx.deps.storage.transmissions.events(row.id)).map(({ transmissionId: _, ...event }) => ({ ...event, data: JSON.parse(event.data) }));
    const verdict = verifyChain(row.id, items.map((e) => ({ ...e, transmissionId: row.id })), row.headHash);
    return { items, chainOk: verdict.chainOk, ...(!verdict.chainOk && { brokenAt: verdict.brokenAt }) };
  },
});

export const transmissionDocumentRoute = defineRoute({
  method: "GET",
  path: "/v1/transmissions/:id/document",
  auth: "key",
  doc: {
    summary: "The stored document bytes; 410 once purged under retention (preview)",
    tags,
    params,
    errors: ["TRANSMISSION_DISABLED", "NOT_FOUND"],
    response: { mediaTypes: ["application/xml"], description: "the document exactly as it was accepted" },
  },
  async handle(ctx) {
    const row = await owned(ctx);
    if (row.document === null) throw new ApiError(410, "NOT_FOUND", `the document of ${row.id} was purged under retention; its SHA-256 ${row.documentSha256} and its receipts are kept`);
    return new Response(row.document, { headers: { "content-type": "application/xml; charset=utf-8", "x-document-sha256": row.documentSha256 } });
  },
});

const Attempt = Type.Object(
  {
    n: Type.Integer({ minimum: 1, description: "the attempt's number; each later one is a retry" }),
    provider: Type.String(),
    providerRef: Type.String({ description: "our reference, written before the provider was called and the same for every retry" }),
    startedAt: Type.String({ format: "date-time" }),
    finishedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
    outcome: Type.Union([Type.String({ description: "accepted, refused, retry (busy: nothing taken), unknown (no answer), found (the provider already held it), not_found, or the lookup's answer" }), Type.Null()]),
    detail: Type.Union([Type.String(), Type.Null()]),
    nextAttemptAt: Type.Union([Type.String({ format: "date-time", description: "when the retry it scheduled was due" }), Type.Null()]),
  },
  { title: "TransmissionAttempt" },
);

export const transmissionAttemptsRoute = defineRoute({
  method: "GET",
  path: "/v1/transmissions/:id/attempts",
  auth: "key",
  doc: {
    summary: "Every delivery attempt: provider, outcome and retry history (preview)",
    tags,
    params,
    errors: ["TRANSMISSION_DISABLED", "NOT_FOUND"],
    response: { data: Type.Object({ items: Type.Array(Attempt) }) },
  },
  async handle(ctx) {
    const row = await owned(ctx);
    return { items: (await ctx.deps.storage.delivery.attempts(row.id)).map(({ transmissionId: _, ...attempt }) => attempt) };
  },
});

const Receipt = Type.Object(
  {
    kind: Type.String({ description: "acceptance, transport, message_level, official_receipt, delivery_receipt, outcome, lapse, discard, refusal, lifecycle" }),
    networkCode: Type.String({ description: "the network's own name for the answer (docs/transmission.md, Network answers)" }),
    at: Type.String({ format: "date-time", description: "when the network gave it" }),
    sha256: Type.String({ description: "SHA-256 of the proof's bytes" }),
    proof: Type.String({ description: "the proof exactly as received" }),
  },
  { title: "TransmissionReceipt" },
);

export const transmissionReceiptsRoute = defineRoute({
  method: "GET",
  path: "/v1/transmissions/:id/receipts",
  auth: "key",
  doc: {
    summary: "Proofs captured from the network, each with its SHA-256 (preview)",
    description: "Kept after the document itself is purged under retention.",
    tags,
    params,
    errors: ["TRANSMISSION_DISABLED", "NOT_FOUND"],
    response: { data: Type.Object({ items: Type.Array(Receipt) }) },
  },
  async handle(ctx) {
    const row = await owned(ctx);
    return { items: (await ctx.deps.storage.delivery.receipts(row.id)).map(({ transmissionId: _, ...receipt }) => receipt) };
  },
});

export const TRANSMISSION_ROUTES = [
  inboxRoute,
  sendRoute,
  createTransmissionRoute,
  listTransmissionsRoute,
  getTransmissionRoute,
  transmissionEventsRoute,
  transmissionDocumentRoute,
  transmissionAttemptsRoute,
  transmissionReceiptsRoute,
];
