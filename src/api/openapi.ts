import type { TSchema } from "@sinclair/typebox";
import { ERROR_CODES, type ErrorCode } from "../errors/error-codes";
import { RESPONSE_HEADERS } from "./headers";
import type { RouteDef } from "./route";

const API_VERSION = "0.2.0";

/** TypeBox schemas are JSON Schema already; this drops TypeBox's symbol-keyed bookkeeping. */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

/** Errors any route of the kind can answer, on top of the ones it lists itself. */
function implicitErrors(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ["INTERNAL_ERROR"];
  if (route.path.startsWith("/v1")) codes.push("RATE_LIMITED");
  if (route.auth === "key") codes.push("AUTHENTICATION_REQUIRED", "INVALID_API_KEY", "ACCOUNT_THROTTLED");
  if (route.body || route.query) codes.push("VALIDATION_ERROR");
  if (route.doc.metered) codes.push("QUOTA_EXCEEDED", "ENGINE_UNAVAILABLE");
  return codes;
}

/** Headers every response of the route carries, errors included. */
function commonHeaders(route: RouteDef): string[] {
  return route.path.startsWith("/v1") ? ["x-request-id", "x-service-livemode", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] : ["x-request-id"];
}

function headerObjects(names: readonly string[], descriptions: Record<string, string>) {
  return Object.fromEntries(names.map((name) => [name, { description: descriptions[name] ?? name, schema: { type: "string" } }]));
}

function errorResponses(route: RouteDef): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...implicitErrors(route), ...route.doc.errors])) {
    for (const status of ERROR_CODES[code].statuses) {
      if (status === 413 && !route.body) continue;
      if (status === 415 && !route.body) continue;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
  }
  const common = commonHeaders(route);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => {
      const extra = status === 429 || status === 503 ? ["retry-after"] : [];
      const refund = status >= 500 && route.doc.metered ? ["x-service-quota-refunded"] : [];
      return [
        String(status),
        {
          description: codes.map((c) => `\`${c}\`: ${ERROR_CODES[c].when}`).join("\n\n"),
          headers: headerObjects([...common, ...extra, ...refund], RESPONSE_HEADERS),
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["success", "error"],
                properties: {
                  success: { const: false },
                  error: {
                    type: "object",
                    required: ["code", "message"],
                    properties: {
                      code: { enum: codes },
                      message: { type: "string" },
                      details: { type: "object" },
                      incidentId: { type: "string", maxLength: 20, description: "on 5xx only; logged with the stack" },
                    },
                  },
                },
              },
            },
          },
        },
      ];
    }),
  );
}

function operation(route: RouteDef, extraHeaderDocs: Record<string, string>) {
  const { doc } = route;
  const common = commonHeaders(route);
  const success =
    "data" in doc.response
      ? {
          "application/json": {
            schema: { type: "object", required: ["success", "data"], properties: { success: { const: true }, data: plain(doc.response.data) } },
          },
        }
      : Object.fromEntries(doc.response.mediaTypes.map((t) => [t, { schema: { type: "string", format: "binary" } }]));
  const op: Record<string, unknown> = {
    summary: doc.summary,
    description: [doc.description, doc.metered ? "Spends one quota unit per call." : "Costs no quota."].filter(Boolean).join("\n\n"),
    tags: doc.tags,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    security: route.auth === "key" ? [{ bearerAuth: [] }, { apiKeyHeader: [] }] : [],
    responses: {
      "200": {
        description: "data" in doc.response ? "success envelope" : doc.response.description,
        headers: headerObjects([...common, ...(doc.headers ?? [])], { ...RESPONSE_HEADERS, ...extraHeaderDocs }),
        content: success,
      },
      ...errorResponses(route),
    },
  };
  if (route.query) {
    const query = plain(route.query) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    op.parameters = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: query.required?.includes(name) ?? false,
      description: schema.description,
      schema,
    }));
  }
  if (route.body) {
    const schema = route.body.kind === "json" ? plain(route.body.schema) : { type: "string", format: "binary" };
    op.requestBody = {
      required: true,
      description: `At most ${route.body.maxBytes} bytes (checked before the body is read).`,
      content: Object.fromEntries(route.body.contentTypes.map((t) => [t, { schema }])),
    };
  }
  return op;
}

/** The OpenAPI 3.1 document, built from the same route definitions that validate requests. */
export function buildOpenApi(routes: RouteDef[], extraHeaderDocs: Record<string, string> = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, extraHeaderDocs);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "einvoice API",
      version: API_VERSION,
      description:
        "Self-hosted EN 16931 e-invoicing: generate, validate and parse invoices. Success bodies are `{success: true, data}`, errors `{success: false, error: {code, message, details?, incidentId?}}`. Limits and defaults: docs/limits.md in the repository.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer svc_live_… or svc_test_…" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
    },
    paths,
  };
}
