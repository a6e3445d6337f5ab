import { Type, type TSchema } from "@sinclair/typebox";
import { ERROR_CODES, type ErrorCode } from "../errors/error-codes";
import { ValidationResultSchema } from "../validation/result-schema";
import { REQUEST_HEADERS, RESPONSE_HEADERS, type ResponseHeader } from "./headers";
import type { RouteDef } from "./route";

const API_VERSION = "0.2.0";

type Json = Record<string, unknown>;

/** Keywords whose value is a map of subschemas, a list of them, or one (or, for `items`, either). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const SCHEMA_VALUES = new Set(["items", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames", "not", "if", "then", "else"]);

const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * The document's `components/schemas`: every named TypeBox schema (its `$id`, else its `title`)
 * lives there once and is referred to by `#/components/schemas/<name>`. Inlined, a recursive
 * schema's bare `$ref: "InvoiceLine"` is a reference OpenAPI tools cannot resolve, and the same
 * `$id` met twice in one document (generate's request and parse's answer both hold the invoice
 * line) is a duplicate they refuse.
 */
class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  private readonly written = new Map<string, string>();

  /** The schema as the document holds it; TypeBox's symbol-keyed bookkeeping drops out here. */
  add(schema: TSchema): Json {
    return this.place(JSON.parse(JSON.stringify(schema)));
  }

  private place(schema: unknown): Json {
    if (typeof schema !== "object" || schema === null) return schema as Json;
    const out: Json = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$id") continue;
      if (key === "$ref" && typeof value === "string" && !value.startsWith("#")) out[key] = componentRef(value);
      else if (SCHEMA_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, sub]) => [name, this.place(sub)]));
      else if (SCHEMA_LISTS.has(key) || (SCHEMA_VALUES.has(key) && Array.isArray(value))) out[key] = (value as unknown[]).map((sub) => this.place(sub));
      else if (SCHEMA_VALUES.has(key)) out[key] = this.place(value);
      else out[key] = value;
    }
    const { $id, title } = schema as { $id?: unknown; title?: unknown };
    const name = typeof $id === "string" ? $id : typeof title === "string" ? title : undefined;
    if (name === undefined) return out;
    const text = JSON.stringify(out);
    const earlier = this.written.get(name);
    if (earlier !== undefined && earlier !== text) throw new Error(`two different schemas are named ${name}; one name must mean one schema in the OpenAPI document`);
    this.written.set(name, text);
    this.schemas[name] = out;
    return { $ref: componentRef(name) };
  }
}

/** Errors any route of the kind can answer, on top of the ones it lists itself. */
function implicitErrors(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ["INTERNAL_ERROR"];
  if (route.path.startsWith("/v1")) codes.push("RATE_LIMITED");
  if (route.auth === "key") codes.push("AUTHENTICATION_REQUIRED", "INVALID_API_KEY", "ACCOUNT_THROTTLED");
  if (route.body || route.query || route.doc.requestHeaders) codes.push("VALIDATION_ERROR");
  if (route.doc.metered) codes.push("QUOTA_EXCEEDED", "ENGINE_UNAVAILABLE");
  return codes;
}

/** Headers every response of the route carries, errors included. */
function commonHeaders(route: RouteDef): ResponseHeader[] {
  return route.path.startsWith("/v1") ? ["x-request-id", "x-service-livemode", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] : ["x-request-id"];
}

function headerObjects(names: readonly ResponseHeader[]) {
  return Object.fromEntries(names.map((name) => [name, { description: RESPONSE_HEADERS[name].description, schema: { type: RESPONSE_HEADERS[name].type } }]));
}

/** The `details` of the codes whose details the spec gives a shape; other codes' details are a free object. */
const ERROR_DETAILS: Partial<Record<ErrorCode, TSchema>> = {
  INVALID_INVOICE: Type.Object({ validationResult: ValidationResultSchema }, { title: "InvalidInvoiceDetails" }),
  VALIDATION_ERROR: Type.Object(
    {
      fields: Type.Array(
        Type.Object({
          path: Type.String({ description: "JSON Pointer into the body; the bare property name for a top-level missing property" }),
          message: Type.String(),
          keyword: Type.String({ description: "the JSON Schema keyword: required, type, const, anyOf, minimum, …" }),
        }),
      ),
    },
    { title: "SchemaFailureDetails", description: "on a schema failure" },
  ),
};

function detailsSchema(codes: readonly ErrorCode[], components: SchemaComponents): Json {
  const shaped = codes.flatMap((code) => (ERROR_DETAILS[code] ? [components.add(ERROR_DETAILS[code])] : []));
  return shaped.length ? { anyOf: [...shaped, { type: "object" }] } : { type: "object" };
}

function errorResponses(route: RouteDef, components: SchemaComponents): Json {
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
      const extra: ResponseHeader[] = status === 429 || status === 503 ? ["retry-after"] : [];
      const refund: ResponseHeader[] = status >= 500 && route.doc.metered ? ["x-service-quota-refunded"] : [];
      return [
        String(status),
        {
          description: codes.map((c) => `\`${c}\`: ${ERROR_CODES[c].when}`).join("\n\n"),
          headers: headerObjects([...common, ...extra, ...refund]),
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
                      details: detailsSchema(codes, components),
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

/** The path's `:name` segments, the request headers the route reads, and its query, in that order. */
function parameters(route: RouteDef, components: SchemaComponents): Json[] {
  const path = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => {
    const description = route.doc.params?.[name!];
    if (!description) throw new Error(`${route.method} ${route.path}: doc.params does not say what :${name} is`);
    return { name, in: "path", required: true, description, schema: { type: "string" } };
  });
  const headers = (route.doc.requestHeaders ?? []).map((name) => ({ name, in: "header", required: false, description: REQUEST_HEADERS[name], schema: { type: "string" } }));
  const query = route.query ? (components.add(route.query) as { properties?: Record<string, Json>; required?: string[] }) : {};
  const queries = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: query.required?.includes(name) ?? false,
    description: schema.description,
    schema,
  }));
  return [...path, ...headers, ...queries];
}

function operation(route: RouteDef, components: SchemaComponents) {
  const { doc } = route;
  const raw = "data" in doc.response ? doc.response.raw : doc.response;
  const content: Json = Object.fromEntries((raw?.mediaTypes ?? []).map((t) => [t, { schema: { type: "string", format: "binary" } }]));
  if ("data" in doc.response) {
    content["application/json"] = { schema: { type: "object", required: ["success", "data"], properties: { success: { const: true }, data: components.add(doc.response.data) } } };
  }
  const description = !raw ? "success envelope" : "data" in doc.response ? `${raw.description}; with \`Accept: application/json\`, the success envelope` : raw.description;
  const op: Json = {
    summary: doc.summary,
    description: [doc.description, doc.metered ? "Spends one quota unit per call." : "Costs no quota."].filter(Boolean).join("\n\n"),
    tags: doc.tags,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    security: route.auth === "key" ? [{ bearerAuth: [] }, { apiKeyHeader: [] }] : [],
  };
  const params = parameters(route, components);
  if (params.length) op.parameters = params;
  if (route.body) {
    const schema = route.body.kind === "json" ? components.add(route.body.schema) : { type: "string", format: "binary" };
    op.requestBody = {
      required: true,
      description: `At most ${route.body.maxBytes} bytes (checked before the body is read).`,
      content: Object.fromEntries(route.body.contentTypes.map((t) => [t, { schema }])),
    };
  }
  op.responses = {
    "200": { description, headers: headerObjects([...commonHeaders(route), ...(doc.headers ?? [])]), content },
    ...errorResponses(route, components),
  };
  return op;
}

/** The OpenAPI 3.1 document, built from the same route definitions that validate requests. */
export function buildOpenApi(routes: RouteDef[]): Json {
  const components = new SchemaComponents();
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, components);
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
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer svc_live_… or svc_test_…" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
    },
  };
}
