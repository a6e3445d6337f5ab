import { Elysia } from "elysia";
import type { Deps } from "./deps";
import type { RouteDef } from "./route";
import { runRoute } from "./pipeline";
import { prepareSchema } from "./schema-check";
import { buildOpenApi } from "./openapi";
import { renderDocsPage } from "./docs-page";
import { DOCS_CSP, PREFLIGHT_HEADERS } from "./headers";
import { edgeResponse, plainResponse } from "./respond";
import { metricsAnswer } from "./metrics-endpoint";
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from "../config";
import { meRoute } from "./routes/me";
import { validateRoute } from "./routes/validate";
import { rulesetsRoute } from "./routes/rulesets";
import { generateRoute } from "./routes/generate";
import { parseRoute } from "./routes/parse";
import { convertRoute } from "./routes/convert";
import { receiveRoute } from "./routes/receive";
import { createTemplateRoute, deleteTemplateRoute, getTemplateRoute, listTemplatesRoute } from "./routes/pdf-templates";
import { TRANSMISSION_ROUTES } from "./routes/transmissions";
import { WEBHOOK_ROUTES } from "./routes/webhooks";
import { dashboard } from "../dashboard/routes";

/** Every API route, in the order the OpenAPI document lists them. */
export const API_ROUTES: RouteDef[] = [
  meRoute,
  generateRoute,
  validateRoute,
  parseRoute,
  convertRoute,
  receiveRoute,
  rulesetsRoute,
  createTemplateRoute,
  listTemplatesRoute,
  getTemplateRoute,
  deleteTemplateRoute,
  ...TRANSMISSION_ROUTES,
  ...WEBHOOK_ROUTES,
];

type Server = { requestIP(request: Request): { address: string } | null } | null;

const clientAddress = (server: Server, request: Request) => server?.requestIP(request)?.address ?? "unknown";

/**
 * What Elysia would otherwise choose for Bun's listener. Bun closes a connection silent for its idle
 * timeout without asking us, and checks idle sockets only every few seconds: it must outlast the
 * body deadline by a margin, or a stalled client would lose its 408 to a bare close. Elysia's
 * `reusePort` would let a second server (another database) bind the same port and silently take
 * a share of the requests; a taken port must stop the start instead.
 */
const listenerOptions = (http: HttpSettings) => ({ idleTimeout: Math.ceil(http.bodyTimeoutMs / 1000) + 10, reusePort: false });

/**
 * Composes the HTTP surface. Elysia routes; the pipeline does the rest, so every route answers
 * through the same checks and headers. `extraRoutes` lets later features (and tests) mount
 * routes that share that pipeline.
 */
export function createApp(deps: Deps, extraRoutes: RouteDef[] = [], http: HttpSettings = DEFAULT_HTTP_SETTINGS) {
  const routes = [...API_ROUTES, ...extraRoutes];
  for (const route of routes) {
    if (route.query) prepareSchema(route.query, "query");
    if (route.body?.kind === "json") prepareSchema(route.body.schema, "body");
  }
  const openapi = buildOpenApi(routes);
  const openapiJson = JSON.stringify(openapi);
  const docsHtml = renderDocsPage(openapi as Parameters<typeof renderDocsPage>[0]);
  const incoming = (request: Request, params: Record<string, string>, server: unknown) => ({
    request,
    params,
    clientAddress: clientAddress(server as Server, request),
    bodyTimeoutMs: http.bodyTimeoutMs,
  });

  const app = new Elysia({ serve: listenerOptions(http) })
    .get("/openapi.json", () => plainResponse(openapiJson, "application/json; charset=utf-8"))
    .get("/docs", () => plainResponse(docsHtml, "text/html; charset=utf-8", { "content-security-policy": DOCS_CSP }))
    .options("/*", () => edgeResponse(new Response(null, { status: 204, headers: PREFLIGHT_HEADERS })))
    // The dashboard's pages (src/dashboard/): HTML with their own headers, outside the /v1 pipeline.
    .get("/", ({ request, server }) => dashboard(deps, request, clientAddress(server as Server, request)))
    .all("/dashboard", ({ request, server }) => dashboard(deps, request, clientAddress(server as Server, request)), { parse: "none" })
    .all("/dashboard/*", ({ request, server }) => dashboard(deps, request, clientAddress(server as Server, request)), { parse: "none" })
    .onError(({ code, request, server }) => {
      if (code === "NOT_FOUND") return runRoute(deps, null, incoming(request, {}, server));
    });
  if (deps.config.metrics && http.metricsPort === null) app.get("/metrics", ({ request }) => metricsAnswer(deps.metrics, http.metricsToken, request));
  for (const route of routes) {
    app.route(route.method, route.path, ({ request, params, server }) => runRoute(deps, route, incoming(request, params as Record<string, string>, server)), {
      parse: "none",
    });
  }
  return app;
}
