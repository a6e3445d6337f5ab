import { Elysia } from "elysia";
import type { Deps } from "./deps";
import type { RouteDef } from "./route";
import { runRoute } from "./pipeline";
import { buildOpenApi } from "./openapi";
import { renderDocsPage } from "./docs-page";
import { applyStandardHeaders, DOCS_CSP, PREFLIGHT_HEADERS } from "./headers";
import { meRoute } from "./routes/me";
import { validateRoute } from "./routes/validate";
import { rulesetsRoute } from "./routes/rulesets";
import { generateRoute } from "./routes/generate";
import { parseRoute } from "./routes/parse";
import { createTemplateRoute, deleteTemplateRoute, getTemplateRoute, listTemplatesRoute } from "./routes/pdf-templates";

/** Every API route, in the order the OpenAPI document lists them. */
export const API_ROUTES: RouteDef[] = [
  meRoute,
  generateRoute,
  validateRoute,
  parseRoute,
  rulesetsRoute,
  createTemplateRoute,
  listTemplatesRoute,
  getTemplateRoute,
  deleteTemplateRoute,
];

type Server = { requestIP(request: Request): { address: string } | null } | null;

const clientAddress = (server: Server, request: Request) => server?.requestIP(request)?.address ?? "unknown";

function plainResponse(body: string, contentType: string, extra: Record<string, string> = {}): Response {
  const response = new Response(body, { headers: { "content-type": contentType, "x-request-id": crypto.randomUUID(), ...extra } });
  applyStandardHeaders(response.headers);
  return response;
}

/**
 * Composes the HTTP surface. Elysia routes; the pipeline does the rest, so every route answers
 * through the same checks and headers. `extraRoutes` lets later features (and tests) mount
 * routes that share that pipeline.
 */
export function createApp(deps: Deps, extraRoutes: RouteDef[] = []) {
  const routes = [...API_ROUTES, ...extraRoutes];
  const openapi = buildOpenApi(routes);
  const openapiJson = JSON.stringify(openapi);
  const docsHtml = renderDocsPage(openapi as Parameters<typeof renderDocsPage>[0]);

  const app = new Elysia()
    .get("/openapi.json", () => plainResponse(openapiJson, "application/json; charset=utf-8"))
    .get("/docs", () => plainResponse(docsHtml, "text/html; charset=utf-8", { "content-security-policy": DOCS_CSP }))
    .options("/*", () => new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, "x-request-id": crypto.randomUUID() } }))
    .onError(({ code, request, server }) => {
      if (code === "NOT_FOUND") return runRoute(deps, null, { request, params: {}, clientAddress: clientAddress(server as Server, request) });
    });
  if (deps.config.metrics) app.get("/metrics", () => plainResponse(deps.metrics.render(), "text/plain; version=0.0.4; charset=utf-8"));
  for (const route of routes) {
    app.route(
      route.method,
      route.path,
      ({ request, params, server }) =>
        runRoute(deps, route, { request, params: params as Record<string, string>, clientAddress: clientAddress(server as Server, request) }),
      { parse: "none" },
    );
  }
  return app;
}
